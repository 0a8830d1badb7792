import type { INestApplication } from '@nestjs/common';
import {
  Environment,
  IssueSeverity,
  JobState,
  MessageName,
  RenderIssueType,
  RenderStatus,
  WebhookEvent,
  type CompletionCallbackDto,
  type DeliverWebhookCommand,
  type ProgressCallbackDto,
} from '@docrender/contracts';
import type { MessageBus } from '@docrender/messaging';
import { createServiceApp, serviceSettings } from '@docrender/platform';
import { parseCallback } from '@docrender/webhooks';
import {
  documentsOf,
  logSqlStatements,
  provisionTenant,
  startRenderStandIn,
  startTestInfrastructure,
  storeQueuedJob,
  testLogger,
  transactionsOf,
  waitFor,
  type RenderStandIn,
  type TestInfrastructure,
  type TestTenant,
} from '@docrender/testing';
import { jobWorkerService } from '../job-worker.definition';
import { completionDeliveryId, jobDocumentId, progressDeliveryId } from '@docrender/rendering';

const CALLBACK_URL = 'https://hooks.example.com/render?token=abc';

/** The outbox relay's own transactions (publishing callbacks in batches), which a job's documents do not write. */
const RELAY_STATEMENT = /^(SELECT [^;]* FROM outbox\b|UPDATE outbox SET published_at|DELETE FROM outbox)/i;

/**
 * The job worker in-process on real PostgreSQL, RabbitMQ and S3, with a stand-in render service on the bus and the
 * webhook.deliver messages captured where the dispatcher would take them.
 */
describe('job worker: async render jobs (spec 3.1) against PostgreSQL, RabbitMQ and S3', () => {
  let infra: TestInfrastructure;
  let bus: MessageBus;
  let app: INestApplication;
  let renderer: RenderStandIn;
  const callbacks: DeliverWebhookCommand[] = [];

  beforeAll(async () => {
    infra = await startTestInfrastructure('job-worker');
    const settings = { AMQP_DELIVERY_LIMIT: '2', JOBS_RETENTION_SWEEP_INTERVAL_MS: '0', JOBS_RENDER_CONCURRENCY: '4', JOBS_OUTBOX_POLL_MS: '200' };
    bus = await infra.connectBus(settings);
    renderer = await startRenderStandIn(bus, infra.blobStore);
    await bus.consume(MessageName.DeliverWebhook, async (command) => void callbacks.push(command), { prefetch: 50 });
    // The worker's settings are passed, not put into process.env: the test leaves the environment as it found it.
    app = await createServiceApp(jobWorkerService, infra.infrastructureWith(bus), testLogger('job-worker'), serviceSettings([jobWorkerService], { ...infra.env, ...settings }));
    await app.init();
  });

  afterAll(async () => {
    await app?.close();
    await renderer?.stop();
    await infra?.teardown();
  });

  /**
   * The tests publish job.run themselves, as the gateway's enqueue would, and mark its outbox row published as the
   * enqueue does: the worker relays job.run messages left in the outbox too (issue 31), and these are not left.
   */
  async function markRunPublished(jobId: string): Promise<void> {
    await infra.db.dataSource.query(`UPDATE outbox SET published_at = now() WHERE message_name = $1 AND payload->>'jobId' = $2`, [MessageName.RunJob, jobId]);
  }

  async function runToEnd(tenant: TestTenant, input: Parameters<typeof storeQueuedJob>[3]) {
    const job = await storeQueuedJob(infra.db.database, infra.blobStore, tenant, input);
    await markRunPublished(job.id);
    await bus.publish(MessageName.RunJob, { jobId: job.id });
    const done = await waitFor('the job to finish', async () => {
      const current = await infra.db.database.renderJobs.findAnyById(job.id);
      return current?.state === JobState.Pending ? undefined : current;
    });
    const completion = await waitFor('the completion callback', () => callbacks.find((c) => c.jobId === job.id && c.event !== WebhookEvent.Progress));
    const progress = callbacks.filter((c) => c.jobId === job.id && c.event === WebhookEvent.Progress);
    return { job: done!, completion, progress };
  }

  const bodyOf = (command: DeliverWebhookCommand) => parseCallback(command.body);
  const progressBody = (command: DeliverWebhookCommand) => {
    const parsed = bodyOf(command);
    if (parsed.kind !== 'progress') throw new Error('not a progress callback');
    return parsed.body as ProgressCallbackDto;
  };
  const completionBody = (command: DeliverWebhookCommand) => {
    const parsed = bodyOf(command);
    if (parsed.kind !== 'completion') throw new Error('not a completion callback');
    return parsed.body as CompletionCallbackDto;
  };

  it('3.1: a 25-document production job completes ok with 25 progress callbacks and one completion; credit and storage once each', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 1000 });
    const { job, completion, progress } = await runToEnd(tenant, { environment: Environment.Production, documents: documentsOf(25, 'ok', 2), callbackUrl: CALLBACK_URL });
    expect(job).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: 25, requestedCount: 25, failureReason: null });
    expect(job.startedAt).not.toBeNull();
    expect(job.completedAt).not.toBeNull();
    expect(progress).toHaveLength(25);
    expect(new Set(progress.map((p) => progressBody(p).documentIndex))).toEqual(new Set(Array.from({ length: 25 }, (_, i) => i)));
    expect(new Set(progress.map((p) => progressBody(p).processed))).toEqual(new Set(Array.from({ length: 25 }, (_, i) => i + 1)));
    for (const p of progress) {
      const body = progressBody(p);
      expect(p).toMatchObject({ deliveryId: progressDeliveryId(job.id, body.documentIndex), callbackUrl: CALLBACK_URL, organisationId: tenant.organisationId, attempt: 1 });
      expect(body).toMatchObject({ jobId: job.id, requestedCount: 25 });
      expect(body.document).toMatchObject({
        id: jobDocumentId(job.id, body.documentIndex),
        documentIndex: body.documentIndex,
        templateId: tenant.templateId,
        versionNumber: 1,
        environment: Environment.Production,
        pageCount: 2,
        documentBase64: null,
        documentType: 'Template',
      });
      expect(body.document.viewUrl).toMatch(new RegExp(`/v1/documents/${body.document.id}/file\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`));
    }
    expect(completion).toMatchObject({ deliveryId: completionDeliveryId(job.id), event: WebhookEvent.Completed });
    expect(completionBody(completion)).toEqual({
      jobId: job.id,
      state: JobState.Completed,
      status: RenderStatus.Ok,
      renderedCount: 25,
      requestedCount: 25,
      missingCount: 0,
      message: expect.any(String),
      issues: [],
    });
    const [{ count }] = (await infra.db.dataSource.query(`SELECT count(*)::int AS count FROM documents WHERE render_job_id = $1`, [job.id])) as { count: number }[];
    expect(count).toBe(25);
    expect((await infra.db.database.usage.getUsage(tenant.organisationId)).pagesUsed).toBe(50);
    const stored = await infra.db.database.documents.findById(tenant.organisationId, jobDocumentId(job.id, 7));
    expect(await infra.blobStore.stat(stored!.pdfBlobKey)).not.toBeNull();
    expect(await infra.blobStore.stat(`${job.inputBlobKey}/0.json`)).toBeNull();
  });

  it('3.1 / part 1: a 10-document test job completes ok, consumes no credit, and stores test documents', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 0 });
    const { job, completion, progress } = await runToEnd(tenant, { environment: Environment.Test, documents: documentsOf(10), callbackUrl: CALLBACK_URL });
    expect(job).toMatchObject({ state: JobState.Completed, status: RenderStatus.Ok, renderedCount: 10 });
    expect(progress).toHaveLength(10);
    expect(progressBody(progress[0]).document.environment).toBe(Environment.Test);
    expect(completionBody(completion)).toMatchObject({ status: RenderStatus.Ok, renderedCount: 10, missingCount: 0 });
    expect((await infra.db.database.usage.getUsage(tenant.organisationId)).pagesUsed).toBe(0);
  });

  it('3.1 rule 2 / 7.4: blocked documents give partial, no progress callback for them, and their issues with documentIndex', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 100 });
    const documents = documentsOf(6);
    documents[1] = { scenario: 'warning' };
    documents[4] = { scenario: 'error' };
    const { job, completion, progress } = await runToEnd(tenant, { environment: Environment.Production, documents, callbackUrl: CALLBACK_URL });
    expect(job).toMatchObject({ state: JobState.Completed, status: RenderStatus.Partial, renderedCount: 4, requestedCount: 6, issueCount: 2 });
    expect(progress.map((p) => progressBody(p).documentIndex).sort()).toEqual([0, 2, 3, 5]);
    const body = completionBody(completion);
    expect(body).toMatchObject({ state: JobState.Completed, status: RenderStatus.Partial, renderedCount: 4, missingCount: 2 });
    expect(body.issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.MissingBinding, severity: IssueSeverity.Warning, documentIndex: 1, elementId: 'title' }),
      expect.objectContaining({ type: RenderIssueType.SchemaInvalid, severity: IssueSeverity.Error, documentIndex: 4 }),
    ]);
    const stored = await infra.db.database.renderJobs.listStoredIssues(job.id);
    expect(stored.map((i) => i.documentIndex).sort()).toEqual([1, 4]);
  });

  it('7.4: in test, a Warning does not block; the document renders and its issue is kept', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 0 });
    const { job, completion } = await runToEnd(tenant, { environment: Environment.Test, documents: [{ scenario: 'warning' }, { scenario: 'ok' }], callbackUrl: CALLBACK_URL });
    expect(job).toMatchObject({ status: RenderStatus.Ok, renderedCount: 2 });
    expect(completionBody(completion).issues).toEqual([expect.objectContaining({ type: RenderIssueType.MissingBinding, documentIndex: 0 })]);
  });

  it('3.1: a job where nothing renders ends failed (render.failed) with a failureReason', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 100 });
    const { job, completion, progress } = await runToEnd(tenant, {
      environment: Environment.Production,
      documents: [{ scenario: 'error' }, { scenario: 'timeout' }, { scenario: 'warning' }],
      callbackUrl: CALLBACK_URL,
    });
    expect(job).toMatchObject({ state: JobState.Failed, status: RenderStatus.Failed, renderedCount: 0 });
    expect(job.failureReason).toMatch(/no document rendered/);
    expect(progress).toHaveLength(0);
    expect(completion.event).toBe(WebhookEvent.Failed);
    const body = completionBody(completion);
    expect(body).toMatchObject({ state: JobState.Failed, status: RenderStatus.Failed, renderedCount: 0, requestedCount: 3, missingCount: 3 });
    expect(body.issues.map((i) => i.type)).toEqual([RenderIssueType.SchemaInvalid, RenderIssueType.RenderTimeout, RenderIssueType.MissingBinding]);
  });

  it('3.1 rule 3: credit running out mid-job stops it as insufficient_credit, keeping what rendered', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 10 });
    const { job, completion, progress } = await runToEnd(tenant, { environment: Environment.Production, documents: documentsOf(12, 'ok', 2), callbackUrl: CALLBACK_URL });
    expect(job).toMatchObject({ state: JobState.Completed, status: RenderStatus.InsufficientCredit, renderedCount: 5, requestedCount: 12, failureReason: null });
    expect(progress).toHaveLength(5);
    expect(completionBody(completion)).toMatchObject({ status: RenderStatus.InsufficientCredit, renderedCount: 5, missingCount: 7 });
    expect((await infra.db.database.usage.getUsage(tenant.organisationId)).pagesUsed).toBe(10);
    const [{ count }] = (await infra.db.dataSource.query(`SELECT count(*)::int AS count FROM documents WHERE render_job_id = $1`, [job.id])) as { count: number }[];
    expect(count).toBe(5);
  });

  it('3.1 rule 3: a job started without any credit fails as insufficient_credit', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 0 });
    const { job, completion } = await runToEnd(tenant, { environment: Environment.Production, documents: documentsOf(3), callbackUrl: CALLBACK_URL });
    expect(job).toMatchObject({ state: JobState.Failed, status: RenderStatus.InsufficientCredit, renderedCount: 0 });
    expect(job.failureReason).toMatch(/insufficient credit/);
    expect(completion.event).toBe(WebhookEvent.Failed);
  });

  it('2.10 / 2.5: includeDocument carries the PDF in the progress callback; persist=false stores nothing and still carries it', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 0 });
    const kept = await runToEnd(tenant, { environment: Environment.Test, documents: documentsOf(2), callbackUrl: CALLBACK_URL, includeDocument: true });
    const document = progressBody(kept.progress[0]).document;
    expect(Buffer.from(document.documentBase64!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(document.id).not.toBeNull();

    const transient = await runToEnd(tenant, { environment: Environment.Test, documents: documentsOf(2), callbackUrl: CALLBACK_URL, persist: false });
    const body = progressBody(transient.progress[0]);
    expect(body.document).toMatchObject({ id: null, viewUrl: null });
    expect(Buffer.from(body.document.documentBase64!, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const [{ count }] = (await infra.db.dataSource.query(`SELECT count(*)::int AS count FROM documents WHERE render_job_id = $1`, [transient.job.id])) as { count: number }[];
    expect(count).toBe(0);
    expect(await infra.blobStore.stat(`jobs/${transient.job.id}/output/0.pdf`)).toBeNull();
  });

  it('idempotent: job.run delivered again for a finished job renders nothing and sends no callback', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 0 });
    const { job } = await runToEnd(tenant, { environment: Environment.Test, documents: documentsOf(3), callbackUrl: CALLBACK_URL });
    const before = callbacks.filter((c) => c.jobId === job.id).length;
    const renders = [...renderer.renders.keys()].filter((k) => k.startsWith(job.id)).length;
    await bus.publish(MessageName.RunJob, { jobId: job.id });
    await bus.publish(MessageName.RunJob, { jobId: job.id });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(callbacks.filter((c) => c.jobId === job.id)).toHaveLength(before);
    expect([...renderer.renders.keys()].filter((k) => k.startsWith(job.id))).toHaveLength(renders);
    expect([...renderer.renders.entries()].filter(([k]) => k.startsWith(job.id)).every(([, n]) => n === 1)).toBe(true);
  });

  it('poison message: a job that fails on every delivery is dead-lettered after the delivery limit and ends failed with a reason', async () => {
    const tenant = await provisionTenant(infra.db.database, { pages: 0 });
    const job = await storeQueuedJob(infra.db.database, infra.blobStore, tenant, {
      environment: Environment.Test,
      documents: [{ scenario: 'ghost-pdf' }],
      callbackUrl: CALLBACK_URL,
      includeDocument: true,
    });
    await markRunPublished(job.id);
    await bus.publish(MessageName.RunJob, { jobId: job.id });
    const failed = await waitFor('the poisoned job to be ended', async () => {
      const current = await infra.db.database.renderJobs.findAnyById(job.id);
      return current?.state === JobState.Failed ? current : undefined;
    });
    expect(failed.failureReason).toMatch(/failed 3 times/);
    // The delivery limit is 2 redeliveries: the document was tried 3 times, never more.
    expect(renderer.renders.get(`${job.id}:0`)).toBe(3);
    const completion = await waitFor('the failure callback', () => callbacks.find((c) => c.jobId === job.id));
    expect(completion.event).toBe(WebhookEvent.Failed);
    expect(completionBody(completion)).toMatchObject({ state: JobState.Failed, status: RenderStatus.Failed, missingCount: 1 });
  });

  /** Runs a production job to its last callback, counting the SQL statements and transactions the worker sent. */
  async function countJob(documents: number): Promise<{ statements: number; transactions: number; relayPublished: number }> {
    const tenant = await provisionTenant(infra.db.database, { pages: 1000 });
    const job = await storeQueuedJob(infra.db.database, infra.blobStore, tenant, { environment: Environment.Production, documents: documentsOf(documents), callbackUrl: CALLBACK_URL });
    await markRunPublished(job.id);
    const log = logSqlStatements();
    try {
      await bus.publish(MessageName.RunJob, { jobId: job.id });
      await waitFor('the completion callback', () => callbacks.find((c) => c.jobId === job.id && c.event !== WebhookEvent.Progress));
    } finally {
      log.stop();
    }
    // this job's transactions only: the ones naming it, its organisation or its template (a message of an earlier
    // test redelivered meanwhile, or a pool's own statement, is not this job's cost)
    const ours = new Set<unknown>([job.id, tenant.organisationId, tenant.templateId]);
    const transactions = transactionsOf(log.statements);
    const worker = transactions.filter((transaction) => !transaction.some((s) => RELAY_STATEMENT.test(s.text)) && transaction.some((s) => s.values.some((value) => ours.has(value))));
    // A relay pass that published something, whatever it published: a transaction that takes messages and marks them.
    const relayPublished = transactions.filter((t) => t.length > 1 && t.some((s) => /^UPDATE outbox SET published_at/i.test(s.text))).length;
    return { statements: worker.reduce((n, transaction) => n + transaction.length, 0), transactions: worker.length, relayPublished };
  }

  it('issue 23: a rendered, persisted, paid document costs the worker one statement (5 before the job row was locked and the document paid for in the statement that records the outcome, 13 before libs/rendering); its callback costs no relay pass', async () => {
    // Statements counted by a wrapper around the pg client; per document = (a job of 11 − a job of 1) / 10, so what
    // every job pays once cancels out. Nothing else touches PostgreSQL while the job runs (the test waits on callbacks).
    await countJob(1);
    const one = await countJob(1);
    const eleven = await countJob(11);
    const perDocument = { statements: (eleven.statements - one.statements) / 10, transactions: (eleven.transactions - one.transactions) / 10 };
    expect(perDocument).toEqual({ statements: 1, transactions: 1 });
    // Every callback is published by the worker once its transaction committed, and marked in a statement of its own
    // (issue 23: a relay pass per callback cost a transaction of 4 statements).
    expect(eleven.relayPublished + one.relayPublished).toBe(0);
  });
});
