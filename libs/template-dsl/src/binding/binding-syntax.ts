import { ExpressionSyntaxError, Node, parseExpression } from '../expression/expression-syntax';

/**
 * Template text: literal text with `{{ expression }}` segments. The expression is the one language of bindings
 * and conditions (expression/expression-syntax.ts), formatters included (`{{ total | currency('EUR') }}`).
 */

export interface Binding {
  /** The checked expression tree. */
  expression: Node;
  /** The text between the braces, trimmed; used in issue descriptions. */
  source: string;
}

/** A parsed template text: literal strings and bindings in order. */
export type TemplateSegments = readonly (string | Binding)[];

export class BindingSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset of the problem in the template text (0-based). */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'BindingSyntaxError';
  }
}

/** The end of a binding: the offset of the `}}` closing the `{{` before `start`, skipping quoted text. */
function closingBraces(text: string, start: number): number {
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '}' && text[i + 1] === '}') {
      return i;
    }
  }
  if (quote) throw new BindingSyntaxError('unterminated string literal', start);
  throw new BindingSyntaxError('unclosed "{{" (missing "}}")', text.length);
}

/** Parses one expression of template text at its offset there. */
function bindingAt(text: string, start: number, end: number): Binding {
  const inner = text.slice(start, end);
  const parsed = parseExpression(inner);
  if (parsed instanceof ExpressionSyntaxError) throw new BindingSyntaxError(parsed.message, start + parsed.offset);
  return { expression: parsed, source: inner.trim() };
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
    const close = closingBraces(text, open + 2);
    segments.push(bindingAt(text, open + 2, close));
    i = close + 2;
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
