/**
 * Parser of template text: literal text with `{{ expression | formatter(args) }}` segments.
 * Hand-written and side-effect free: no eval, no Function; the result is a small AST that
 * `binding-evaluator.ts` interprets against the data with own-property lookups only.
 */

export type PathSegment = string | number;

export type Expression =
  | { kind: 'path'; segments: PathSegment[]; text: string }
  | { kind: 'literal'; value: string | number }
  | { kind: 'call'; name: FunctionName; args: Argument[] };

/** A function argument: an expression with its own formatters, e.g. `t('due', dueDate | date('long'))`. */
export interface Argument {
  expression: Expression;
  formatters: FormatterCall[];
}

export const FUNCTION_NAMES = ['t', 'sum', 'count'] as const;
export type FunctionName = (typeof FUNCTION_NAMES)[number];

export const FORMATTER_NAMES = ['number', 'currency', 'percent', 'date', 'time', 'datetime', 'upper', 'lower', 'default'] as const;
export type FormatterName = (typeof FORMATTER_NAMES)[number];

export interface FormatterCall {
  name: FormatterName;
  args: (string | number)[];
}

export interface Binding {
  expression: Expression;
  formatters: FormatterCall[];
  /** The text between the braces, trimmed; used in issue descriptions. */
  source: string;
}

/** A parsed template text: literal strings and bindings in order. */
export type TemplateSegments = readonly (string | Binding)[];

export class BindingSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'BindingSyntaxError';
  }
}

type Token =
  | { type: 'ident'; value: string; start: number }
  | { type: 'number'; value: number; start: number }
  | { type: 'string'; value: string; start: number }
  | { type: 'punct'; value: '.' | '[' | ']' | '(' | ')' | ',' | '|'; start: number }
  | { type: 'close'; start: number };

const IDENT_START = /[A-Za-z_$]/;
const IDENT_PART = /[A-Za-z0-9_$]/;

/** Reads tokens from `{{` to the matching `}}`. */
class Tokenizer {
  private pos: number;

  constructor(
    private readonly input: string,
    start: number,
  ) {
    this.pos = start;
  }

  get position(): number {
    return this.pos;
  }

  next(): Token {
    const s = this.input;
    while (this.pos < s.length && /\s/.test(s[this.pos])) this.pos++;
    const start = this.pos;
    if (this.pos >= s.length) throw new BindingSyntaxError('unclosed "{{" (missing "}}")', start);
    const c = s[this.pos];
    if (c === '}' && s[this.pos + 1] === '}') {
      this.pos += 2;
      return { type: 'close', start };
    }
    if (c === '.' || c === '[' || c === ']' || c === '(' || c === ')' || c === ',' || c === '|') {
      this.pos++;
      return { type: 'punct', value: c, start };
    }
    if (c === "'" || c === '"') return this.readString(c, start);
    if (/[0-9]/.test(c) || (c === '-' && /[0-9]/.test(s[this.pos + 1] ?? ''))) {
      const m = /^-?[0-9]+(\.[0-9]+)?/.exec(s.slice(this.pos, this.pos + 40));
      const text = m ? m[0] : c;
      this.pos += text.length;
      return { type: 'number', value: Number(text), start };
    }
    if (IDENT_START.test(c)) {
      let end = this.pos + 1;
      while (end < s.length && IDENT_PART.test(s[end])) end++;
      const value = s.slice(this.pos, end);
      this.pos = end;
      return { type: 'ident', value, start };
    }
    throw new BindingSyntaxError(`unexpected character "${c}"`, start);
  }

  private readString(quote: string, start: number): Token {
    const s = this.input;
    let out = '';
    let i = this.pos + 1;
    while (i < s.length) {
      const ch = s[i];
      if (ch === '\\' && i + 1 < s.length) {
        out += s[i + 1];
        i += 2;
        continue;
      }
      if (ch === quote) {
        this.pos = i + 1;
        return { type: 'string', value: out, start };
      }
      out += ch;
      i++;
    }
    throw new BindingSyntaxError('unterminated string literal', start);
  }
}

class ExpressionParser {
  private lookahead: Token;

  constructor(private readonly tokens: Tokenizer) {
    this.lookahead = tokens.next();
  }

  get endPosition(): number {
    return this.tokens.position;
  }

  /** binding := expression ('|' formatter)* '}}' */
  parseBinding(): Omit<Binding, 'source'> {
    const expression = this.parseExpression();
    const formatters: FormatterCall[] = [];
    while (this.isPunct('|')) {
      this.advance();
      formatters.push(this.parseFormatter());
    }
    if (this.lookahead.type !== 'close') throw this.unexpected('"|" or "}}"');
    return { expression, formatters };
  }

  private parseExpression(): Expression {
    const t = this.lookahead;
    if (t.type === 'string' || t.type === 'number') {
      this.advance();
      return { kind: 'literal', value: t.value };
    }
    if (t.type !== 'ident') throw this.unexpected('a data path, a string, a number or a function call');
    this.advance();
    if (this.isPunct('(')) {
      if (!(FUNCTION_NAMES as readonly string[]).includes(t.value)) {
        throw new BindingSyntaxError(`unknown function "${t.value}" (known: ${FUNCTION_NAMES.join(', ')})`, t.start);
      }
      return { kind: 'call', name: t.value as FunctionName, args: this.parseArguments(() => this.parseArgument()) };
    }
    const segments: PathSegment[] = [t.value];
    let text = t.value;
    for (;;) {
      if (this.isPunct('.')) {
        this.advance();
        const name = this.lookahead;
        if (name.type !== 'ident') throw this.unexpected('a property name after "."');
        this.advance();
        segments.push(name.value);
        text += `.${name.value}`;
      } else if (this.isPunct('[')) {
        this.advance();
        const key = this.lookahead;
        if (key.type === 'number' && Number.isInteger(key.value) && key.value >= 0) {
          segments.push(key.value);
          text += `[${key.value}]`;
        } else if (key.type === 'string') {
          segments.push(key.value);
          text += `[${JSON.stringify(key.value)}]`;
        } else {
          throw this.unexpected('an index or a quoted key inside "[ ]"');
        }
        this.advance();
        this.expectPunct(']');
      } else {
        return { kind: 'path', segments, text };
      }
    }
  }

  private parseArgument(): Argument {
    const expression = this.parseExpression();
    const formatters: FormatterCall[] = [];
    while (this.isPunct('|')) {
      this.advance();
      formatters.push(this.parseFormatter());
    }
    return { expression, formatters };
  }

  private parseFormatter(): FormatterCall {
    const t = this.lookahead;
    if (t.type !== 'ident') throw this.unexpected('a formatter name after "|"');
    if (!(FORMATTER_NAMES as readonly string[]).includes(t.value)) {
      throw new BindingSyntaxError(`unknown formatter "${t.value}" (known: ${FORMATTER_NAMES.join(', ')})`, t.start);
    }
    this.advance();
    const args = this.isPunct('(')
      ? this.parseArguments(() => {
          const a = this.lookahead;
          if (a.type !== 'string' && a.type !== 'number') throw this.unexpected('a string or number argument');
          this.advance();
          return a.value;
        })
      : [];
    return { name: t.value as FormatterName, args };
  }

  private parseArguments<T>(parseOne: () => T): T[] {
    this.expectPunct('(');
    const args: T[] = [];
    if (this.isPunct(')')) {
      this.advance();
      return args;
    }
    for (;;) {
      args.push(parseOne());
      if (this.isPunct(',')) {
        this.advance();
        continue;
      }
      this.expectPunct(')');
      return args;
    }
  }

  private isPunct(value: string): boolean {
    return this.lookahead.type === 'punct' && this.lookahead.value === value;
  }

  private expectPunct(value: string): void {
    if (!this.isPunct(value)) throw this.unexpected(`"${value}"`);
    this.advance();
  }

  private advance(): void {
    this.lookahead = this.tokens.next();
  }

  private unexpected(expected: string): BindingSyntaxError {
    const t = this.lookahead;
    const found =
      t.type === 'close' ? '"}}"' : t.type === 'punct' ? `"${t.value}"` : t.type === 'string' ? 'a string' : `"${String(t.value)}"`;
    return new BindingSyntaxError(`expected ${expected} but found ${found}`, t.start);
  }
}

/** Parses a single binding expression (the part between the braces), e.g. for document names. */
function parseBindingAt(text: string, start: number): { binding: Binding; end: number } {
  const parser = new ExpressionParser(new Tokenizer(text, start));
  const parsed = parser.parseBinding();
  const end = parser.endPosition;
  return { binding: { ...parsed, source: text.slice(start, end - 2).trim() }, end };
}

/**
 * Splits template text into literal strings and bindings. `\{{` writes a literal `{{`.
 * Throws BindingSyntaxError with the offset of the problem.
 */
export function parseTemplateText(text: string): TemplateSegments {
  const segments: (string | Binding)[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{{', i);
    if (open < 0) {
      literal += text.slice(i);
      break;
    }
    if (open > 0 && text[open - 1] === '\\') {
      literal += `${text.slice(i, open - 1)}{{`;
      i = open + 2;
      continue;
    }
    literal += text.slice(i, open);
    if (literal) segments.push(literal);
    literal = '';
    const { binding, end } = parseBindingAt(text, open + 2);
    segments.push(binding);
    i = end;
  }
  if (literal) segments.push(literal);
  return segments;
}

const parsedTextCache = new Map<string, TemplateSegments | BindingSyntaxError>();
const PARSED_TEXT_CACHE_LIMIT = 5000;

/** parseTemplateText with a bounded cache; returns the error instead of throwing. */
export function parseTemplateTextCached(text: string): TemplateSegments | BindingSyntaxError {
  const hit = parsedTextCache.get(text);
  if (hit) return hit;
  let result: TemplateSegments | BindingSyntaxError;
  try {
    result = parseTemplateText(text);
  } catch (error) {
    if (!(error instanceof BindingSyntaxError)) throw error;
    result = error;
  }
  if (parsedTextCache.size >= PARSED_TEXT_CACHE_LIMIT) parsedTextCache.clear();
  parsedTextCache.set(text, result);
  return result;
}
