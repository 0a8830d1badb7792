import { randomUUID } from 'node:crypto';
import { DocumentType, Environment, MessageName, WebhookEvent } from '@docrender/contracts';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { inSpan, startTracing, traceCarrier } from '@docrender/observability';
import { logSqlStatements } from '@docrender/testing';
import { suiteDatabase } from '../../test/suite-database';
import { provisionTestOrganisation, provisionTestOrganisationWithTemplate, silentLogger } from '../../test/suite-fixtures';
import { RenderJobRepository } from '../repositories/render-job.repository';
import { OutboxRelay, type OutboxMessage } from '@docrender/messaging';
import { OutboxSqlStore } from './outbox-sql.store';
import { RunJobOutbox } from './run-job-outbox';
import { WebhookDeliveryRepository } from './webhook-delivery.repository';

describe('async job persistence against PostgreSQL', () => {
  const db = suiteDatabase();
  let organisationId: string;
  let templateId: string;

  beforeAll(async () => {
    ({ organisationId, templateId } = await provisionTestOrganisationWithTemplate(db.database, 'Jobs', { tier: 'pro', includedPagesPerMonth: 100 }));
  });

  async function queuedJob(): Promise<string> {
    const job = await db.database.renderJobs.createQueued({
      organisationId,
      templateId,
      versionNumber: 1,
      environment: Environment.Test,
      language: null,
      persist: true,
      includeDocument: false,
      callbackUrl: 'https://hooks.example/cb',
      inputBlobKey: 'jobs/x/input',
      requestedCount: 2,
    });
    return job.id;
  }

  const relayOf = (publish: (m: OutboxMessage) => Promise<void>, names = [MessageName.RunJob] as (MessageName.RunJob | MessageName.DeliverWebhook)[], minAgeMs = 0, gatherMs = 0) =>
    new OutboxRelay(new OutboxSqlStore(db.dataSource), publish, { messageNames: names, pollIntervalMs: 60_000, minAgeMs, batchSize: 2, gatherMs }, silentLogger);

  async function unpublished(): Promise<number> {
    const [{ count }] = (await db.dataSource.query(`SELECT count(*)::int AS count FROM outbox WHERE published_at IS NULL`)) as { count: number }[];
    return count;
  }

  /** `count` progress callbacks of the job stored in the outbox (as a job's transaction stores them), in order. */
  async function storedProgressCallbacks(jobId: string, count: number): Promise<OutboxMessage[]> {
    const stored: OutboxMessage[] = [];
    for (let i = 0; i < count; i++) {
      const payload = { deliveryId: randomUUID(), jobId, organisationId, event: WebhookEvent.Progress, callbackUrl: 'https://hooks.example/cb', body: '{}', attempt: 1 };
      await db.database.outbox.add(MessageName.DeliverWebhook, payload, { id: payload.deliveryId });
      stored.push({ id: payload.deliveryId, name: MessageName.DeliverWebhook, payload, createdAt: new Date() });
    }
    return stored;
  }

  async function publishEverything(): Promise<void> {
    await relayOf(async () => undefined, [MessageName.RunJob, MessageName.DeliverWebhook]).publishPending();
  }

  it('4.5: the relay publishes the stored job.run messages of its names, batch after batch, and marks them published', async () => {
    await publishEverything();
    const jobs = [await queuedJob(), await queuedJob(), await queuedJob()];
    await db.database.outbox.add(MessageName.DeliverWebhook, {
      deliveryId: '6a1f2d4e-0c1b-4e5f-8a9b-0c1d2e3f4a5b',
      jobId: jobs[0],
      organisationId,
      event: WebhookEvent.Completed,
      callbackUrl: 'https://hooks.example/cb',
      body: '{}',
      attempt: 1,
    });
    const seen: OutboxMessage[] = [];
    expect(await relayOf(async (m) => void seen.push(m)).publishPending()).toBe(3);
    expect(seen.map((m) => (m.name === MessageName.RunJob ? m.payload.jobId : null))).toEqual(jobs);
    expect(await unpublished()).toBe(1);
    expect(await relayOf(async () => undefined).publishPending()).toBe(0);
  });

  it('4.5: a failed publish (queue full, broker away) stops the pass; what was published stays marked, the rest waits', async () => {
    await publishEverything();
    await queuedJob();
    await queuedJob();
    let calls = 0;
    const failing = relayOf(async () => {
      calls++;
      if (calls === 2) throw new Error('queue full');
    });
    await expect(failing.publishPending()).rejects.toThrow('queue full');
    expect(await unpublished()).toBe(1);
    expect(await relayOf(async () => undefined).publishPending()).toBe(1);
  });

  it('4.5: relays running at once never publish one message twice (SKIP LOCKED); young messages are left to their writer', async () => {
    await publishEverything();
    for (let i = 0; i < 6; i++) await queuedJob();
    const published: string[] = [];
    const slow = async (m: OutboxMessage) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      published.push(m.id);
    };
    expect(await relayOf(slow, [MessageName.RunJob], 60_000).publishPending()).toBe(0);
    await Promise.all([relayOf(slow).publishPending(), relayOf(slow).publishPending(), relayOf(slow).publishPending()]);
    expect(published).toHaveLength(6);
    expect(new Set(published).size).toBe(6);
  });

  it('2.10 / 4.5: a writer publishes its committed messages itself and the relay marks them; one whose publish fails is left to a later pass', async () => {
    await publishEverything();
    const jobId = await queuedJob();
    await publishEverything();
    const stored = await storedProgressCallbacks(jobId, 3);
    const seen: string[] = [];
    const relay = relayOf(
      async (m) => {
        seen.push(m.id);
        if (m.id === stored[1].id) throw new Error('broker away');
      },
      [MessageName.DeliverWebhook],
      60_000,
    );
    relay.start();
    for (const message of stored) relay.publishCommitted(message);
    // stop() waits for the publishes and writes their marks.
    await relay.stop();
    expect(seen).toEqual(stored.map((m) => m.id));
    const pending = (await db.dataSource.query(`SELECT id FROM outbox WHERE published_at IS NULL`)) as { id: string }[];
    expect(pending.map((r) => r.id)).toEqual([stored[1].id]);
    const later: string[] = [];
    expect(await relayOf(async (m) => void later.push(m.id), [MessageName.DeliverWebhook]).publishPending()).toBe(1);
    expect(later).toEqual([stored[1].id]);
  });

  it('2.10 / 6.1: a writer’s messages are gathered (JOBS_CALLBACK_GATHER_MS) and go together; one marked now takes those gathered with it; stop() sends what is gathered', async () => {
    await publishEverything();
    const jobId = await queuedJob();
    const stored = await storedProgressCallbacks(jobId, 4);
    const seen: string[] = [];
    // gathered for an hour: only `now` and stop() can send them within the test
    const relay = relayOf(async (m) => void seen.push(m.id), [MessageName.DeliverWebhook], 60_000, 3_600_000);
    relay.start();
    relay.publishCommitted(stored[0]);
    relay.publishCommitted(stored[1]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    relay.publishCommitted(stored[2], { now: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(stored.slice(0, 3).map((m) => m.id));
    relay.publishCommitted(stored[3]);
    await relay.stop();
    expect(seen).toEqual(stored.map((m) => m.id));
    // and each was marked published
    const pending = (await db.dataSource.query(`SELECT id FROM outbox WHERE published_at IS NULL AND id = ANY($1::uuid[])`, [stored.map((m) => m.id)])) as { id: string }[];
    expect(pending).toEqual([]);
  });

  it('6.1: a message sent now (a completion callback) reaches the broker only after those gathered before it are confirmed', async () => {
    await publishEverything();
    const jobId = await queuedJob();
    const stored = await storedProgressCallbacks(jobId, 3);
    const seen: string[] = [];
    let confirmGathered: () => void = () => undefined;
    const gatheredConfirmed = new Promise<void>((resolve) => (confirmGathered = resolve));
    const relay = relayOf(
      async (m) => {
        seen.push(m.id);
        if (m.id !== stored[2].id) await gatheredConfirmed;
      },
      [MessageName.DeliverWebhook],
      60_000,
      3_600_000,
    );
    relay.start();
    relay.publishCommitted(stored[0]);
    relay.publishCommitted(stored[1]);
    relay.publishCommitted(stored[2], { now: true });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([stored[0].id, stored[1].id]);
    confirmGathered();
    await relay.stop();
    expect(seen).toEqual(stored.map((m) => m.id));
  });

  it('4.5: the enqueue locks its own job.run message; a withdrawn job leaves neither job nor message', async () => {
    await publishEverything();
    const jobId = await queuedJob();
    const outboxId = await db.dataSource.transaction(async (m) => {
      const own = await new RunJobOutbox(m).lockUnpublished(jobId);
      // While the enqueue holds it, a relay skips it.
      expect(await relayOf(async () => undefined).publishPending()).toBe(0);
      return own;
    });
    expect(outboxId).not.toBeNull();
    await db.dataSource.transaction(async (m) => {
      expect(await new RunJobOutbox(m).withdraw(jobId)).toBe(true);
    });
    expect(await db.database.renderJobs.findAnyById(jobId)).toBeNull();
    expect(await unpublished()).toBe(0);

    const published = await queuedJob();
    await db.dataSource.transaction(async (m) => {
      const q = new RunJobOutbox(m);
      const id = await q.lockUnpublished(published);
      await q.markPublished(id as string);
    });
    await db.dataSource.transaction(async (m) => {
      expect(await new RunJobOutbox(m).lockUnpublished(published)).toBeNull();
      expect(await new RunJobOutbox(m).withdraw(published)).toBe(false);
    });
    expect(await db.database.renderJobs.findAnyById(published)).not.toBeNull();
  });

  it('2.10: processed counts every recorded document outcome of the job, and the progress callback is stored with the outcome', async () => {
    const jobId = await queuedJob();
    const jobs = new RenderJobRepository(db.dataSource.manager);
    await jobs.recordDocumentResult({ jobId, documentIndex: 1, outcome: 'blocked', documentId: null, issues: [] });
    const deliveryId = randomUUID();
    const command = { deliveryId, jobId, organisationId, event: WebhookEvent.Progress, callbackUrl: 'https://hooks.example/cb', attempt: 1 };
    const progress = { command, bodyHead: '{"processed":', bodyTail: ',"documentIndex":0}' };
    const entry = { jobId, documentIndex: 0, outcome: 'rendered' as const, issues: [], rendered: { payment: null, document: null, renderedAt: new Date() }, progress, recordedAt: new Date() };
    const callback = { ...command, body: '{"processed":2,"documentIndex":0}' };
    expect(await db.database.renderJobLedger.record(entry)).toEqual({ recording: 'recorded', callback });
    expect(await db.database.renderJobLedger.record(entry)).toEqual({ recording: 'duplicate' });
    const stored = (await db.dataSource.query(`SELECT payload FROM outbox WHERE id = $1`, [deliveryId])) as { payload: unknown }[];
    expect(stored.map((r) => r.payload)).toEqual([callback]);
    const [job] = (await db.dataSource.query(`SELECT recorded_count, rendered_count FROM render_jobs WHERE id = $1`, [jobId])) as { recorded_count: number; rendered_count: number }[];
    expect(job).toEqual({ recorded_count: 2, rendered_count: 1 });
  });

  it('3.1 rule 3 / idempotent: a persisted production document is stored, charged and called back once by one statement; pages that do not fit record nothing', async () => {
    const payer = await provisionTestOrganisation(db.database, 'Paying', { tier: 'pro', includedPagesPerMonth: 5 });
    const jobId = await queuedJob();
    const entry = (documentIndex: number, pages: number) => {
      const document = {
        id: randomUUID(),
        organisationId: payer,
        templateId,
        versionNumber: 1,
        environment: Environment.Production,
        language: null,
        documentName: `d${documentIndex}`,
        documentType: DocumentType.Template,
        pdfBlobKey: `jobs/${jobId}/output/${documentIndex}.pdf`,
        fileSizeBytes: 10,
        pageCount: pages,
        renderedAt: new Date(),
        renderDurationMs: 5,
        renderJobId: jobId,
      };
      const command = { deliveryId: randomUUID(), jobId, organisationId: payer, event: WebhookEvent.Progress, callbackUrl: 'https://hooks.example/cb', attempt: 1 };
      const progress = { command, bodyHead: '{"processed":', bodyTail: '}' };
      return { jobId, documentIndex, outcome: 'rendered' as const, issues: [], rendered: { payment: { organisationId: payer, pages }, document, renderedAt: new Date() }, progress, recordedAt: new Date() };
    };
    const first = entry(0, 3);
    const log = logSqlStatements();
    try {
      expect(await db.database.renderJobLedger.record(first)).toEqual({ recording: 'recorded', callback: { ...first.progress.command, body: '{"processed":1}' } });
    } finally {
      log.stop();
    }
    expect(log.statements).toHaveLength(1);
    expect(await db.database.renderJobLedger.record(first)).toEqual({ recording: 'duplicate' });
    // 3 of 5 pages used: 3 more do not fit, and nothing of that document is stored
    expect(await db.database.renderJobLedger.record(entry(1, 3))).toEqual({ recording: 'no-credit' });
    expect((await db.database.usage.getUsage(payer)).pagesUsed).toBe(3);
    const [counts] = (await db.dataSource.query(
      `SELECT (SELECT count(*)::int FROM documents WHERE render_job_id = $1) AS documents, (SELECT count(*)::int FROM outbox WHERE message_name = 'webhook.deliver' AND payload->>'jobId' = $1::text) AS callbacks,
              (SELECT recorded_count FROM render_jobs WHERE id = $1) AS recorded`,
      [jobId],
    )) as { documents: number; callbacks: number; recorded: number }[];
    expect(counts).toEqual({ documents: 1, callbacks: 1, recorded: 1 });
  });

  it('issue 22: a stored message keeps the trace context it was stored in, and the relay publishes it inside that context (none: a trace of its own)', async () => {
    await publishEverything();
    const tracing = startTracing('job-worker', 'http://collector.invalid/v1/traces', silentLogger, () => new InMemorySpanExporter());
    try {
      const payload = (jobId: string) => ({ deliveryId: randomUUID(), jobId, organisationId, event: WebhookEvent.Progress, callbackUrl: 'https://hooks.example/cb', body: '{}', attempt: 1 });
      const jobId = await queuedJob();
      const { traced, stored } = await inSpan('job.run process', {}, async () => ({ traced: await db.database.outbox.add(MessageName.DeliverWebhook, payload(jobId)), stored: traceCarrier() }));
      const untraced = await db.database.outbox.add(MessageName.DeliverWebhook, payload(jobId));
      const columns = (await db.dataSource.query(`SELECT id, trace_context FROM outbox WHERE id = ANY($1::uuid[])`, [[traced, untraced]])) as { id: string; trace_context: unknown }[];
      expect(Object.fromEntries(columns.map((r) => [r.id, r.trace_context]))).toEqual({ [traced]: stored, [untraced]: null });
      expect(stored?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

      const seen = new Map<string, string | undefined>();
      // The relay runs inside an unrelated span (as when a job kicks it): neither message may join that one.
      await inSpan('kick', {}, () => relayOf(async (m) => void seen.set(m.id, traceCarrier()?.traceparent), [MessageName.DeliverWebhook]).publishPending());
      expect(seen.get(traced)).toBe(stored?.traceparent);
      expect(seen.get(untraced)).toBeUndefined();
    } finally {
      await tracing?.shutdown();
    }
  });

  describe('WebhookDeliveryRepository', () => {
    const ref = (deliveryId: string, jobId: string) => ({ deliveryId, jobId, organisationId, event: WebhookEvent.Progress });

    it('6.3: attempts are claimed once, recorded, and a duplicate message of a made attempt is told so', async () => {
      const jobId = await queuedJob();
      const repo = new WebhookDeliveryRepository(db.dataSource.manager);
      const r = ref('00000000-0000-4000-8000-000000000101', jobId);
      const t0 = new Date('2026-11-21T10:00:00Z');
      expect(await repo.claimAttempt(r, 1, 35_000, t0)).toMatchObject({ kind: 'claimed' });
      expect(await repo.claimAttempt(r, 1, 35_000, new Date(t0.getTime() + 1000))).toEqual({ kind: 'in-flight', leaseUntil: new Date(t0.getTime() + 35_000) });
      await repo.finishAttempt(r.deliveryId, 1, { outcome: 'failed', httpStatus: 500, error: 'HTTP 500', durationMs: 12 }, 'pending', new Date(t0.getTime() + 2000));
      const again = await repo.claimAttempt(r, 1, 35_000, new Date(t0.getTime() + 3000));
      expect(again).toMatchObject({ kind: 'already-made', nextAttemptStarted: false, attempt: { outcome: 'failed', httpStatus: 500 } });
      expect(await repo.claimAttempt(r, 2, 35_000, new Date(t0.getTime() + 4000))).toMatchObject({ kind: 'claimed' });
      expect(await repo.claimAttempt(r, 1, 35_000, new Date(t0.getTime() + 5000))).toMatchObject({ kind: 'already-made', nextAttemptStarted: true });
      await repo.finishAttempt(r.deliveryId, 2, { outcome: 'delivered', httpStatus: 200, error: null, durationMs: 8 }, 'delivered', new Date(t0.getTime() + 6000));
      expect(await repo.claimAttempt(r, 3, 35_000)).toEqual({ kind: 'settled', state: 'delivered' });
      expect(await repo.findDelivery(r.deliveryId)).toMatchObject({ state: 'delivered', attempts: 2, lastHttpStatus: 200, lastError: null, jobId });
      expect((await repo.listAttempts(r.deliveryId)).map((a) => [a.attempt, a.outcome, a.httpStatus])).toEqual([
        [1, 'failed', 500],
        [2, 'delivered', 200],
      ]);
      expect((await repo.listByJob(jobId)).map((d) => d.deliveryId)).toEqual([r.deliveryId]);
    });

    it('6.4: the claim of an attempt brings the signing secrets of the organisation, the previous one with its rotation time', async () => {
      const jobId = await queuedJob();
      const repo = new WebhookDeliveryRepository(db.dataSource.manager);
      const t0 = new Date('2026-11-21T10:00:00Z');
      const stored = await db.database.webhookSecrets.setActive(organisationId, 'whsec_claim_first', t0);
      const first = await repo.claimAttempt(ref('00000000-0000-4000-8000-000000000106', jobId), 1, 35_000, t0);
      expect(first).toEqual({ kind: 'claimed', secrets: { active: 'whsec_claim_first', previous: stored.previous, rotatedAt: stored.rotatedAt } });
      const t1 = new Date(t0.getTime() + 60_000);
      await db.database.webhookSecrets.setActive(organisationId, 'whsec_claim_second', t1);
      const second = await repo.claimAttempt(ref('00000000-0000-4000-8000-000000000107', jobId), 1, 35_000, t1);
      expect(second).toEqual({ kind: 'claimed', secrets: { active: 'whsec_claim_second', previous: 'whsec_claim_first', rotatedAt: t1 } });
    });

    it('6.4: the claim of an attempt of an organisation without a stored secret says so (the dispatcher creates one)', async () => {
      const jobId = await queuedJob();
      const repo = new WebhookDeliveryRepository(db.dataSource.manager);
      const stranger = '00000000-0000-4000-8000-0000000000ff';
      const claim = await repo.claimAttempt({ deliveryId: '00000000-0000-4000-8000-000000000108', jobId, organisationId: stranger, event: WebhookEvent.Progress }, 1, 35_000);
      expect(claim).toEqual({ kind: 'claimed', secrets: null });
    });

    it('a claim and a record made through the repositories of a transaction are part of that transaction', async () => {
      const jobId = await queuedJob();
      const r = ref('00000000-0000-4000-8000-000000000109', jobId);
      const rolledBack = new Error('roll back');
      const outcome = await db.database
        .transaction(async (repositories) => {
          expect(await repositories.webhookDeliveries.claimAttempt(r, 1, 35_000)).toMatchObject({ kind: 'claimed' });
          await repositories.webhookDeliveries.finishAttempt(r.deliveryId, 1, { outcome: 'delivered', httpStatus: 204, error: null, durationMs: 1 }, 'delivered');
          throw rolledBack;
        })
        .catch((error: unknown) => error);
      expect(outcome).toBe(rolledBack);
      expect(await new WebhookDeliveryRepository(db.dataSource.manager).findDelivery(r.deliveryId)).toBeNull();
    });

    it('6.3: an attempt whose dispatcher died is taken over once its lease ran out', async () => {
      const jobId = await queuedJob();
      const repo = new WebhookDeliveryRepository(db.dataSource.manager);
      const r = ref('00000000-0000-4000-8000-000000000102', jobId);
      const t0 = new Date('2026-11-21T10:00:00Z');
      await repo.claimAttempt(r, 1, 1000, t0);
      expect(await repo.claimAttempt(r, 1, 1000, new Date(t0.getTime() + 1500))).toMatchObject({ kind: 'claimed' });
    });

    it('6.3: concurrent duplicates of one attempt: exactly one claims it', async () => {
      const jobId = await queuedJob();
      const repo = new WebhookDeliveryRepository(db.dataSource.manager);
      const r = ref('00000000-0000-4000-8000-000000000103', jobId);
      const claims = await Promise.all(Array.from({ length: 5 }, () => repo.claimAttempt(r, 1, 30_000)));
      expect(claims.filter((c) => c.kind === 'claimed')).toHaveLength(1);
      expect(claims.filter((c) => c.kind === 'in-flight')).toHaveLength(4);
    });

    it('6.3: a dropped callback is recorded as dropped, but a delivered one stays delivered', async () => {
      const jobId = await queuedJob();
      const repo = new WebhookDeliveryRepository(db.dataSource.manager);
      const dropped = ref('00000000-0000-4000-8000-000000000104', jobId);
      await repo.markDropped(dropped, 'max-length');
      expect(await repo.findDelivery(dropped.deliveryId)).toMatchObject({ state: 'dropped', lastError: 'max-length', attempts: 0 });
      expect(await repo.claimAttempt(dropped, 1, 30_000)).toEqual({ kind: 'settled', state: 'dropped' });
      const delivered = ref('00000000-0000-4000-8000-000000000105', jobId);
      await repo.claimAttempt(delivered, 1, 30_000);
      await repo.finishAttempt(delivered.deliveryId, 1, { outcome: 'delivered', httpStatus: 204, error: null, durationMs: 1 }, 'delivered');
      await repo.markDropped(delivered, 'max-length');
      expect(await repo.findDelivery(delivered.deliveryId)).toMatchObject({ state: 'delivered' });
    });
  });
});
