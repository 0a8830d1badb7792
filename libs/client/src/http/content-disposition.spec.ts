import { fileNameOf } from './content-disposition';

describe('Content-Disposition file names', () => {
  it('4.2: prefers the exact RFC 5987 name over the ASCII fallback', () => {
    expect(fileNameOf(`attachment; filename="Rechnung M_rz.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`)).toBe('Rechnung März.pdf');
  });

  it('reads quoted, escaped and bare names, and null without one', () => {
    expect(fileNameOf('inline; filename="Invoice \\"A\\".pdf"')).toBe('Invoice "A".pdf');
    expect(fileNameOf('attachment; filename=report.pdf')).toBe('report.pdf');
    expect(fileNameOf(`attachment; filename="fallback.pdf"; filename*=UTF-8''%E0%A4%A.pdf`)).toBe('fallback.pdf');
    expect(fileNameOf('attachment')).toBeNull();
    expect(fileNameOf(null)).toBeNull();
  });
});
