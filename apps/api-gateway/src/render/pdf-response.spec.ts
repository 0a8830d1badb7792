import { wantsRawPdf } from './pdf-response';

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
