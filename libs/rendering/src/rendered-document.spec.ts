import { DocumentType, Environment, renderIssue, RenderIssueType, WebhookEvent } from '@docrender/contracts';
import {
  JobDocumentRecorder,
  progressCallbackOf,
  RenderedDocumentRecorder,
  renderedDocumentEntry,
  type JobDocumentEntry,
  type JobDocumentRecorded,
  type ProgressCallbackDraft,
  type RenderedDocumentEntry,
  type RenderedDocumentFacts,
} from './rendered-document';

const renderedAt = new Date('2026-11-24T12:00:00Z');
const facts = (fields: Partial<RenderedDocumentFacts> = {}): RenderedDocumentFacts => ({
  documentId: 'doc-1',
  source: { templateId: 'template-1', versionNumber: 2 },
  language: 'de',
  documentName: 'invoice-7',
  pdf: { blobKey: 'organisations/org-1/documents/doc-1.pdf', pageCount: 3, fileSizeBytes: 4096 },
  renderDurationMs: 41.6,
  renderedAt,
  ...fields,
});
const production = { organisationId: 'org-1', environment: Environment.Production };
const test = { organisationId: 'org-1', environment: Environment.Test };

describe('paying for and recording a rendered document (spec 3.1 rule 3, 2.4)', () => {
  it('3.1 rule 3: a production render takes its pages; the persisted document gets its row from the template rendered', () => {
    expect(renderedDocumentEntry(production, facts())).toEqual({
      payment: { organisationId: 'org-1', pages: 3 },
      document: {
        id: 'doc-1',
        organisationId: 'org-1',
        templateId: 'template-1',
        versionNumber: 2,
        environment: Environment.Production,
        language: 'de',
        documentName: 'invoice-7',
        documentType: DocumentType.Template,
        pdfBlobKey: 'organisations/org-1/documents/doc-1.pdf',
        fileSizeBytes: 4096,
        pageCount: 3,
        renderedAt,
        renderDurationMs: 42,
        conformance: null,
      },
      renderedAt,
    });
  });

  it('part 1: a test render is free', () => {
    expect(renderedDocumentEntry(test, facts()).payment).toBeNull();
  });

  it('4.2: persist=false stores no row, and a stateless render (no source) is never stored', () => {
    expect(renderedDocumentEntry(production, facts({ documentId: null })).document).toBeNull();
    expect(renderedDocumentEntry(production, facts({ source: null })).document).toBeNull();
  });

  it('one port call per document: payment and row go to the ledger together, and its "no credit" is the answer', async () => {
    const entries: RenderedDocumentEntry[] = [];
    let credit = true;
    const recorder = new RenderedDocumentRecorder({ record: async (entry) => (entries.push(entry), credit) });
    expect(await recorder.record(production, facts())).toBe(true);
    credit = false;
    expect(await recorder.record(production, facts())).toBe(false);
    expect(entries).toHaveLength(2);
  });
});

describe('recording the documents of an async job, each once (spec 3.1)', () => {
  class FakeLedger {
    readonly entries: JobDocumentEntry[] = [];
    answer: JobDocumentRecorded['recording'] = 'recorded';
    async record(entry: JobDocumentEntry): Promise<JobDocumentRecorded> {
      this.entries.push(entry);
      return this.answer === 'recorded' ? { recording: 'recorded', callback: entry.progress && progressCallbackOf(entry.progress, this.entries.length) } : { recording: this.answer };
    }
    async isRecorded(): Promise<boolean> {
      return this.entries.length > 0;
    }
  }
  const job = { ...production, jobId: 'job-1' };
  const warning = renderIssue(RenderIssueType.MissingBinding, 'no value');
  const callback: ProgressCallbackDraft = {
    command: { deliveryId: 'progress-4', jobId: 'job-1', organisationId: 'org-1', event: WebhookEvent.Progress, callbackUrl: 'https://hooks.example.com', attempt: 1 },
    bodyHead: '{"processed":',
    bodyTail: '}',
  };

  it('a rendered document: its outcome, issues, payment, row (naming the job) and progress callback in one entry', async () => {
    const ledger = new FakeLedger();
    expect(await new JobDocumentRecorder(ledger).recordRendered(job, 4, facts(), [warning], callback)).toEqual({
      recording: 'recorded',
      callback: { ...callback.command, body: '{"processed":1}' },
    });
    const [entry] = ledger.entries;
    expect(entry).toMatchObject({ jobId: 'job-1', documentIndex: 4, outcome: 'rendered', issues: [warning], recordedAt: renderedAt, progress: callback });
    expect(entry.rendered).toMatchObject({ payment: { organisationId: 'org-1', pages: 3 }, document: { id: 'doc-1', renderJobId: 'job-1' } });
  });

  it('3.1 rule 3 / idempotent: the ledger’s no-credit and duplicate answers reach the job', async () => {
    const ledger = new FakeLedger();
    const recorder = new JobDocumentRecorder(ledger);
    ledger.answer = 'no-credit';
    expect(await recorder.recordRendered(job, 0, facts(), [], callback)).toEqual({ recording: 'no-credit' });
    ledger.answer = 'duplicate';
    expect(await recorder.recordRendered(job, 0, facts(), [], callback)).toEqual({ recording: 'duplicate' });
  });

  it('3.1 rule 2: a document without a PDF is recorded with its issues, no payment and no callback; false when recorded before', async () => {
    const ledger = new FakeLedger();
    const recorder = new JobDocumentRecorder(ledger);
    expect(await recorder.recordMissing('job-1', 2, 'failed', [warning])).toBe(true);
    expect(ledger.entries[0]).toMatchObject({ jobId: 'job-1', documentIndex: 2, outcome: 'failed', issues: [warning], rendered: null, progress: null });
    ledger.answer = 'duplicate';
    expect(await recorder.recordMissing('job-1', 2, 'failed', [warning])).toBe(false);
    expect(await recorder.isRecorded('job-1', 2)).toBe(true);
  });
});
