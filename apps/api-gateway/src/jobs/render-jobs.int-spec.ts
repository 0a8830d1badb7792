import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { Environment, ErrorCode, IssueSeverity, JobState, MessageName, RenderIssueType, RenderStatus } from '@docrender/contracts';
import type { MessageBus } from '@docrender/messaging';
import { provisionOrganisation } from '@docrender/persistence';
import { createServiceApp } from '@docrender/platform';
import type { BlobStore } from '@docrender/storage';
import { documentsOf, startTestInfrastructure, storeQueuedJob, testLogger, waitFor, type TestDatabase, type TestInfrastructure } from '@docrender/testing';
import { apiGatewayService } from '../api-gateway.definition';

/** job.run holds at most this many ready messages in this test's vhost (the QueueFull test fills it). */
const JOB_QUEUE_MAX_LENGTH = 7;

describe('async enqueue and job status (spec 4.5, 4.6) on the gateway, against PostgreSQL, RabbitMQ and S3', () => {
  let infra: TestInfrastructure;
  let db: TestDatabase;
  let blobs: BlobStore;
  let bus: MessageBus;
  let app: INestApplication;
  let http: ReturnType<typeof request>;
  let prodKey: string;
  let testKey: string;
  let otherKey: string;
  let templateId: string;
  let draftOnlyTemplateId: string;
  let organisationId: string;
  let accepted = 0;
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    infra = await startTestInfrastructure('gateway-jobs');
    ({ db, blobStore: blobs } = infra);
    const env = { ...infra.env, AMQP_JOB_QUEUE_MAX_LENGTH: String(JOB_QUEUE_MAX_LENGTH), JOBS_OUTBOX_POLL_MS: '200' };
    Object.assign(process.env, env);
    bus = await infra.connectBus(env);
    app = await createServiceApp(apiGatewayService, infra.infrastructureWith(bus), testLogger('api-gateway'));
    await app.init();
    http = request(app.getHttpServer());

    const organisation = async (name: string) =>
      (await db.database.transaction((r) => provisionOrganisation(r, { name, tier: 'pro', includedPagesPerMonth: 100, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 })))
        .organisation.id;
    organisationId = await organisation('Enqueuer');
    prodKey = (await db.database.apiKeys.create(organisationId, Environment.Production)).plaintextKey;
    testKey = (await db.database.apiKeys.create(organisationId, Environment.Test)).plaintextKey;
    otherKey = (await db.database.apiKeys.create(await organisation('Other'), Environment.Production)).plaintextKey;
    const content = { templateJson: '{"pages":[]}', sampleData: '{"data":{},"i18n":{}}', translations: JSON.stringify({ defaultLanguage: 'de', languages: { de: { strings: { title: 'Rechnung' } }, fr: { strings: { title: 'Facture' } } } }), documentNameTemplate: null };
    templateId = (await db.database.templates.create({ organisationId, projectId: null, name: 'Invoice', documentNameTemplate: null, updatedBy: 't' })).id;
    await db.database.templateVersions.addVersion(templateId, content, { author: 't', publish: true });
    await db.database.templateVersions.addVersion(templateId, content, { author: 't', publish: false });
    draftOnlyTemplateId = (await db.database.templates.create({ organisationId, projectId: null, name: 'Draft', documentNameTemplate: null, updatedBy: 't' })).id;
    await db.database.templateVersions.addVersion(draftOnlyTemplateId, content, { author: 't', publish: false });
  });

  afterAll(async () => {
    await app?.close();
    await infra?.teardown();
    process.env = savedEnv;
  });

  const enqueue = (path: string, body: unknown, key = prodKey) => http.post(`/v1/render/${path}`).set('Authorization', `Bearer ${key}`).send(body as object);
  const status = (jobId: string, key = prodKey) => http.get(`/v1/render/jobs/${jobId}`).set('Authorization', `Bearer ${key}`);
  const documents = (n: number) => Array.from({ length: n }, (_, i) => ({ number: i + 1 }));
  const callbackUrl = 'https://hooks.example.com/render?token=abc';

  it('4.5: 202 with { jobId, requestedCount, state: queued }; inputs stored, job.run published with confirms', async () => {
    const res = await enqueue(`${templateId}/async?persist=false&language=DE`, { documents: documents(3), callbackUrl, includeDocument: true });
    expect(res.status).toBe(202);
    accepted++;
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^[0-9a-f-]{36}$/), requestedCount: 3, state: 'queued' });
    const job = await db.database.renderJobs.findAnyById(res.body.jobId);
    expect(job).toMatchObject({ templateId, versionNumber: 1, environment: Environment.Production, language: 'de', persist: false, includeDocument: true, callbackUrl, requestedCount: 3, state: JobState.Pending });
    expect(JSON.parse((await blobs.get(`${job!.inputBlobKey}/2.json`)).toString())).toEqual({ number: 3 });
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(accepted);
    const [{ count }] = (await db.dataSource.query(`SELECT count(*)::int AS count FROM outbox WHERE published_at IS NULL`)) as { count: number }[];
    expect(count).toBe(0);
  });

  it("issue 35 item 4: a render with a key records the key's last use (what the workspace's key list shows)", async () => {
    const { record, plaintextKey } = await db.database.apiKeys.create(organisationId, Environment.Production, { label: 'last use' });
    const before = Date.now();
    const res = await enqueue(`${templateId}/async?persist=false`, { documents: documents(1), callbackUrl }, plaintextKey);
    expect(res.status).toBe(202);
    accepted++;
    // recorded without the request waiting for it
    const used = await waitFor('the last use', async () => (await db.database.apiKeys.findById(record.id))?.lastUsedAt ?? undefined);
    expect(used.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(used.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('4.5: the version form enqueues that version, a draft included', async () => {
    const res = await enqueue(`${templateId}/versions/2/async`, { documents: documents(1), callbackUrl });
    expect(res.status).toBe(202);
    accepted++;
    expect(await db.database.renderJobs.findAnyById(res.body.jobId)).toMatchObject({ versionNumber: 2, persist: true, includeDocument: false });
  });

  it('4.6: a pending job: state pending, status null, exact counts, startedAt set, completedAt and failureReason null', async () => {
    const { body } = await enqueue(`${templateId}/async`, { documents: documents(2), callbackUrl }, testKey);
    accepted++;
    const res = await status(body.jobId, testKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      jobId: body.jobId,
      state: 'pending',
      status: null,
      renderedCount: 0,
      requestedCount: 2,
      missingCount: 2,
      issues: [],
      startedAt: expect.any(String),
      completedAt: null,
      failureReason: null,
    });
    expect(new Date(res.body.startedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('4.6: only the first 100 issues are returned while the counts stay exact; a finished job reports its outcome', async () => {
    const { body } = await enqueue(`${templateId}/async`, { documents: documents(1), callbackUrl });
    accepted++;
    const issues = Array.from({ length: 130 }, (_, i) => ({ type: RenderIssueType.UnformattedValue, severity: IssueSeverity.Information, description: `#${i}`, elementId: null, documentIndex: 0 }));
    await db.database.renderJobs.recordDocumentResult({ jobId: body.jobId, documentIndex: 0, outcome: 'rendered', documentId: null, issues });
    await db.database.renderJobs.complete(body.jobId, { state: JobState.Completed, status: RenderStatus.Ok });
    const res = await status(body.jobId);
    expect(res.body).toMatchObject({ state: 'completed', status: 'ok', renderedCount: 1, missingCount: 0, failureReason: null });
    expect(res.body.issues).toHaveLength(100);
    expect(res.body.issues[99].description).toBe('#99');
    expect(res.body.completedAt).not.toBeNull();
  });

  it('4.5 / part 8: a document nesting deeper than 32 levels is accepted and reported as a DangerousContent issue, never rendered', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { nested: deep };
    const res = await enqueue(`${templateId}/async`, { documents: [{ ok: true }, deep], callbackUrl });
    expect(res.status).toBe(202);
    accepted++;
    const results = await db.database.renderJobs.listDocumentResults(res.body.jobId);
    expect(results).toEqual([expect.objectContaining({ documentIndex: 1, outcome: 'blocked', issues: [expect.objectContaining({ type: RenderIssueType.DangerousContent, documentIndex: 1 })] })]);
    const job = await db.database.renderJobs.findAnyById(res.body.jobId);
    expect(await blobs.stat(`${job!.inputBlobKey}/1.json`)).toBeNull();
    expect((await status(res.body.jobId)).body.issues).toEqual([expect.objectContaining({ type: 'DangerousContent', severity: 'Error', documentIndex: 1 })]);
  });

  it('4.5: a test key enqueues at most 10 documents (400 ValidationError); a production key has no fixed cap', async () => {
    const res = await enqueue(`${templateId}/async`, { documents: documents(11), callbackUrl }, testKey);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(ErrorCode.ValidationError);
  });

  it('4.5: an unknown language is 400 ValidationError', async () => {
    const res = await enqueue(`${templateId}/async?language=it`, { documents: documents(1), callbackUrl });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(ErrorCode.ValidationError);
  });

  it('4.5: template errors: TemplateNotFound (also another organisation\'s), VersionNotFound, NoPublishedVersion', async () => {
    const cases: [string, string, string][] = [
      [`${randomUUID()}/async`, prodKey, ErrorCode.TemplateNotFound],
      [`${templateId}/async`, otherKey, ErrorCode.TemplateNotFound],
      [`${templateId}/versions/9/async`, prodKey, ErrorCode.VersionNotFound],
      [`${draftOnlyTemplateId}/async`, prodKey, ErrorCode.NoPublishedVersion],
    ];
    for (const [path, key, code] of cases) {
      const res = await enqueue(path, { documents: documents(1), callbackUrl }, key);
      expect([res.status, res.body.error.code]).toEqual([404, code]);
    }
  });

  it('4.5: a body that cannot be bound is 422 BindingError naming the field', async () => {
    for (const [body, field] of [
      [{ documents: documents(1) }, 'callbackUrl'],
      [{ documents: documents(1), callbackUrl: 'ftp://example.com/x' }, 'callbackUrl'],
      [{ documents: [], callbackUrl }, 'documents'],
      [{ documents: [1], callbackUrl }, 'documents'],
      [{ documents: documents(1), callbackUrl, includeDocument: 'yes' }, 'includeDocument'],
    ] as const) {
      const res = await enqueue(`${templateId}/async`, body);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe(ErrorCode.BindingError);
      expect(res.body.error.message).toContain(field);
    }
  });

  it('4.5 / part 6: a callback URL the service would never call is 422 BindingError at enqueue, naming the setting, and nothing is stored', async () => {
    const before = await db.dataSource.query(`SELECT count(*)::int AS count FROM render_jobs`);
    for (const [url, setting] of [
      ['http://127.0.0.1/hooks/render?token=abc', 'EGRESS_ALLOW_HTTP'],
      ['https://127.0.0.1/hooks/render', 'EGRESS_ALLOW_PRIVATE'],
      ['https://localhost:8443/hooks', 'EGRESS_ALLOW_PRIVATE'],
      ['https://[::1]/hooks', 'EGRESS_ALLOW_PRIVATE'],
      ['https://[::ffff:7f00:1]/hooks', 'EGRESS_ALLOW_PRIVATE'],
      ['https://0.0.0.0/hooks', 'EGRESS_ALLOW_PRIVATE'],
      ['https://2130706433/hooks', 'EGRESS_ALLOW_PRIVATE'],
      ['https://10.1.2.3/hooks', 'EGRESS_ALLOW_PRIVATE'],
      ['https://169.254.169.254/latest/meta-data/', 'never called'],
      ['http://hooks.example.com/render', 'EGRESS_ALLOW_HTTP'],
      ['https://user:pw@hooks.example.com/render', 'user name or password'],
    ] as const) {
      const res = await enqueue(`${templateId}/async`, { documents: documents(1), callbackUrl: url });
      expect([url, res.status, res.body.error.code]).toEqual([url, 422, ErrorCode.BindingError]);
      expect(res.body.error.message).toContain('callbackUrl');
      expect(res.body.error.message).toContain(setting);
    }
    expect(await db.dataSource.query(`SELECT count(*)::int AS count FROM render_jobs`)).toEqual(before);
  });

  it('4.5 / part 8: a document over 50 MB is 413 PayloadTooLarge and nothing is stored', async () => {
    const before = await db.dataSource.query(`SELECT count(*)::int AS count FROM render_jobs`);
    const big = { blob: 'x'.repeat(50 * 1024 * 1024) };
    const res = await enqueue(`${templateId}/async`, { documents: [{ small: 1 }, big], callbackUrl });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe(ErrorCode.PayloadTooLarge);
    expect(res.body.error.message).toContain('documents[1]');
    expect(await db.dataSource.query(`SELECT count(*)::int AS count FROM render_jobs`)).toEqual(before);
  });

  it('4.6 / 7.2: another organisation\'s job, an unknown one and a jobId that is not a UUID are all 404 EntityNotFound', async () => {
    const { body } = await enqueue(`${templateId}/async`, { documents: documents(1), callbackUrl });
    accepted++;
    const res = await status(body.jobId, otherKey);
    expect([res.status, res.body.error.code]).toEqual([404, ErrorCode.EntityNotFound]);
    for (const jobId of [randomUUID(), 'not-a-uuid']) {
      const answer = await status(jobId);
      expect([jobId, answer.status, answer.body.error.code]).toEqual([jobId, 404, ErrorCode.EntityNotFound]);
    }
  });

  it('4.5: a job stored but not announced (the gateway died after commit) is published by the outbox relay', async () => {
    const job = await storeQueuedJob(db.database, blobs, { organisationId, templateId }, { environment: Environment.Production, documents: documentsOf(1), callbackUrl });
    accepted++;
    const deadline = Date.now() + 10_000;
    while ((await bus.queueDepth(MessageName.RunJob)) < accepted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(accepted);
    const [{ published }] = (await db.dataSource.query(`SELECT count(*)::int AS published FROM outbox WHERE payload->>'jobId' = $1 AND published_at IS NOT NULL`, [job.id])) as {
      published: number;
    }[];
    expect(published).toBe(1);
  });

  it('4.5 / 7.2: when the job queue is at capacity the enqueue is 503 QueueFull and nothing is stored', async () => {
    const jobsBefore = (await db.dataSource.query(`SELECT count(*)::int AS count FROM render_jobs`))[0].count as number;
    const statuses: number[] = [];
    let full: request.Response | null = null;
    for (let i = 0; i < JOB_QUEUE_MAX_LENGTH + 2 && full === null; i++) {
      const res = await enqueue(`${templateId}/async`, { documents: documents(1), callbackUrl });
      statuses.push(res.status);
      if (res.status === 503) full = res;
    }
    expect(full).not.toBeNull();
    expect(full!.body.error.code).toBe(ErrorCode.QueueFull);
    const acceptedHere = statuses.filter((s) => s === 202).length;
    const jobsAfter = (await db.dataSource.query(`SELECT count(*)::int AS count FROM render_jobs`))[0].count as number;
    expect(jobsAfter - jobsBefore).toBe(acceptedHere);
    const [{ unpublished }] = (await db.dataSource.query(`SELECT count(*)::int AS unpublished FROM outbox WHERE published_at IS NULL`)) as { unpublished: number }[];
    expect(unpublished).toBe(0);
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(accepted + acceptedHere);
  });
});
