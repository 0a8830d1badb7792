import {
  DomainError,
  Environment,
  ErrorCode,
  JobState,
  RenderIssueType,
  RenderStatus,
  WebhookEvent,
  type DeliverWebhookCommand,
  type RenderDocumentCommand,
  type RenderDocumentResult,
} from '@docrender/contracts';
import type { Logger } from '@docrender/observability';
import { RenderBudget } from '../render-command';
import { RenderServiceClient } from '../render-service.client';
import { JobDocumentRecorder, progressCallbackOf, type JobDocumentEntry, type JobDocumentRecorded } from '../rendered-document';
import type { JobCompletion, JobDocumentResult, RenderJobRecord } from './render-job';
import { MemoryBlobStore } from '@docrender/storage';
import { renderTargetFixture } from '@docrender/testing';
import { RenderJobHandler } from './render-job.handler';

const logger: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => logger };

const job = (fields: Partial<RenderJobRecord> = {}): RenderJobRecord => ({
  id: 'job-1',
  organisationId: 'org-1',
  templateId: 'template-1',
  versionNumber: 1,
  environment: Environment.Production,
  language: null,
  persist: true,
  includeDocument: false,
  callbackUrl: 'https://hooks.example.com',
  inputBlobKey: 'jobs/job-1/input',
  state: JobState.Pending,
  status: null,
  requestedCount: 4,
  renderedCount: 0,
  issueCount: 0,
  createdAt: new Date(),
  startedAt: null,
  completedAt: null,
  failureReason: null,
  updatedAt: new Date(),
  ...fields,
});

const target = renderTargetFixture();

/**
 * The job's stored state as the ledger keeps it: recorded outcomes, pages of credit; `finish` ends the job once.
 * Each fake answers as its PostgreSQL repository does.
 */
class FakeJobStore {
  readonly results = new Map<number, JobDocumentEntry>();
  /** The callbacks the recordings stored in the outbox, in order. */
  readonly callbacks: DeliverWebhookCommand[] = [];
  ended: JobCompletion | null = null;
  pagesLeft = 100;
  constructor(public job: RenderJobRecord) {}

  async record(entry: JobDocumentEntry): Promise<JobDocumentRecorded> {
    if (this.results.has(entry.documentIndex)) return { recording: 'duplicate' };
    const payment = entry.rendered?.payment;
    if (payment) {
      if (payment.pages > this.pagesLeft) return { recording: 'no-credit' };
      this.pagesLeft -= payment.pages;
    }
    this.results.set(entry.documentIndex, entry);
    const callback = entry.progress && progressCallbackOf(entry.progress, this.results.size);
    if (callback) this.callbacks.push(callback);
    if (entry.outcome === 'rendered') this.job = { ...this.job, renderedCount: this.job.renderedCount + 1 };
    return { recording: 'recorded', callback };
  }
  async isRecorded(_jobId: string, documentIndex: number): Promise<boolean> {
    return this.results.has(documentIndex);
  }
  async listDocumentResults(): Promise<JobDocumentResult[]> {
    return [...this.results.values()].map((e) => ({ jobId: e.jobId, documentIndex: e.documentIndex, outcome: e.outcome, documentId: null, issues: [...e.issues], createdAt: e.recordedAt }));
  }
  async finish<T extends { completion: JobCompletion; callback: DeliverWebhookCommand }>(_jobId: string, decide: (job: RenderJobRecord, results: JobDocumentResult[]) => T | null): Promise<T | null> {
    if (this.ended !== null) return null;
    const decided = decide(this.job, await this.listDocumentResults());
    this.ended = decided?.completion ?? null;
    if (decided) this.callbacks.push(decided.callback);
    return decided;
  }
}

function handler(store: FakeJobStore, options: { targetFails?: boolean; lookup?: (name: string) => Promise<void> } = {}) {
  const lookup = options.lookup ?? (async () => undefined);
  const blobStore = new MemoryBlobStore();
  const sent: RenderDocumentCommand[] = [];
  const published: DeliverWebhookCommand[] = [];
  const counted: string[] = [];
  const reply = (command: RenderDocumentCommand): RenderDocumentResult => ({
    outcome: 'rendered',
    issues: [],
    documentName: 'invoice',
    pdf: { blobKey: command.outputBlobKey, pageCount: 2, fileSizeBytes: 10 },
    renderDurationMs: 5,
    failure: null,
  });
  const renderJobs = new RenderJobHandler(
    {
      jobs: {
        findAnyById: async () => store.job,
        markStarted: () => lookup('markStarted'),
        listDocumentResults: async () => (await lookup('listDocumentResults'), store.listDocumentResults()),
      },
      ledger: store,
      credit: { getUsage: async () => (await lookup('getUsage'), { organisationId: 'org-1', periodStart: new Date(), periodEnd: new Date(), includedPagesPerMonth: 100, pagesUsed: 100 - store.pagesLeft, includedTokensPerMonth: 0, tokensUsed: 0 }) },
      targets: {
        forStoredTemplate: async () => {
          await lookup('forStoredTemplate');
          if (options.targetFails) throw new DomainError(ErrorCode.VersionNotFound, 'version 1 of template template-1 not found');
          return target;
        },
      },
      documents: new JobDocumentRecorder(store),
      blobStore,
      renderService: new RenderServiceClient(
        {
        request: (async (_name: unknown, command: RenderDocumentCommand) => {
          sent.push(command);
          await blobStore.put(command.outputBlobKey, Buffer.from('%PDF'), 'application/pdf');
          return reply(command);
        }) as never,
        },
        new RenderBudget(60_000),
        0,
      ),
      logger,
      viewUrl: { sign: (id: string) => `https://docs.example.com/${id}` },
      counters: { documentEnded: (outcome) => void counted.push(outcome), jobEnded: (state, status) => void counted.push(`${state}/${status}`) },
      callbackStored: (callback: DeliverWebhookCommand) => void published.push(callback),
      isStopping: () => false,
    },
    { renderConcurrency: 1 },
  );
  return { renderJobs, sent, blobStore, published, counted };
}

describe('RenderJobHandler with fakes of the render use case’s ports (spec 3.1)', () => {
  it('3.1: every document is rendered from its input blob, paid for and recorded once; the job completes ok; every stored callback is published once', async () => {
    const store = new FakeJobStore(job());
    const { renderJobs, sent, published, counted } = handler(store);
    await renderJobs.run('job-1');
    expect(sent.map((c) => c.data)).toEqual([0, 1, 2, 3].map((i) => ({ blobKey: `jobs/job-1/input/${i}.json` })));
    // what the job worker's metrics count (docrender_job_documents_total, docrender_jobs_finished_total)
    expect(counted).toEqual([...Array(4).fill('rendered'), `${JobState.Completed}/${RenderStatus.Ok}`]);
    expect(store.pagesLeft).toBe(92);
    for (const entry of store.results.values()) {
      expect(entry.rendered?.document).toMatchObject({ renderJobId: 'job-1', pageCount: 2, pdfBlobKey: sent[entry.documentIndex].outputBlobKey });
      expect(JSON.parse(progressCallbackOf(entry.progress!, entry.documentIndex + 1).body)).toMatchObject({ jobId: 'job-1', documentIndex: entry.documentIndex, processed: entry.documentIndex + 1 });
    }
    expect(store.ended).toEqual({ state: JobState.Completed, status: RenderStatus.Ok });
    expect(store.callbacks.map((c) => c.event)).toEqual([...Array(4).fill(WebhookEvent.Progress), WebhookEvent.Completed]);
    expect(published).toEqual(store.callbacks);
  });

  it('3.1 rule 3: credit running out stops the job: the unpaid PDF is deleted, later documents are not rendered, no callback of it is published', async () => {
    const store = new FakeJobStore(job());
    store.pagesLeft = 3;
    const { renderJobs, sent, blobStore, published } = handler(store);
    await renderJobs.run('job-1');
    expect(sent).toHaveLength(2);
    expect([...store.results.keys()]).toEqual([0]);
    expect(await blobStore.stat(sent[1].outputBlobKey)).toBeNull();
    expect(store.ended).toEqual({ state: JobState.Completed, status: RenderStatus.InsufficientCredit });
    expect(published.map((c) => [c.event, c.deliveryId])).toEqual(store.callbacks.map((c) => [c.event, c.deliveryId]));
    expect(published).toHaveLength(2);
  });

  it('idempotent: a run resumed after a crash renders only the documents not recorded', async () => {
    const store = new FakeJobStore(job());
    await store.record({ jobId: 'job-1', documentIndex: 0, outcome: 'failed', issues: [], rendered: null, progress: null, recordedAt: new Date() });
    const { renderJobs, sent } = handler(store);
    await renderJobs.run('job-1');
    expect(sent.map((c) => c.requestId)).toEqual(['job-1:1', 'job-1:2', 'job-1:3']);
  });

  it('issue 23: the job’s start asks for its target, recorded documents, credit and first pick-up at once, not one after another', async () => {
    const asked: string[] = [];
    const answeredWhenAsked: number[] = [];
    let release: () => void = () => undefined;
    const allAsked = new Promise<void>((resolve) => (release = resolve));
    const lookup = async (name: string) => {
      asked.push(name);
      if (asked.length === 4) release();
      // a lookup that waited alone would be released by this timer, after which the next one is asked
      await Promise.race([allAsked, new Promise((resolve) => setTimeout(resolve, 50))]);
      answeredWhenAsked.push(asked.length);
    };
    const store = new FakeJobStore(job());
    const { renderJobs } = handler(store, { lookup });
    await renderJobs.run('job-1');
    expect(new Set(asked.slice(0, 4))).toEqual(new Set(['markStarted', 'forStoredTemplate', 'listDocumentResults', 'getUsage']));
    expect(answeredWhenAsked.slice(0, 4)).toEqual([4, 4, 4, 4]);
    expect(store.ended).toEqual({ state: JobState.Completed, status: RenderStatus.Ok });
  });

  it('3.1 rule 2: a job whose template version is gone fails with that reason, each document recorded failed with an issue', async () => {
    const store = new FakeJobStore(job());
    const { renderJobs, sent } = handler(store, { targetFails: true });
    await renderJobs.run('job-1');
    expect(sent).toHaveLength(0);
    expect([...store.results.values()].map((e) => [e.outcome, e.issues[0]?.type])).toEqual(Array(4).fill(['failed', RenderIssueType.RenderTimeout]));
    expect(store.ended).toEqual({ state: JobState.Failed, status: RenderStatus.Failed, failureReason: 'template template-1 version 1 no longer exists' });
  });
});
