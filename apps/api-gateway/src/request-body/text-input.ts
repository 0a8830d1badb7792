import { DomainError, ErrorCode } from '@docrender/contracts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What is wrong with a text input that is stored, searched or compared (a query value, a path segment, a string
 * option of a body), or null: a NUL character (PostgreSQL text cannot hold one), a lone UTF-16 surrogate (not a
 * character; it cannot be encoded as UTF-8), or more than `maxLength` characters.
 */
export function textProblem(value: string, maxLength: number): string | null {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain a lone UTF-16 surrogate (\\uD800-\\uDFFF without its pair)';
  if (value.length > maxLength) return `is ${value.length} characters long; the limit is ${maxLength}`;
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The value of a JSON string literal (its bytes, quotes included, as found by the scanner), checked by textProblem:
 * 422 BindingError naming `name` otherwise, and for bytes that are not UTF-8.
 */
export function checkText(name: string, literal: Uint8Array, maxLength: number): string {
  let value: string;
  try {
    value = JSON.parse(utf8.decode(literal)) as string;
  } catch {
    throw new DomainError(ErrorCode.BindingError, `${name}: is not valid UTF-8`);
  }
  const problem = textProblem(value, maxLength);
  if (problem !== null) throw new DomainError(ErrorCode.BindingError, `${name}: ${problem}`);
  return value;
}
