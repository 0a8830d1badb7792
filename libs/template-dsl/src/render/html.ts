const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const NEEDS_ESCAPE = /[&<>"']/;
const ESCAPE_ALL = /[&<>"']/g;
/** Characters HTML text must not carry: C0 controls other than tab/newline/return, and lone surrogates. */
const UNSAFE_SOURCE = '[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';
const HAS_UNSAFE = new RegExp(UNSAFE_SOURCE);
const UNSAFE_ALL = new RegExp(UNSAFE_SOURCE, 'g');

/**
 * Escapes text for HTML element content and quoted attribute values. Every data value reaches the
 * output through this function (or as a validated colour, length or data URI), so markup in data is
 * shown as text.
 */
export function escapeHtml(text: string): string {
  const clean = HAS_UNSAFE.test(text) ? text.replace(UNSAFE_ALL, '\ufffd') : text;
  return NEEDS_ESCAPE.test(clean) ? clean.replace(ESCAPE_ALL, (c) => ESCAPES[c]) : clean;
}
