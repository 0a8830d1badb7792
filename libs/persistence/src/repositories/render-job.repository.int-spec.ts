import { DocumentType, Environment, JobState, MessageName, RenderIssueType, RenderStatus, renderIssue } from '@docrender/contracts';
import { suiteDatabase } from '../../test/suite-database';
import { provisionTestOrganisationWithTemplate, silentLogger } from '../../test/suite-fixtures';
import { OutboxRelay, type OutboxMessage } from '@docrender/messaging';
import { OutboxSqlStore } from '../async-jobs/outbox-sql.store';

describe('RenderJobRepository and its outbox message', () => {
  const db = suiteDatabase();
  let organisationId: string;
  let templateId: string;

  beforeAll(async () => {
    ({ organisationId, templateId } = await provisionTestOrganisationWithTemplate(db.database, 'Jobs Ltd'));
  });

  const newJob = (requestedCount = 3) =>
    db.database.renderJobs.createQueued({
      organisationId,
      templateId,
      versionNumber: 1,
      environment: Environment.Production,
      language: null,
      persist: true,
      includeDocument: false,
      callbackUrl: 'https://example.test/hook',
      inputBlobKey: 'jobs/input.json',
      requestedCount,
    });

  it('3.1: a queued job is pending with no status, and its job.run message is in the outbox; the relay publishes it once', async () => {
    const job = await newJob();
    expect(job).toMatchObject({ state: JobState.Pending, status: null, renderedCount: 0, issueCount: 0, startedAt: null, completedAt: null });
    expect(await db.database.renderJobs.findById(organisationId, job.id)).toEqual(job);

    const published: OutboxMessage[] = [];
    const relay = new OutboxRelay(new OutboxSqlStore(db.dataSource), async (m) => void published.push(m), { messageNames: [MessageName.RunJob], pollIntervalMs: 60_000 }, silentLogger);
    expect(await relay.publishPending()).toBeGreaterThanOrEqual(1);
    expect(published).toContainEqual(expect.objectContaining({ name: MessageName.RunJob, payload: { jobId: job.id } }));
    expect(await relay.publishPending()).toBe(0);
  });

  it('4.6: only the first 100 issues are stored, in order, while issueCount stays exact', async () => {
    const job = await newJob(1);
    const issues = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => renderIssue(RenderIssueType.MissingBinding, `missing ${from + i}`, `el${from + i}`, null));
    await db.database.renderJobs.appendIssues(job.id, issues(0, 60));
    await db.database.renderJobs.appendIssues(job.id, issues(60, 60));
    await db.database.renderJobs.appendIssues(job.id, issues(120, 5));
    const stored = await db.database.renderJobs.listStoredIssues(job.id);
    expect(stored).toHaveLength(100);
    expect(stored[0].description).toBe('missing 0');
    expect(stored[99].description).toBe('missing 99');
    expect((await db.database.renderJobs.findAnyById(job.id))?.issueCount).toBe(125);
  });

  it('a document result is recorded once: a redelivery changes no count', async () => {
    const job = await newJob(2);
    const document = await db.database.documents.create({
      organisationId,
      templateId,
      versionNumber: 1,
      environment: Environment.Production,
      language: null,
      documentName: 'Doc 0',
      documentType: DocumentType.Template,
      pdfBlobKey: 'docs/0.pdf',
      fileSizeBytes: 1234,
      pageCount: 2,
      renderedAt: new Date(),
      renderDurationMs: 80,
      renderJobId: job.id,
    });
    const warning = renderIssue(RenderIssueType.UnformattedValue, 'as is');
    const first = await db.database.renderJobs.recordDocumentResult({ jobId: job.id, documentIndex: 0, outcome: 'rendered', documentId: document.id, issues: [warning] });
    const again = await db.database.renderJobs.recordDocumentResult({ jobId: job.id, documentIndex: 0, outcome: 'rendered', documentId: document.id, issues: [warning] });
    const blocked = await db.database.renderJobs.recordDocumentResult({
      jobId: job.id,
      documentIndex: 1,
      outcome: 'blocked',
      documentId: null,
      issues: [renderIssue(RenderIssueType.SchemaInvalid, 'bad')],
    });
    expect([first, again, blocked]).toEqual([true, false, true]);
    expect(await db.database.renderJobs.findAnyById(job.id)).toMatchObject({ renderedCount: 1, issueCount: 2 });
    const results = await db.database.renderJobs.listDocumentResults(job.id);
    expect(results.map((r) => [r.documentIndex, r.outcome, r.documentId])).toEqual([
      [0, 'rendered', document.id],
      [1, 'blocked', null],
    ]);
    expect(results[0].issues).toEqual([{ ...warning, documentIndex: 0 }]);
    expect((await db.database.renderJobs.listStoredIssues(job.id)).map((i) => i.documentIndex)).toEqual([0, 1]);
  });

  it('concurrent document results of one job all count (no lost update, no deadlock)', async () => {
    const job = await newJob(12);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        db.database.renderJobs.recordDocumentResult({ jobId: job.id, documentIndex: i, outcome: 'rendered', documentId: null, issues: [renderIssue(RenderIssueType.InvalidLayout, `i${i}`)] }),
      ),
    );
    expect(results.every(Boolean)).toBe(true);
    expect(await db.database.renderJobs.findAnyById(job.id)).toMatchObject({ renderedCount: 12, issueCount: 12 });
  });

  it('3.1: a job starts once, completes once, and then carries its status and completedAt', async () => {
    const job = await newJob();
    const started = new Date('2026-11-21T10:00:00Z');
    await db.database.renderJobs.markStarted(job.id, started);
    await db.database.renderJobs.markStarted(job.id, new Date('2026-11-21T11:00:00Z'));
    const done = new Date('2026-11-21T10:05:00Z');
    expect(await db.database.renderJobs.complete(job.id, { state: JobState.Completed, status: RenderStatus.Partial }, done)).toBe(true);
    expect(await db.database.renderJobs.complete(job.id, { state: JobState.Failed, status: RenderStatus.Failed, failureReason: 'late' })).toBe(false);
    expect(await db.database.renderJobs.findById(organisationId, job.id)).toMatchObject({
      state: JobState.Completed,
      status: RenderStatus.Partial,
      startedAt: started,
      completedAt: done,
      failureReason: null,
    });
    const failed = await newJob();
    await db.database.renderJobs.complete(failed.id, { state: JobState.Failed, status: RenderStatus.Failed, failureReason: 'template vanished' });
    expect(await db.database.renderJobs.findById(organisationId, failed.id)).toMatchObject({ state: JobState.Failed, failureReason: 'template vanished' });
  });

  it('1.8: a job of another organisation is not found; pending jobs are counted', async () => {
    const job = await newJob();
    expect(await db.database.renderJobs.findById('00000000-0000-4000-8000-000000000000', job.id)).toBeNull();
    expect(await db.database.renderJobs.countPending()).toBeGreaterThanOrEqual(1);
  });
});
