import { BindingEnvironment, bindingEnvironment, renderPlainText } from '../binding/binding-evaluator';
import { BindingSyntaxError, parseTemplateTextCached } from '../binding/binding-syntax';
import { Scope } from '../binding/scope';
import { activeTranslations } from '../i18n/translations';

const MAX_NAME_LENGTH = 200;
/** Characters no file system accepts in a name, control characters, and bidirectional overrides (name spoofing). */
const FORBIDDEN = /[\\/:*?"<>|\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[1-9]|lpt[1-9])(\..*)?$/i;

/** Makes text safe as a file name (without extension): no path separators, no reserved names, bounded length. */
export function safeFileName(name: string): string {
  let s = name.normalize('NFC').replace(FORBIDDEN, (c) => (/[\\/:*?"<>|]/.test(c) ? '-' : ' '));
  s = s.replace(/\s+/g, ' ').trim();
  s = s.replace(/\.pdf$/i, '');
  s = s.replace(/^[\s.-]+/, '').replace(/[\s.]+$/, '');
  if (WINDOWS_RESERVED.test(s)) s = `_${s}`;
  const chars = Array.from(s);
  if (chars.length > MAX_NAME_LENGTH) s = chars.slice(0, MAX_NAME_LENGTH).join('').trimEnd();
  return s;
}

/** The document name from a pattern with bindings, reporting missing values to the environment. */
export function documentNameFor(pattern: string | null | undefined, scope: Scope, env: BindingEnvironment, fallback: string): string {
  const fallbackName = safeFileName(fallback) || 'document';
  if (!pattern) return fallbackName;
  const parsed = parseTemplateTextCached(pattern);
  if (parsed instanceof BindingSyntaxError) return fallbackName;
  return safeFileName(renderPlainText(parsed, scope, env, null)) || fallbackName;
}

/**
 * Renders a document-name pattern such as `Invoice {{ number }} - {{ customer.name }}` with the same bindings
 * and formatters as templates (en-US, UTC), made safe for a file name, without extension. Falls back to
 * `fallback` when the pattern is empty, does not parse, or renders to nothing.
 */
export function renderDocumentName(pattern: string | null | undefined, data: unknown, fallback: string): string {
  const env = bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: null }, activeTranslations(null, null));
  const root = typeof data === 'object' && data !== null ? data : {};
  return documentNameFor(pattern, Scope.of(root), env, fallback);
}
