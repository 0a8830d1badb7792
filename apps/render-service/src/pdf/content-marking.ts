/**
 * Marked content in page content streams (ISO 32000-1 14.6, ISO 14289-1 7.1): a small reader of content-stream
 * operations, the step that marks what a tagged print left unmarked as artifacts, and the check that every painting
 * operation is either real content (inside a marked-content sequence with an MCID) or an artifact.
 */

/** One operation of a content stream: its operator and where its first operand (or the operator) starts. */
export type ContentOperation = { operator: string; start: number; end: number; properties: string | null };

/** Byte classes of the content-stream syntax (ISO 32000-1 7.2.2): white space, delimiters, the rest regular. */
const WHITESPACE = 1;
const DELIMITER = 2;
const BYTE_CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) BYTE_CLASS[c] = WHITESPACE;
for (const c of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) BYTE_CLASS[c] = DELIMITER;

/** Operators that paint (path painting but `n`, shading, XObjects, text showing, inline images). */
const PAINTING = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'sh', 'Do', 'Tj', 'TJ', "'", '"', 'EI']);

/** Whether the regular token `bytes[from, to)` is an operand: a number, true, false or null. */
function isOperandToken(bytes: Uint8Array, from: number, to: number): boolean {
  const c = bytes[from];
  // a number starts with a sign, a digit or a point
  if (c === 0x2b || c === 0x2d || c === 0x2e || (c >= 0x30 && c <= 0x39)) return true;
  const length = to - from;
  if (length === 4) {
    // true, null
    if (c === 0x74 && bytes[from + 1] === 0x72 && bytes[from + 2] === 0x75 && bytes[from + 3] === 0x65) return true;
    if (c === 0x6e && bytes[from + 1] === 0x75 && bytes[from + 2] === 0x6c && bytes[from + 3] === 0x6c) return true;
  }
  // false
  return length === 5 && c === 0x66 && bytes[from + 1] === 0x61 && bytes[from + 2] === 0x6c && bytes[from + 3] === 0x73 && bytes[from + 4] === 0x65;
}

/** The bytes `[from, to)` as Latin-1 text (operators are a few letters: no buffer for them). */
function latin1(bytes: Uint8Array, from: number, to: number): string {
  if (to - from <= 3) {
    let text = '';
    for (let i = from; i < to; i++) text += String.fromCharCode(bytes[i]);
    return text;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', from, to);
}

/**
 * The operations of a content stream, in order. Operands are skipped (strings with their escapes and nesting, hex
 * strings, dictionaries, arrays, names, numbers); for BDC the operand before the operator (its property list or
 * name) is kept as text. An inline image's data (BI … ID data EI) is one operation `EI`. A tagged print of a few
 * hundred pages has megabytes of content: the reader allocates nothing per operand and a short string per operator.
 */
export function contentOperations(bytes: Uint8Array): ContentOperation[] {
  const operations: ContentOperation[] = [];
  const length = bytes.length;
  let i = 0;
  let start = -1;
  let lastOperand = -1;
  while (i < length) {
    const c = bytes[i];
    const kind = BYTE_CLASS[c];
    if (kind === WHITESPACE) {
      i++;
      continue;
    }
    if (c === 0x25) {
      while (i < length && bytes[i] !== 0x0a && bytes[i] !== 0x0d) i++;
      continue;
    }
    const tokenStart = i;
    if (start === -1) start = i;
    if (c === 0x28) {
      i = skipString(bytes, i);
    } else if (c === 0x3c && bytes[i + 1] === 0x3c) {
      i = skipDictionary(bytes, i);
    } else if (c === 0x3c) {
      while (i < length && bytes[i] !== 0x3e) i++;
      i++;
    } else if (c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) {
      i++;
    } else if (c === 0x2f) {
      i++;
      while (i < length && BYTE_CLASS[bytes[i]] === 0) i++;
    } else {
      while (i < length && BYTE_CLASS[bytes[i]] === 0) i++;
      if (i === tokenStart) i++; // a stray delimiter (`)` or `>`): skipped
      if (isOperandToken(bytes, tokenStart, i)) {
        lastOperand = tokenStart;
        continue;
      }
      const token = latin1(bytes, tokenStart, i);
      if (token === 'ID') {
        // inline image data: one whitespace byte, then binary data up to `EI` between whitespace
        i++;
        while (i < length && !(bytes[i] === 0x45 && bytes[i + 1] === 0x49 && BYTE_CLASS[bytes[i - 1]] === WHITESPACE && (i + 2 >= length || BYTE_CLASS[bytes[i + 2]] === WHITESPACE))) i++;
        i += 2;
        operations.push({ operator: 'EI', start, end: i, properties: null });
      } else if (token !== 'BI') {
        const properties = token === 'BDC' || token === 'BMC' ? latin1(bytes, lastOperand === -1 ? start : lastOperand, tokenStart) : null;
        operations.push({ operator: token, start, end: i, properties });
      } else {
        continue; // BI: its dictionary entries up to ID are operands of the inline image
      }
      start = -1;
      lastOperand = -1;
      continue;
    }
    lastOperand = tokenStart;
  }
  return operations;
}

function skipString(bytes: Uint8Array, from: number): number {
  let depth = 0;
  let i = from;
  while (i < bytes.length) {
    const c = bytes[i];
    if (c === 0x5c) {
      i += 2;
      continue;
    }
    if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
    i++;
  }
  return i;
}

function skipDictionary(bytes: Uint8Array, from: number): number {
  let depth = 0;
  let i = from;
  while (i < bytes.length) {
    if (bytes[i] === 0x28) {
      i = skipString(bytes, i);
      continue;
    }
    if (bytes[i] === 0x3c && bytes[i + 1] === 0x3c) {
      depth++;
      i += 2;
      continue;
    }
    if (bytes[i] === 0x3e && bytes[i + 1] === 0x3e) {
      i += 2;
      if (--depth === 0) return i;
      continue;
    }
    i++;
  }
  return i;
}

/** A marked-content sequence that makes its content accounted for: an artifact, or real content with an MCID. */
function accountsFor(operation: ContentOperation): boolean {
  const tag = operation.properties ?? '';
  return /^\s*\/Artifact\b/.test(tag) || /\/MCID\s+\d/.test(tag);
}

/**
 * The content stream with every painting operation that is outside any marked-content sequence wrapped in
 * `/Artifact BMC … EMC`, or null when there is none. A wrapping sequence never crosses BT or ET (a marked-content
 * sequence that begins in a text object ends in it, ISO 32000-1 14.6) nor a marked-content operator.
 */
export function markUnmarkedAsArtifacts(bytes: Uint8Array): Uint8Array | null {
  const operations = contentOperations(bytes);
  const cuts: { at: number; text: string }[] = [];
  let depth = 0;
  let open = false;
  const close = (at: number) => {
    if (open) cuts.push({ at, text: '\nEMC\n' });
    open = false;
  };
  for (const operation of operations) {
    const { operator } = operation;
    if (operator === 'BDC' || operator === 'BMC') {
      if (depth === 0) close(operation.start);
      depth++;
    } else if (operator === 'EMC') {
      if (depth > 0) depth--;
    } else if (operator === 'BT' || operator === 'ET') {
      if (depth === 0) close(operation.start);
    } else if (depth === 0 && !open && PAINTING.has(operator)) {
      cuts.push({ at: operation.start, text: '/Artifact BMC\n' });
      open = true;
    }
  }
  close(bytes.length);
  if (cuts.length === 0) return null;
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of cuts) {
    parts.push(Buffer.from(bytes.subarray(from, cut.at)), Buffer.from(cut.text, 'latin1'));
    from = cut.at;
  }
  parts.push(Buffer.from(bytes.subarray(from)));
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The painting operations of a content stream that are neither real content (inside a sequence with an MCID) nor
 * an artifact (inside an /Artifact sequence), as operator names; and whether its marked-content operators balance.
 */
export function unaccountedPainting(bytes: Uint8Array): { operators: string[]; balanced: boolean } {
  const stack: boolean[] = [];
  let covered = 0;
  const operators: string[] = [];
  let balanced = true;
  for (const operation of contentOperations(bytes)) {
    const { operator } = operation;
    if (operator === 'BDC' || operator === 'BMC') {
      const accounts = accountsFor(operation);
      stack.push(accounts);
      if (accounts) covered++;
    } else if (operator === 'EMC') {
      const popped = stack.pop();
      if (popped === undefined) balanced = false;
      else if (popped) covered--;
    } else if (covered === 0 && PAINTING.has(operator)) {
      operators.push(operator);
    }
  }
  return { operators, balanced: balanced && stack.length === 0 };
}
