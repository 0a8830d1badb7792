import { ErrorCode, JobState } from '@docrender/contracts';
import { documentsOf, expectAnswerMatchesContract, startAsyncStack, waitFor, type AsyncStack } from '@docrender/testing';

jest.setTimeout(300_000);

/**
 * Issue 31 item 6: a gateway restarted during a RabbitMQ outage starts and serves, and accepted jobs leave the outbox
 * without it. Only the gateway reaches RabbitMQ through a TCP fault proxy, which the test cuts; the job worker, the
 * dispatcher and the render stand-in keep the broker. Before, the gateway waited AMQP_CONNECT_TIMEOUT_MS for the broker
 * at start and exited, and only the gateway relayed job.run messages, so jobs accepted meanwhile waited for a gateway
 * that could publish.
 */
describe('issue 31 item 6: the gateway restarted while RabbitMQ is cut (the apps as processes)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack(
      'broker-restart',
      { AMQP_PUBLISH_WAIT_MS: '1000', AMQP_RECONNECT_MAX_DELAY_MS: '500', JOBS_ENQUEUE_PUBLISH_WAIT_MS: '1000' },
      // A short connect timeout for the gateway: without the fix the restarted gateway gives up within the test.
      { faults: { rabbitmq: ['api-gateway'] }, settingsOf: { 'api-gateway': { AMQP_CONNECT_TIMEOUT_MS: '3000' } } },
    );
  });

  afterAll(async () => {
    stack?.faults.rabbitmq?.forward();
    await stack?.teardown();
  });

  const read = (path: string) => fetch(`${stack.gatewayUrl}${path}`, { headers: { Authorization: `Bearer ${stack.testKey}` } });
  const renderSync = async () => {
    const res = await fetch(`${stack.gatewayUrl}/v1/render/${stack.tenant.templateId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${stack.testKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ documents: documentsOf(1) }),
    });
    const body = Buffer.from(await res.arrayBuffer());
    expectAnswerMatchesContract({ method: 'POST', url: res.url, status: res.status, headers: res.headers, body });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: JSON.parse(body.toString('utf8')) as Record<string, unknown> };
  };

  it('starts and serves reads, answers a sync render 500 ExternalServiceError with Retry-After, and the job worker publishes the jobs it accepted; it connects once RabbitMQ is back', async () => {
    const before = await stack.enqueue(stack.testKey, documentsOf(1));
    expect((await stack.finished(stack.testKey, before)).state).toBe(JobState.Completed);

    const broker = stack.faults.rabbitmq!;
    broker.cut();
    await stack.processes['api-gateway'].stop('SIGTERM', 5_000);
    // Ready means the probe answered 200: the database and the blob store, which the gateway's readiness checks.
    const gateway = await stack.start('api-gateway');

    expect((await read(`/v1/render/jobs/${before}`)).status).toBe(200);
    expect((await read(`/v1/templates/${stack.tenant.templateId}`)).status).toBe(200);
    expect((await fetch(`${stack.gatewayUrl}/v1/meta/status`)).status).toBe(200);

    // Spec 7.2 and decision 0010: the render service cannot be reached — an outage answer the client retries.
    const during = await renderSync();
    expect([during.status, (during.body.error as { code: string }).code, during.retryAfter]).toEqual([500, ErrorCode.ExternalServiceError, '5']);

    // Accepted into the outbox; the job worker, which reaches RabbitMQ, publishes and runs them while the gateway cannot.
    const accepted = [await stack.enqueue(stack.testKey, documentsOf(1)), await stack.enqueue(stack.testKey, documentsOf(2))];
    for (const jobId of accepted) {
      const done = await stack.finished(stack.testKey, jobId, 60_000);
      expect(done.state).toBe(JobState.Completed);
    }
    // Still cut meanwhile, so only the job worker can have published them; the gateway's relay kept trying.
    expect(gateway.output()).toMatch(/outbox relay pass stopped.*not connected to RabbitMQ/);

    broker.forward();
    const after = await waitFor('a sync render once RabbitMQ is back', async () => {
      const answer = await renderSync();
      return answer.status === 200 ? answer : undefined;
    }, 30_000, 200);
    expect(after.body).toMatchObject({ status: 'ok', renderedCount: 1 });
    for (const jobId of accepted) expect(stack.renderer?.renders.get(`${jobId}:0`)).toBe(1);
  });
});
