/**
 * The file name of a Content-Disposition header: the RFC 5987 `filename*=UTF-8''…` form when present (the exact
 * name), else the plain `filename="…"`; null when there is neither.
 */
export function fileNameOf(contentDisposition: string | null): string | null {
  if (contentDisposition === null) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(contentDisposition);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // malformed percent-encoding: fall back to the plain form
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(contentDisposition);
  if (quoted) return quoted[1].replace(/\\(.)/g, '$1');
  const bare = /filename\s*=\s*([^;\s]+)/i.exec(contentDisposition);
  return bare ? bare[1] : null;
}
