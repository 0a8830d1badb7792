import { EncodedJson } from '@docrender/contracts';

/**
 * How a payload or reply travels on the bus (docs/decisions/0022): UTF-8 JSON, except that byte arrays (a Buffer or
 * any Uint8Array) anywhere in the value travel as raw bytes after the JSON instead of inside it. The parts' places
 * and sizes go beside the body (AMQP: the `x-binary-parts` header; absent for a plain JSON body), so a body without
 * parts is exactly the JSON older builds send and read. A receiver gets each part back as a Buffer at its place.
 * A top-level field holding EncodedJson is written as its text, not serialised again (the JSON is the same).
 */
export type EncodedMessage = {
  body: Buffer;
  /** The binary parts' places and sizes (BinaryLayout as text), or null when the body is plain JSON. */
  binaryParts: string | null;
};

/** Each part's path (object keys and array indices from the root) and byte length, in the order they follow the JSON. */
type BinaryLayout = Array<[path: Array<string | number>, bytes: number]>;

/** AMQP header naming the binary parts that follow a body's JSON. */
export const BINARY_PARTS_HEADER = 'x-binary-parts';

type Found = { path: Array<string | number>; bytes: Uint8Array };

export function encodeMessage(value: unknown): EncodedMessage {
  const found: Found[] = [];
  const json = Buffer.from(jsonOf(withoutBinary(value ?? null, [], found)), 'utf8');
  if (found.length === 0) return { body: json, binaryParts: null };
  const body = Buffer.allocUnsafeSlow(json.length + found.reduce((sum, part) => sum + part.bytes.byteLength, 0));
  json.copy(body, 0);
  let offset = json.length;
  for (const part of found) {
    body.set(part.bytes, offset);
    offset += part.bytes.byteLength;
  }
  const layout: BinaryLayout = found.map((part) => [part.path, part.bytes.byteLength]);
  return { body, binaryParts: JSON.stringify(layout) };
}

/** The value of an encoded body; `binaryParts` as it came beside the body (undefined or null: plain JSON). Throws when the body does not decode. */
export function decodeMessage(body: Buffer, binaryParts: unknown): unknown {
  if (binaryParts === undefined || binaryParts === null) return JSON.parse(body.toString('utf8'));
  const layout = layoutOf(binaryParts);
  let offset = body.length - layout.reduce((sum, [, bytes]) => sum + bytes, 0);
  if (offset < 0) throw new Error(`the body (${body.length} bytes) is shorter than its binary parts`);
  const value = JSON.parse(body.toString('utf8', 0, offset)) as unknown;
  for (const [path, bytes] of layout) {
    place(value, path, body.subarray(offset, offset + bytes));
    offset += bytes;
  }
  return value;
}

/**
 * The value with its byte arrays taken out into `found` (left undefined: JSON omits the key, or writes null in an
 * array). Only plain objects and arrays are looked into; a branch without bytes is kept as it is, not copied.
 */
function withoutBinary(value: unknown, path: Array<string | number>, found: Found[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Uint8Array) {
    found.push({ path: [...path], bytes: value });
    return undefined;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      path.push(i);
      const kept = withoutBinary(item, path, found);
      path.pop();
      if (kept !== item) (copy ??= [...value])[i] = kept;
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    path.push(key);
    const kept = withoutBinary(item, path, found);
    path.pop();
    if (kept !== item) (copy ??= { ...record })[key] = kept;
  }
  return copy ?? value;
}

/** JSON.stringify, except that a top-level field holding EncodedJson is written as its text. */
function jsonOf(value: unknown): string {
  if (!isPlainObject(value)) return JSON.stringify(value);
  let encoded: string[] | null = null;
  let others: Record<string, unknown> | null = null;
  for (const key of Object.keys(value)) {
    const field = value[key];
    if (!(field instanceof EncodedJson)) continue;
    (encoded ??= []).push(`${JSON.stringify(key)}:${field.text}`);
    (others ??= { ...value })[key] = undefined;
  }
  if (encoded === null || others === null) return JSON.stringify(value);
  const rest = JSON.stringify(others);
  return `{${encoded.join(',')}${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function layoutOf(text: unknown): BinaryLayout {
  const layout = typeof text === 'string' ? (JSON.parse(text) as unknown) : text;
  const valid =
    Array.isArray(layout) &&
    layout.every(
      (entry: unknown) =>
        Array.isArray(entry) &&
        entry.length === 2 &&
        Number.isSafeInteger(entry[1]) &&
        (entry[1] as number) >= 0 &&
        Array.isArray(entry[0]) &&
        (entry[0] as unknown[]).length > 0 &&
        (entry[0] as unknown[]).every((key) => (typeof key === 'string' && !UNSAFE_KEYS.has(key)) || (Number.isSafeInteger(key) && (key as number) >= 0)),
    );
  if (!valid) throw new Error(`malformed ${BINARY_PARTS_HEADER}: ${String(text)}`);
  return layout as BinaryLayout;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Puts `bytes` at `path` in `root`, whose objects and arrays on the way must exist (the encoder left them). */
function place(root: unknown, path: Array<string | number>, bytes: Buffer): void {
  let parent = root;
  for (let i = 0; i < path.length - 1; i++) {
    const next: unknown = isContainer(parent) ? (parent as Record<string | number, unknown>)[path[i] as string] : undefined;
    parent = next;
  }
  if (!isContainer(parent)) throw new Error(`a binary part's place ${JSON.stringify(path)} is not in the JSON`);
  (parent as Record<string | number, unknown>)[path[path.length - 1] as string] = bytes;
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}
