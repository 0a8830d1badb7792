import { contentDisposition } from './content-disposition';

describe('4.2 / 4.15: Content-Disposition names <documentName>.pdf (one function for the render and the document file)', () => {
  it('as a quoted ASCII filename and the exact UTF-8 name', () => {
    expect(contentDisposition('attachment', 'Invoice 2024-001')).toBe(`attachment; filename="Invoice 2024-001.pdf"; filename*=UTF-8''Invoice%202024-001.pdf`);
    expect(contentDisposition('attachment', 'Rechnung "Müller" \\ 50%')).toBe(
      `attachment; filename="Rechnung _M_ller_ _ 50_.pdf"; filename*=UTF-8''Rechnung%20%22M%C3%BCller%22%20%5C%2050%25.pdf`,
    );
  });

  it.each(['inline', 'attachment'] as const)("RFC 8187 attr-char: ' ( ) * are percent-encoded in filename* (%s)", (kind) => {
    expect(contentDisposition(kind, "O'Brien (copy) *final*")).toBe(
      `${kind}; filename="O'Brien (copy) *final*.pdf"; filename*=UTF-8''O%27Brien%20%28copy%29%20%2Afinal%2A.pdf`,
    );
  });
});
