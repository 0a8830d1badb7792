import { JobState } from '@docrender/contracts';
import { documentsOf, startAsyncStack, waitFor, type AsyncStack } from '@docrender/testing';

jest.setTimeout(300_000);

/** Enqueues sent while RabbitMQ is cut, one every ENQUEUE_GAP_MS: more than the gateway's pool has connections. */
const ENQUEUES = 12;
const ENQUEUE_GAP_MS = 150;
const POOL_SIZE = 4;

type Sample = { heldInTransaction: number; gatewayConnections: number };

/**
 * Issue 18 item 2: the API stays up when the broker is down. The gateway, the job worker and the dispatcher are
 * separate processes reaching RabbitMQ through a TCP fault proxy that the test cuts; PostgreSQL and S3 stay up.
 * Before the fix every enqueue held a pool connection inside a transaction until its publish gave up, so a few
 * enqueues a second exhausted the pool and stalled every request, reads included.
 */
describe('issue 18 item 2: RabbitMQ cut under enqueue load (gateway, job worker and dispatcher as processes)', () => {
  let stack: AsyncStack;

  beforeAll(async () => {
    stack = await startAsyncStack(
      'broker-outage',
      // A publish waits up to 2 s for a lost connection (as in production); a small pool makes holding it visible.
      { DB_POOL_SIZE: String(POOL_SIZE), AMQP_PUBLISH_WAIT_MS: '2000', AMQP_RECONNECT_MAX_DELAY_MS: '500', JOBS_ENQUEUE_PUBLISH_WAIT_MS: '2000' },
      { faults: { rabbitmq: ['api-gateway', 'job-worker', 'webhook-dispatcher'] } },
    );
  });

  afterAll(async () => {
    stack?.faults.rabbitmq?.forward();
    await stack?.teardown();
  });

  /**
   * The gateway's PostgreSQL sessions now: how many have sat inside a transaction doing nothing for over a second,
   * i.e. waiting for something outside the database (a short transaction is idle between its statements for far
   * less; a publish waiting for a lost broker connection holds it for AMQP_PUBLISH_WAIT_MS, 2 s here).
   */
  async function sampleGatewaySessions(): Promise<Sample> {
    const [row] = (await stack.infra.db.dataSource.query(
      `SELECT count(*) FILTER (WHERE state = 'idle in transaction' AND state_change < now() - interval '1 second')::int AS "heldInTransaction",
              count(*)::int AS "gatewayConnections"
         FROM pg_stat_activity WHERE datname = $1 AND application_name = 'api-gateway'`,
      [stack.infra.db.name],
    )) as Sample[];
    return row;
  }

  const read = (path: string) => fetch(`${stack.gatewayUrl}${path}`, { headers: { Authorization: `Bearer ${stack.testKey}` } });

  it('enqueues answer 202 at once and reads keep answering while no request holds a database connection for the broker; every job runs once RabbitMQ is back', async () => {
    const before = await stack.enqueue(stack.testKey, documentsOf(1));
    expect((await stack.finished(stack.testKey, before)).state).toBe(JobState.Completed);
    expect((await sampleGatewaySessions()).gatewayConnections).toBeGreaterThan(0);

    const broker = stack.faults.rabbitmq!;
    broker.cut();
    const samples: Sample[] = [];
    const readStatuses: number[] = [];
    const enqueued: string[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        samples.push(await sampleGatewaySessions());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    try {
      const enqueues = Array.from({ length: ENQUEUES }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * ENQUEUE_GAP_MS));
        enqueued.push(await stack.enqueue(stack.testKey, documentsOf(1)));
      });
      const reads = Array.from({ length: ENQUEUES }, async (_, i) => {
        await new Promise((resolve) => setTimeout(resolve, i * ENQUEUE_GAP_MS + ENQUEUE_GAP_MS / 2));
        readStatuses.push((await read(`/v1/render/jobs/${before}`)).status, (await read(`/v1/templates/${stack.tenant.templateId}`)).status);
      });
      await Promise.all([...enqueues, ...reads]);

      // The gateway's readiness needs the database and the blob store, both up: it stays ready and blames nothing.
      expect((await fetch(`${stack.gatewayUrl}/v1/meta/status`)).status).toBe(200);
      // The job worker does need the broker: its probe names the message bus, not the database.
      const worker = await fetch(`http://127.0.0.1:${stack.processes['job-worker'].env.JOB_WORKER_PORT}/v1/meta/status`);
      const reason = await worker.text();
      expect([worker.status, reason]).toEqual([503, expect.stringMatching(/^message bus unreachable/)]);
      expect(reason).not.toMatch(/database/);
      // Jobs accepted during the outage are stored and pending (the outbox holds their job.run message).
      expect((await stack.status(stack.testKey, enqueued[0])).state).toBe(JobState.Pending);
    } finally {
      sampling = false;
      await sampler;
      broker.forward();
    }

    expect(enqueued).toHaveLength(ENQUEUES);
    expect(readStatuses).toEqual(Array(ENQUEUES * 2).fill(200));
    // Structural: not one sample caught a gateway session inside a transaction waiting (for RabbitMQ).
    expect(samples.length).toBeGreaterThan(5);
    expect(samples.filter((s) => s.heldInTransaction > 0)).toEqual([]);

    // None lost, none run twice: every job accepted during the outage completes once RabbitMQ is back.
    for (const jobId of enqueued) {
      const done = await stack.finished(stack.testKey, jobId, 120_000);
      expect([done.state, done.renderedCount]).toEqual([JobState.Completed, 1]);
    }
    await waitFor('the outbox to empty', async () => {
      const [{ count }] = (await stack.infra.db.dataSource.query(`SELECT count(*)::int AS count FROM outbox WHERE published_at IS NULL`)) as { count: number }[];
      return count === 0 ? true : undefined;
    }, 60_000, 200);
    for (const jobId of enqueued) expect(stack.renderer?.renders.get(`${jobId}:0`)).toBe(1);
  });
});
