import { ErrorCode, RenderStatus, type RenderEnvelopeDto } from '@docrender/contracts';
import { startTcpFaultProxy, waitFor, type TcpFaultProxy } from '@docrender/testing';
import { createDocument, createTenant, TINY_PDF, type Tenant } from './gateway-fixtures';
import { gatewaysOnOwnResources, gatewayTestInfrastructure, type GatewayProcess } from './gateway-process';
import { startRenderService } from './render-stack';

jest.setTimeout(300_000);

/** A stack frame as Node prints it; no answer may carry one. */
const STACK_FRAME = /\n\s+at .+\(.+:\d+:\d+\)/;

const TEMPLATE = { body: [{ type: 'text', id: 'title', text: 'Invoice {{ number }}' }] };

type Answer = { status: number; contentType: string | null; text: string; retryAfter?: string | null };

/**
 * Spec 7.2, the 500 rows: genuine failures of the stack under a gateway process, not mapped domain errors. An
 * unreachable dependency is ExternalServiceError with Retry-After (issue 18 item 6). The gateway
 * reaches S3 and RabbitMQ through TCP proxies the test can switch to failing; PostgreSQL, the render service
 * (Chromium) and the test itself use the servers directly.
 */
describe('7.2 500 ExternalServiceError over HTTP against the real stack when a dependency is down (gateway process)', () => {
  const own = gatewaysOnOwnResources(() => gatewayTestInfrastructure('server-errors'));
  let s3: TcpFaultProxy;
  let amqp: TcpFaultProxy;
  let gateway: GatewayProcess;
  let tenant: Tenant;
  let templateId: string;
  let documentId: string;

  beforeAll(async () => {
    const { infra } = own.resources;
    const s3Url = new URL(infra.env.S3_ENDPOINT);
    const amqpUrl = new URL(infra.env.AMQP_URL);
    s3 = await startTcpFaultProxy({ host: s3Url.hostname, port: Number(s3Url.port) });
    amqp = await startTcpFaultProxy({ host: amqpUrl.hostname, port: Number(amqpUrl.port || 5672) });
    s3Url.port = String(s3.port);
    amqpUrl.host = `127.0.0.1:${amqp.port}`;
    [, gateway] = await Promise.all([
      own.stopsAfterAll(startRenderService({ ...infra.env, DB_POOL_SIZE: '2', RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1' })),
      own.startGateway({
        S3_ENDPOINT: s3Url.origin,
        AMQP_URL: amqpUrl.toString(),
        // How long a request waits for a lost RabbitMQ connection before it gives up, and how soon one is retried.
        AMQP_PUBLISH_WAIT_MS: '1000',
        AMQP_RECONNECT_MAX_DELAY_MS: '500',
      }),
    ]);
    const db = infra.db.database;
    tenant = await createTenant(db, 'Server errors');
    templateId = (await db.templates.create({ organisationId: tenant.organisationId, projectId: null, name: 'Invoice', documentNameTemplate: null, updatedBy: 'e2e' })).id;
    await db.templateVersions.addVersion(
      templateId,
      { templateJson: JSON.stringify(TEMPLATE), sampleData: JSON.stringify({ data: { number: 'S' }, i18n: {} }), translations: null, documentNameTemplate: null },
      { author: 'e2e', publish: true },
    );
    documentId = (await createDocument(db, infra.blobStore, tenant, { templateId })).id;
  });

  afterAll(async () => {
    await s3?.close();
    await amqp?.close();
  });

  async function call(method: string, path: string, body?: unknown): Promise<Answer & { body: Buffer }> {
    const res = await fetch(`${gateway.baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${tenant.testKey}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, contentType: res.headers.get('content-type'), retryAfter: res.headers.get('retry-after'), text: bytes.toString('utf8'), body: bytes };
  }

  /** The spec 7.1 envelope of a 500 with `code`: JSON, no stack frame, nothing but code, message (and errorId). */
  function expectServerError(answer: Answer, code: ErrorCode): { code: string; message: string; errorId?: string } {
    expect([answer.status, answer.contentType]).toEqual([500, expect.stringMatching(/^application\/json/)]);
    expect(answer.text).not.toMatch(STACK_FRAME);
    const { error } = JSON.parse(answer.text) as { error: { code: string; message: string; errorId?: string } };
    expect(error.code).toBe(code);
    return error;
  }

  it.each([
    ['answers garbage', (proxy: TcpFaultProxy) => proxy.answerWith('this is not HTTP\r\n\r\n')],
    ['has gone away', (proxy: TcpFaultProxy) => proxy.cut()],
  ])('7.2 500 ExternalServiceError with Retry-After: S3 %s while a stored PDF is downloaded; errorId logged, no stack; the gateway keeps serving and recovers', async (_, fail) => {
    const before = await call('GET', `/v1/documents/${documentId}/file`);
    expect([before.status, before.body.equals(TINY_PDF)]).toEqual([200, true]);

    fail(s3);
    try {
      const answer = await call('GET', `/v1/documents/${documentId}/file`);
      const error = expectServerError(answer, ErrorCode.ExternalServiceError);
      expect(error).toEqual({ code: ErrorCode.ExternalServiceError, message: expect.stringContaining(error.errorId ?? 'no errorId'), errorId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(error.message).toMatch(/^blob storage cannot be reached/);
      // Issue 18 item 6: an outage tells the client when to retry (the SDK retries reads on it, spec 7.5).
      expect(answer.retryAfter).toMatch(/^\d+$/);
      // The cause is in the gateway's log under the errorId the client was given.
      await waitFor('the errorId in the gateway log', () => (gateway.output().includes(error.errorId ?? '') ? true : undefined), 5_000);

      // Everything that does not need S3 keeps working; readiness says why the PDF cannot be read (plain text, 4.17).
      expect((await call('GET', `/v1/documents/${documentId}`)).status).toBe(200);
      expect((await call('GET', '/v1/meta/version')).status).toBe(200);
      const status = await call('GET', '/v1/meta/status');
      expect([status.status, status.contentType, status.text]).toEqual([503, expect.stringMatching(/^text\/plain/), expect.stringMatching(/^blob storage unreachable/)]);
    } finally {
      s3.forward();
    }

    const after = await call('GET', `/v1/documents/${documentId}/file`);
    expect([after.status, after.body.equals(TINY_PDF)]).toEqual([200, true]);
    expect((await call('GET', '/v1/meta/status')).status).toBe(200);
  });

  it('7.2 500 ExternalServiceError: RabbitMQ unreachable during a render; the gateway keeps serving and renders again once it is back', async () => {
    const render = () => call('POST', `/v1/render/${templateId}?persist=false`, { documents: [{ number: 'E-1' }] });
    const envelopeOf = (answer: Answer) => JSON.parse(answer.text) as RenderEnvelopeDto;
    const first = await render();
    expect([first.status, envelopeOf(first).status]).toEqual([200, RenderStatus.Ok]);

    amqp.cut();
    try {
      const answer = await render();
      const error = expectServerError(answer, ErrorCode.ExternalServiceError);
      expect(error.message).toContain('render service');
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect((await call('GET', `/v1/templates/${templateId}`)).status).toBe(200);
      expect((await call('GET', '/v1/meta/status')).status).toBe(200);
    } finally {
      amqp.forward();
    }

    const recovered = await waitFor('a render after RabbitMQ is back', async () => {
      const answer = await render();
      return answer.status === 200 ? answer : undefined;
    }, 60_000, 250);
    expect(envelopeOf(recovered)).toMatchObject({ status: RenderStatus.Ok, renderedCount: 1 });
  });
});
