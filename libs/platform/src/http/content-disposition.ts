/**
 * `Content-Disposition` of a PDF named `<documentName>.pdf` (spec 4.2 render, 4.15 document file): a quoted plain-ASCII
 * `filename` for every client and the exact UTF-8 name as `filename*` (RFC 6266, RFC 8187), percent-encoding every
 * byte outside RFC 8187's attr-char (so `'`, `(`, `)` and `*`, which encodeURIComponent leaves, are encoded too).
 */
export function contentDisposition(kind: 'inline' | 'attachment', documentName: string): string {
  const fileName = `${documentName}.pdf`;
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
