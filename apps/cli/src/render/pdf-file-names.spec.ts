import path from 'node:path';
import { PdfFileNames, safeName } from './pdf-file-names';

describe('PDF file names', () => {
  it('writes <documentName>.pdf, making separators and reserved characters safe', () => {
    const names = new PdfFileNames('/out');
    expect(names.pathFor('Invoice INV-1', 0)).toBe(path.join('/out', 'Invoice INV-1.pdf'));
    expect(names.pathFor('../etc/passwd', 1)).toBe(path.join('/out', '_etc_passwd.pdf'));
    expect(safeName('a:b*c?"d<e>f|g\u0001')).toBe('a_b_c__d_e_f_g_');
    expect(safeName('  name. ')).toBe('name');
  });

  it('gives a repeated name (any letter case) the document index, and an empty one a fallback', () => {
    const names = new PdfFileNames('/out');
    expect(names.pathFor('Report', 0)).toBe(path.join('/out', 'Report.pdf'));
    expect(names.pathFor('report', 4)).toBe(path.join('/out', 'report (4).pdf'));
    expect(names.pathFor('', 5)).toBe(path.join('/out', 'document-5.pdf'));
    expect(names.pathFor(null, 6)).toBe(path.join('/out', 'document-6.pdf'));
  });
});
