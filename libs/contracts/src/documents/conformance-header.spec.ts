import { conformanceHeader, PLAIN_PDF_CONFORMANCE } from './document.dto';

describe('issue 34 items 4 and 5: X-Service-Conformance names every claim of the document', () => {
  it('a plain PDF claims nothing', () => {
    expect(conformanceHeader(PLAIN_PDF_CONFORMANCE)).toBe('none');
    expect(conformanceHeader(undefined)).toBe('none');
  });

  it('PDF/A, PDF/UA, both, and an e-invoice', () => {
    const passed = { ...PLAIN_PDF_CONFORMANCE, checks: 'passed' as const };
    expect(conformanceHeader({ ...passed, pdfA: 'PDF/A-3b' })).toBe('PDF/A-3b; checks=passed');
    expect(conformanceHeader({ ...passed, pdfUA: 'PDF/UA-1' })).toBe('PDF/UA-1; checks=passed');
    expect(conformanceHeader({ ...passed, pdfA: 'PDF/A-3u', pdfUA: 'PDF/UA-1', eInvoice: 'en16931' })).toBe('PDF/A-3u, PDF/UA-1; checks=passed; e-invoice=en16931');
  });
});
