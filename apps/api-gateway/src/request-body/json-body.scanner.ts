/** The kinds of JSON value. */
export type JsonKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** Where a value sits in the body (byte offsets, end exclusive) and how deeply it nests (a scalar is 0, `{}` is 1). */
export type ScannedValue = { start: number; end: number; kind: JsonKind; depth: number };

/** A member of the top-level object; `elements` lists the array's elements when its key was asked to be split. */
export type ScannedMember = ScannedValue & { key: string; elements: ScannedValue[] | null };

export type JsonBodyScan =
  | { valid: true; root: JsonKind; members: ScannedMember[] }
  | { valid: false; offset: number; reason: string };

/**
 * Checks that `bytes` is one JSON text (RFC 8259) and maps it without building any value: the kind of the root, and
 * for a root object the byte range, kind and nesting depth of every member, plus the same for each element of the
 * members named in `splitKeys` (e.g. `documents`). Iterative (an explicit container stack), so any nesting depth is
 * safe, and linear in the body size. Large bodies are scanned on worker threads (json-scan.pool.ts).
 */
export function scanJsonBody(bytes: Uint8Array, splitKeys: readonly string[]): JsonBodyScan {
  const OBJECT = 1;
  const ARRAY = 2;
  const length = bytes.length;
  let stack = new Uint8Array(64);
  let height = 0;
  let i = 0;

  let root: JsonKind | null = null;
  const members: ScannedMember[] = [];
  let memberKey = '';
  let memberStart = -1;
  let memberKind: JsonKind = 'null';
  let memberMaxHeight = 0;
  let memberElements: ScannedValue[] | null = null;
  let elementStart = -1;
  let elementKind: JsonKind = 'null';
  let elementMaxHeight = 0;

  const describe = (at: number): string => {
    if (at >= length) return 'end of body';
    const c = bytes[at];
    return c >= 0x21 && c <= 0x7e ? `'${String.fromCharCode(c)}'` : `byte 0x${c.toString(16).padStart(2, '0')}`;
  };
  const failure = (reason: string): JsonBodyScan => ({ valid: false, offset: i, reason: `${reason} at byte ${i} (found ${describe(i)})` });

  const skipWhitespace = (): void => {
    while (i < length) {
      const c = bytes[i];
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return;
    }
  };

  const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

  /** From an opening quote to just past the closing one; returns a reason when the string is malformed. */
  const scanString = (): string | null => {
    i++;
    for (;;) {
      if (i >= length) return 'unterminated string';
      const c = bytes[i];
      if (c === 0x22) {
        i++;
        return null;
      }
      if (c === 0x5c) {
        const e = bytes[i + 1];
        if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
        } else if (e === 0x75) {
          if (!(isHex(bytes[i + 2]) && isHex(bytes[i + 3]) && isHex(bytes[i + 4]) && isHex(bytes[i + 5]))) return 'invalid \\u escape';
          i += 6;
        } else {
          i++;
          return 'invalid escape in string';
        }
      } else if (c < 0x20) {
        return 'control character in string';
      } else {
        i++;
      }
    }
  };

  const scanNumber = (): string | null => {
    if (bytes[i] === 0x2d) i++;
    if (bytes[i] === 0x30) i++;
    else if (i < length && bytes[i] >= 0x31 && bytes[i] <= 0x39) while (i < length && isDigit(bytes[i])) i++;
    else return 'invalid number';
    if (bytes[i] === 0x2e) {
      i++;
      if (!(i < length && isDigit(bytes[i]))) return 'invalid number';
      while (i < length && isDigit(bytes[i])) i++;
    }
    if (bytes[i] === 0x65 || bytes[i] === 0x45) {
      i++;
      if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
      if (!(i < length && isDigit(bytes[i]))) return 'invalid number';
      while (i < length && isDigit(bytes[i])) i++;
    }
    return null;
  };

  const scanLiteral = (text: string): string | null => {
    for (let k = 0; k < text.length; k++) {
      if (bytes[i] !== text.charCodeAt(k)) return 'invalid literal';
      i++;
    }
    return null;
  };

  const push = (container: number): void => {
    if (height === stack.length) {
      const grown = new Uint8Array(stack.length * 2);
      grown.set(stack);
      stack = grown;
    }
    stack[height++] = container;
    if (height > memberMaxHeight) memberMaxHeight = height;
    if (height > elementMaxHeight) elementMaxHeight = height;
  };

  /** A value of `kind` starts at `i`, inside `height` open containers. */
  const beginValue = (kind: JsonKind): void => {
    if (height === 0) {
      root = kind;
    } else if (height === 1 && root === 'object') {
      memberStart = i;
      memberKind = kind;
      memberMaxHeight = 1;
      memberElements = kind === 'array' && splitKeys.includes(memberKey) ? [] : null;
    } else if (height === 2 && memberElements !== null) {
      elementStart = i;
      elementKind = kind;
      elementMaxHeight = 2;
    }
  };

  /** The value that began at the current height ended just before `i`. */
  const endValue = (): void => {
    if (height === 1 && root === 'object') {
      members.push({ key: memberKey, start: memberStart, end: i, kind: memberKind, depth: memberMaxHeight - 1, elements: memberElements });
      memberElements = null;
    } else if (height === 2 && memberElements !== null) {
      memberElements.push({ start: elementStart, end: i, kind: elementKind, depth: elementMaxHeight - 2 });
    }
  };

  /** An object or array opens at `i`: it begins a value of its kind and one more container. */
  const open = (kind: 'object' | 'array', container: number): void => {
    beginValue(kind);
    push(container);
    i++;
  };

  /** The closer at `i` ends the innermost container, the value that began at its height. */
  const close = (): void => {
    i++;
    height--;
    endValue();
  };

  const decoder = new TextDecoder();
  // 0: a value is expected; 1: a value ended; 2: first member name or '}'; 3: member name; 4: first element or ']'
  let state = 0;
  for (;;) {
    skipWhitespace();
    if (state === 1) {
      if (height === 0) {
        if (i < length) return failure('unexpected data after the JSON value');
        break;
      }
      const c = bytes[i];
      const closer = stack[height - 1] === OBJECT ? 0x7d : 0x5d;
      if (c === 0x2c) {
        i++;
        state = stack[height - 1] === OBJECT ? 3 : 0;
      } else if (c === closer) {
        close();
      } else {
        return failure(stack[height - 1] === OBJECT ? "expected ',' or '}'" : "expected ',' or ']'");
      }
      continue;
    }
    if (state === 2 || state === 3) {
      if (state === 2 && bytes[i] === 0x7d) {
        close();
        state = 1;
        continue;
      }
      if (bytes[i] !== 0x22) return failure('expected a member name');
      const keyStart = i;
      const problem = scanString();
      if (problem !== null) return failure(problem);
      if (height === 1 && root === 'object') memberKey = JSON.parse(decoder.decode(bytes.subarray(keyStart, i))) as string;
      skipWhitespace();
      if (bytes[i] !== 0x3a) return failure("expected ':'");
      i++;
      state = 0;
      continue;
    }
    if (state === 4 && bytes[i] === 0x5d) {
      close();
      state = 1;
      continue;
    }
    if (i >= length) return failure('unexpected end of body');
    const c = bytes[i];
    let problem: string | null = null;
    if (c === 0x7b) {
      open('object', OBJECT);
      state = 2;
      continue;
    }
    if (c === 0x5b) {
      open('array', ARRAY);
      state = 4;
      continue;
    }
    if (c === 0x22) {
      beginValue('string');
      problem = scanString();
    } else if (c === 0x2d || isDigit(c)) {
      beginValue('number');
      problem = scanNumber();
    } else if (c === 0x74) {
      beginValue('boolean');
      problem = scanLiteral('true');
    } else if (c === 0x66) {
      beginValue('boolean');
      problem = scanLiteral('false');
    } else if (c === 0x6e) {
      beginValue('null');
      problem = scanLiteral('null');
    } else {
      return failure('expected a JSON value');
    }
    if (problem !== null) return failure(problem);
    endValue();
    state = 1;
  }
  return { valid: true, root: root ?? 'null', members };
}
