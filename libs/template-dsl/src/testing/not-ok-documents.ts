import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The attack corpus of issue 31 item 7: one JSON file per case, each a template and data that once cost a render its
 * budget or its memory. The DSL's corpus spec compiles every case; the render service's attack test renders every
 * case (docs/testing.md, "The attack corpus").
 */
export const NOT_OK_DIR = path.resolve(__dirname, '../fixtures/not-ok');

/**
 * How to build a large value, so the files stay small:
 * - `text`: `of` repeated `times` times, after `before` if given (a 1 MB label, a 20 MB text, a data URI's body);
 * - `array`: `times` copies of `of`, where `{i}` in any text of `of` is the item's index (`"item-{i}"`, `{ "key": "k{i}" }`),
 *   or `times` values each built as `each` says (a grow without `path`: `{ "text": { "of": "Ab", "times": 1450 } }`);
 * - `keys`: an object of `keys` keys `key0`…, each with its index as value.
 */
type Grown = { text: { before?: string; of: string; times: number } } | { array: { times: number } & ({ of: unknown } | { each: Grown }) } | { keys: number };
export type Grow = { path: string } & Grown;

/** An issue a case must end with: `description` is a part of the issue's description. */
export interface ExpectedIssue {
  type: string;
  elementId: string | null;
  description: string;
}

/** An attack case: a template and data that once cost a render its budget, and the issues it must give now. */
export interface NotOkDocument {
  /** The file name without `.json`. */
  name: string;
  /** What was measured (issue 31), or what the case probes. */
  issue: string;
  template: unknown;
  translations: unknown;
  /** The data, grown to its full size. */
  data: Record<string, unknown>;
  /** Exactly the issues compiling the document gives (none: it compiles clean, within its step budget). */
  expect: ExpectedIssue[];
  /**
   * What a production render in the render service ends with. Unless the file says otherwise: `blocked` with the
   * compile issues when there are any, else `rendered`. A case whose printing the product cannot yet bound cheaply
   * says `failed` with the RenderTimeout it ends with at its deadline, and `why`.
   */
  service: { outcome: 'rendered' | 'blocked' | 'failed'; issues: ExpectedIssue[]; why?: string };
}

/** `{i}` in every text of `value` replaced by `i`. */
function numbered(value: unknown, i: number): unknown {
  if (typeof value === 'string') return value.split('{i}').join(String(i));
  if (Array.isArray(value)) return value.map((v) => numbered(v, i));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbered(v, i)]));
  return value;
}

function grown(spec: Grown): unknown {
  if ('text' in spec) return (spec.text.before ?? '') + spec.text.of.repeat(spec.text.times);
  if ('keys' in spec) {
    const object: Record<string, number> = {};
    for (let i = 0; i < spec.keys; i++) object[`key${i}`] = i;
    return object;
  }
  const array = spec.array;
  return Array.from({ length: array.times }, (_, i) => ('each' in array ? grown(array.each) : numbered(array.of, i)));
}

/** Puts `value` at a dotted path (`items.0.label`; numbers index lists), creating objects on the way. */
function setAt(root: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let at: Record<string, unknown> = root;
  for (const key of keys.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string, unknown>;
  }
  at[keys[keys.length - 1]] = value;
}

type NotOkFile = Pick<NotOkDocument, 'issue' | 'template' | 'data' | 'expect'> & { translations?: unknown; grow?: Grow[]; service?: NotOkDocument['service'] };

/** One case, its data grown as its `grow` list says. */
export function notOkDocument(name: string): NotOkDocument {
  const file = JSON.parse(readFileSync(path.join(NOT_OK_DIR, `${name}.json`), 'utf8')) as NotOkFile;
  const data = file.data;
  for (const grow of file.grow ?? []) setAt(data, grow.path, grown(grow));
  const service = file.service ?? { outcome: file.expect.length > 0 ? 'blocked' : 'rendered', issues: file.expect };
  return { name, issue: file.issue, template: file.template, translations: file.translations ?? null, data, expect: file.expect, service };
}

/** The names of every case. */
export function notOkDocumentNames(): string[] {
  return readdirSync(NOT_OK_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}
