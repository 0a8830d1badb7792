const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Member names longer than this are not recorded (no route has such a member, so none can be split). */
const MAX_KEY_BYTES = 256;

/** The member name of the bytes between its quotes (escapes decoded); '' when they are not a valid JSON string. */
function keyText(bytes: number[]): string {
  try {
    return JSON.parse(`"${Buffer.from(bytes).toString('utf8')}"`) as string;
  } catch {
    return '';
  }
}

/** Where `byte` next occurs in `chunk` from `from` on; the chunk's length when it does not. */
function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at < 0 ? chunk.length : at;
}

const isWhitespace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Watches a JSON request body chunk by chunk, while it is read (and inflated), for one value that grows past
 * `maxValueBytes`: a member of the top-level object, or an element of a member named in `splitKeys` (the documents).
 * It follows only strings and brackets, so it is cheap and needs no look-back; the full syntax check comes later
 * (json-body.scanner.ts). Its purpose is memory: a body whose one document is over the per-document limit (spec 8)
 * is refused as soon as that document passes the limit, not after the whole body (or a bomb's inflation) is in memory.
 */
export class ValueSizeGuard {
  private consumed = 0;
  private height = 0;
  private started = false;
  private rootIsObject = false;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private collectingKey = false;
  private keyBytes: number[] = [];
  private memberKey = '';
  private splitOpen = false;
  private elementIndex = -1;
  /** The value being measured: where it began, its name, and the height it sits at. */
  private valueStart = -1;
  private valueName = '';
  private valueHeight = 0;
  private scalarOpen = false;

  constructor(
    private readonly splitKeys: readonly string[],
    private readonly maxValueBytes: number,
  ) {}

  /** Feeds the next bytes; answers the name of a value now over the limit (e.g. `documents[3]`), else null. */
  feed(chunk: Uint8Array): string | null {
    const base = this.consumed;
    let nextQuote = -1;
    let nextBackslash = -1;
    for (let k = 0; k < chunk.length; k++) {
      const floor = this.splitOpen ? 2 : 1;
      if (this.height > floor) {
        // Inside a measured value only strings and brackets matter: a tight loop over locals, up to the bracket
        // that closes the value (left to the general path below).
        let height = this.height;
        let inString = this.inString;
        let escaped = this.escaped;
        for (; k < chunk.length; k++) {
          const c = chunk[k];
          if (inString) {
            if (escaped) escaped = false;
            else if (c === BACKSLASH) escaped = true;
            else if (c === QUOTE) inString = false;
            else {
              if (nextQuote < k) nextQuote = indexOrEnd(chunk, QUOTE, k);
              if (nextBackslash < k) nextBackslash = indexOrEnd(chunk, BACKSLASH, k);
              k = Math.min(nextQuote, nextBackslash) - 1;
            }
          } else if (c === QUOTE) inString = true;
          else if (c === OPEN_OBJECT || c === OPEN_ARRAY) height++;
          else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
            if (height === floor + 1) break;
            height--;
          }
        }
        this.height = height;
        this.inString = inString;
        this.escaped = escaped;
        if (k === chunk.length) break;
      }
      const c = chunk[k];
      if (this.inString) {
        if (!this.escaped && !this.collectingKey && c !== QUOTE && c !== BACKSLASH) {
          // The bulk of a body is string content: skip to its next quote or backslash (found natively, each search
          // remembered for the rest of the chunk, so a chunk is searched in linear time).
          if (nextQuote < k) nextQuote = indexOrEnd(chunk, QUOTE, k);
          if (nextBackslash < k) nextBackslash = indexOrEnd(chunk, BACKSLASH, k);
          k = Math.min(nextQuote, nextBackslash) - 1;
          continue;
        }
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) {
          this.inString = false;
          if (this.collectingKey) {
            this.collectingKey = false;
            this.memberKey = this.keyBytes.length > MAX_KEY_BYTES ? '' : keyText(this.keyBytes);
            continue;
          }
          if (this.valueEnds(base + k + 1)) return this.valueName;
          continue;
        }
        if (this.collectingKey && this.keyBytes.length <= MAX_KEY_BYTES) this.keyBytes.push(c);
        continue;
      }
      if (this.scalarOpen && (isWhitespace(c) || c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY)) {
        this.scalarOpen = false;
        if (this.valueEnds(base + k)) return this.valueName;
      }
      if (isWhitespace(c)) continue;
      if (!this.started) {
        this.started = true;
        this.rootIsObject = c === OPEN_OBJECT;
      }
      switch (c) {
        case QUOTE:
          this.inString = true;
          if (this.height === 1 && this.rootIsObject && this.expectKey) {
            this.collectingKey = true;
            this.keyBytes = [];
          } else {
            this.valueBegins(base + k, c);
          }
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          this.valueBegins(base + k, c);
          this.height++;
          if (this.height === 1) this.expectKey = true;
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          this.height--;
          if (this.valueEnds(base + k + 1)) return this.valueName;
          if (this.height === 1) this.splitOpen = false;
          break;
        case COMMA:
          if (this.height === 1) this.expectKey = true;
          break;
        case COLON:
          if (this.height === 1) this.expectKey = false;
          break;
        default:
          if (!this.scalarOpen) {
            this.scalarOpen = true;
            this.valueBegins(base + k, c);
          }
      }
    }
    this.consumed += chunk.length;
    if (this.valueStart >= 0 && this.consumed - this.valueStart > this.maxValueBytes) return this.valueName;
    return null;
  }

  /** A value ends just before `end` at the current height: true when it is the measured one and over the limit. */
  private valueEnds(end: number): boolean {
    if (this.valueStart < 0 || this.height !== this.valueHeight) return false;
    const over = end - this.valueStart > this.maxValueBytes;
    this.valueStart = -1;
    return over;
  }

  private valueBegins(at: number, first: number): void {
    if (this.height === 1 && this.rootIsObject) {
      if (first === OPEN_ARRAY && this.splitKeys.includes(this.memberKey)) {
        this.splitOpen = true;
        this.elementIndex = -1;
        return;
      }
      this.track(at, this.memberKey, 1);
    } else if (this.height === 2 && this.splitOpen) {
      this.elementIndex++;
      this.track(at, `${this.memberKey}[${this.elementIndex}]`, 2);
    }
  }

  private track(at: number, name: string, height: number): void {
    this.valueStart = at;
    this.valueName = name;
    this.valueHeight = height;
  }
}
