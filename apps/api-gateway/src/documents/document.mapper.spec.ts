import { DocumentType, Environment, type DocumentConformance } from '@docrender/contracts';
import type { StoredDocumentRecord } from '@docrender/persistence';
import type { ViewUrlSigner } from '@docrender/platform';
import { toStoredDocumentDto } from './document.mapper';

const signer = { viewUrlOf: () => 'https://docs.example/view' } as unknown as ViewUrlSigner;
const at = new Date(Date.UTC(2026, 10, 29));

function record(conformance: StoredDocumentRecord['conformance']): StoredDocumentRecord {
  return {
    id: 'd1', organisationId: 'o1', templateId: 't1', versionNumber: 1, environment: Environment.Production, language: null, documentName: 'Invoice',
    documentType: DocumentType.Invoice, pdfBlobKey: 'k', fileSizeBytes: 10, pageCount: 1, renderedAt: at, renderDurationMs: 5, isPdfDeleted: false,
    renderJobId: null, conformance, createdAt: at, updatedAt: at,
  };
}

describe('issue 34 items 4 and 5: a stored document answers its conformance with every field', () => {
  it('rows stored before conformance, or before pdfUA, answer a plain PDF\'s values for what they lack', () => {
    expect(toStoredDocumentDto(record(null), signer, at).conformance).toEqual({ pdfA: null, pdfUA: null, checks: 'none', rules: [], eInvoice: null });
    const beforePdfUA = { pdfA: 'PDF/A-3b', checks: 'passed', rules: ['6.8'], eInvoice: 'en16931' } as unknown as DocumentConformance;
    expect(toStoredDocumentDto(record(beforePdfUA), signer, at).conformance).toEqual({ pdfA: 'PDF/A-3b', pdfUA: null, checks: 'passed', rules: ['6.8'], eInvoice: 'en16931' });
  });
});
