import { attachmentDisposition, wantsRawPdf } from './pdf-response';

describe('4.2: the representation depends only on the Accept header', () => {
  it.each(['application/pdf', 'Application/PDF', 'application/pdf; q=0.9', 'application/json;q=0.5, application/pdf', 'text/html, application/pdf'])(
    'raw PDF for %j',
    (accept) => {
      expect(wantsRawPdf(accept)).toBe(true);
    },
  );

  it.each([undefined, '', '*/*', 'application/*', 'application/json', 'application/pdf;q=0', 'application/json, application/pdf;q=0.5', 'text/html'])(
    'JSON envelope for %j (a wildcard does not count)',
    (accept) => {
      expect(wantsRawPdf(accept)).toBe(false);
    },
  );
});

describe('4.2: Content-Disposition names <documentName>.pdf', () => {
  it('as a quoted ASCII filename and the exact UTF-8 name', () => {
    expect(attachmentDisposition('Invoice 2024-001')).toBe(`attachment; filename="Invoice 2024-001.pdf"; filename*=UTF-8''Invoice%202024-001.pdf`);
    expect(attachmentDisposition('Rechnung "Müller" \\ 50%')).toBe(
      `attachment; filename="Rechnung _M_ller_ _ 50_.pdf"; filename*=UTF-8''Rechnung%20%22M%C3%BCller%22%20%5C%2050%25.pdf`,
    );
  });
});
