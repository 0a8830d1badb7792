import { MessageName, WebhookEvent, type DeliverWebhookCommand } from '@docrender/contracts';
import { EgressFailedError, EgressFailure, EgressRefusal, EgressRefusedError, type GuardedFetchOptions, type GuardedResponse } from '@docrender/egress';
import type { MessageBus, PublishOptions } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import type { AttemptClaim, AttemptResult, WebhookDeliveryState } from '@docrender/persistence';
import { WebhookVerifier } from '@docrender/webhooks';
import { CallbackDeliveryService, type CallbackDeliveryOptions, type DeliveryRecords } from './callback-delivery.service';

const SECRET = 'whsec_active_secret_for_tests';
const PREVIOUS = 'whsec_previous_secret_for_tests';
const FIRST = 'whsec_first_secret_for_tests';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silent };

function command(overrides: Partial<DeliverWebhookCommand> = {}): DeliverWebhookCommand {
  return {
    deliveryId: '6a1f2d4e-0c1b-4e5f-8a9b-0c1d2e3f4a5b',
    jobId: '0b0e8a52-4a4e-4b8f-9a55-1c9c2f3f6d10',
    organisationId: '11111111-2222-4333-8444-555555555555',
    event: WebhookEvent.Progress,
    callbackUrl: 'https://hooks.example.com/render?token=secret',
    body: '{"jobId":"0b0e8a52-4a4e-4b8f-9a55-1c9c2f3f6d10","processed":1}',
    attempt: 1,
    ...overrides,
  };
}

class FakeRecords implements DeliveryRecords {
  claims: AttemptClaim[] = [];
  /** Errors the next finishAttempt calls throw, in order. */
  finishFailures: Error[] = [];
  finished: { attempt: number; result: AttemptResult; state: WebhookDeliveryState }[] = [];
  dropped: string[] = [];
  async claimAttempt(): Promise<AttemptClaim> {
    // Rotated a minute ago: the previous secret is still in its grace.
    return this.claims.shift() ?? { kind: 'claimed', secrets: { active: SECRET, previous: PREVIOUS, rotatedAt: new Date(Date.now() - 60_000) } };
  }
  async finishAttempt(_deliveryId: string, attempt: number, result: AttemptResult, state: Exclude<WebhookDeliveryState, 'dropped'>): Promise<void> {
    const failure = this.finishFailures.shift();
    if (failure) throw failure;
    this.finished.push({ attempt, result, state });
  }
  async markDropped(_ref: unknown, reason: string): Promise<void> {
    this.dropped.push(reason);
  }
}

type Published = { payload: DeliverWebhookCommand; options: PublishOptions | undefined };

function setup(answer: (url: string, options: GuardedFetchOptions) => Promise<GuardedResponse>, overrides: Partial<CallbackDeliveryOptions> = {}) {
  const published: Published[] = [];
  const bus = {
    publish: async (name: MessageName, payload: DeliverWebhookCommand, options?: PublishOptions) => {
      expect(name).toBe(MessageName.DeliverWebhook);
      published.push({ payload, options });
    },
  } as unknown as MessageBus;
  const records = new FakeRecords();
  const sent: { url: string; options: GuardedFetchOptions }[] = [];
  const service = new CallbackDeliveryService(
    {
      bus,
      deliveries: records,
      firstSecrets: async () => ({ active: FIRST }),
      send: async (url, options) => {
        sent.push({ url, options });
        return answer(url, options);
      },
      logger: silent,
    },
    {
      policy: { allowPrivate: false, allowHttp: false },
      attemptTimeoutMs: 30_000,
      maxResponseBytes: 1024,
      backoffScale: 1,
      inFlight: 16,
      perHostInFlight: 4,
      hostBusyDelayMs: 1000,
      ...overrides,
    },
  );
  return { service, records, published, sent };
}

const status = (code: number) => async (): Promise<GuardedResponse> => ({ status: code, headers: {}, body: Buffer.alloc(0) });

describe('CallbackDeliveryService', () => {
  it('6.2/6.4: POSTs the exact body with the three headers, signed with both secrets during rotation, active first', async () => {
    const { service, sent, records, published } = setup(status(204));
    await service.handle(command());
    expect(sent).toHaveLength(1);
    const { url, options } = sent[0];
    expect(url).toBe('https://hooks.example.com/render?token=secret');
    expect(options.method).toBe('POST');
    expect(options.body).toBe(command().body);
    expect(options.timeoutMs).toBe(30_000);
    const headers = options.headers ?? {};
    expect(headers['X-Service-Event']).toBe('render.progress');
    expect(headers['X-Service-Delivery']).toBe(command().deliveryId);
    expect(headers['Authorization']).toBeUndefined();
    expect(headers['X-Service-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const verifier = new WebhookVerifier();
    for (const secret of [SECRET, PREVIOUS]) {
      expect(() => verifier.verify({ rawBody: String(options.body), signatureHeader: headers['X-Service-Signature'], secrets: secret })).not.toThrow();
    }
    expect(records.finished).toEqual([{ attempt: 1, state: 'delivered', result: expect.objectContaining({ outcome: 'delivered', httpStatus: 204, error: null }) }]);
    expect(published).toEqual([]);
  });

  it('6.4: an organisation without a stored secret gets its first one, which signs the attempt', async () => {
    const { service, sent, records } = setup(status(204));
    records.claims.push({ kind: 'claimed', secrets: null });
    await service.handle(command());
    const signature = sent[0].options.headers?.['X-Service-Signature'] ?? '';
    expect(signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(() => new WebhookVerifier().verify({ rawBody: command().body, signatureHeader: signature, secrets: FIRST })).not.toThrow();
  });

  it('6.3: a non-2xx answer is retried after 2 s, then 4, 8, 16 s; the 5th failure abandons', async () => {
    const { service, records, published } = setup(status(500));
    for (let attempt = 1; attempt <= 5; attempt++) await service.handle(command({ attempt }));
    expect(published.map((p) => [p.payload.attempt, p.options?.delayMs])).toEqual([
      [2, 2000],
      [3, 4000],
      [4, 8000],
      [5, 16000],
    ]);
    expect(records.finished.map((f) => f.state)).toEqual(['pending', 'pending', 'pending', 'pending', 'abandoned']);
    expect(records.finished[0].result).toMatchObject({ outcome: 'failed', httpStatus: 500, error: 'HTTP 500' });
    expect(published.every((p) => p.payload.deliveryId === command().deliveryId && p.payload.body === command().body)).toBe(true);
  });

  it('6.3: the backoff is scaled by WEBHOOK_BACKOFF_SCALE', async () => {
    const { service, published } = setup(status(503), { backoffScale: 0.01 });
    await service.handle(command({ attempt: 2 }));
    expect(published.map((p) => p.options?.delayMs)).toEqual([40]);
  });

  it('6.3: a redirect (3xx) is a failed attempt, never followed', async () => {
    const { service, records, sent } = setup(status(302));
    await service.handle(command());
    expect(sent).toHaveLength(1);
    expect(records.finished[0]).toMatchObject({ state: 'pending', result: { outcome: 'failed', httpStatus: 302 } });
  });

  it('6.3: a timeout or connection error is a failed attempt and is retried', async () => {
    const { service, records, published } = setup(async () => {
      throw new EgressFailedError(EgressFailure.Timeout, 'https://hooks.example.com', 'no complete response within 30000 ms');
    });
    await service.handle(command());
    expect(records.finished[0]).toMatchObject({ state: 'pending', result: { outcome: 'failed', httpStatus: null } });
    expect(published).toHaveLength(1);
  });

  it('a callback URL the egress policy refuses (private address) is abandoned at once, never retried', async () => {
    const { service, records, published } = setup(async () => {
      throw new EgressRefusedError(EgressRefusal.AddressNotAllowed, 'https://127.0.0.1', 'loopback');
    });
    await service.handle(command({ callbackUrl: 'https://2130706433/hook' }));
    expect(records.finished).toEqual([{ attempt: 1, state: 'abandoned', result: expect.objectContaining({ outcome: 'refused' }) }]);
    expect(published).toEqual([]);
  });

  it('6.3: callbacks beyond the in-flight slots wait in the dispatcher (no broker round trip) and go as slots free up', async () => {
    const waiting: Array<() => void> = [];
    const { service, sent, published } = setup(
      async () => {
        await new Promise<void>((resolve) => waiting.push(resolve));
        return { status: 200, headers: {}, body: Buffer.alloc(0) };
      },
      { inFlight: 2, perHostInFlight: 1 },
    );
    const all = [1, 2, 3].map((i) => service.handle(command({ deliveryId: `00000000-0000-4000-8000-00000000000${i}`, callbackUrl: 'https://slow.example/a' })));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toHaveLength(2);
    waiting.shift()?.();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent).toHaveLength(3);
    waiting.splice(0).forEach((resolve) => resolve());
    await Promise.all(all);
    expect(published).toEqual([]);
  });

  it('a callback parked after waiting WEBHOOK_HOST_BUSY_DELAY_MS behind its own host goes back to the queue (same attempt), not an attempt', async () => {
    let release: () => void = () => undefined;
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const { service, sent, published } = setup(async () => {
      await hanging;
      return { status: 200, headers: {}, body: Buffer.alloc(0) };
    }, { inFlight: 1, perHostInFlight: 1, hostBusyDelayMs: 30 });
    const first = service.handle(command({ deliveryId: '00000000-0000-4000-8000-000000000001' }));
    await service.handle(command({ deliveryId: '00000000-0000-4000-8000-000000000002' }));
    expect(sent).toHaveLength(1);
    expect(published.map((p) => [p.payload.deliveryId, p.payload.attempt, p.options?.delayMs])).toEqual([['00000000-0000-4000-8000-000000000002', 1, 30]]);
    release();
    await first;
  });

  it('issue 18: an attempt made while the database went away is recorded once it is back, not made again', async () => {
    const { service, records, sent } = setup(status(200));
    records.finishFailures.push(new Error('Connection terminated unexpectedly'), Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    await service.handle(command());
    expect(sent).toHaveLength(1);
    expect(records.finished.map((f) => [f.attempt, f.state])).toEqual([[1, 'delivered']]);
  });

  it('issue 18: past the attempt\'s lease the outage goes to the shared policy (the message waits; the attempt may be made again)', async () => {
    const { service, records } = setup(status(200), { attemptTimeoutMs: 100 });
    const outage = new Error('Connection terminated unexpectedly');
    records.finishFailures.push(...Array.from({ length: 100 }, () => outage));
    await expect(service.handle(command())).rejects.toBe(outage);
    expect(records.finished).toEqual([]);
  });

  it('6.2: a duplicate message of a settled delivery does not call the receiver again', async () => {
    const { service, records, sent, published } = setup(status(200));
    records.claims.push({ kind: 'settled', state: 'delivered' });
    await service.handle(command());
    expect(sent).toEqual([]);
    expect(published).toEqual([]);
  });

  it('6.3: an attempt recorded as failed whose retry was never scheduled (crash) gets its retry, without calling again', async () => {
    const { service, records, sent, published } = setup(status(200));
    const made = { deliveryId: command().deliveryId, attempt: 2, startedAt: new Date(), leaseUntil: new Date(), finishedAt: new Date(), outcome: 'failed' as const, httpStatus: 500, error: 'HTTP 500', durationMs: 3 };
    records.claims.push({ kind: 'already-made', attempt: made, nextAttemptStarted: false });
    records.claims.push({ kind: 'already-made', attempt: made, nextAttemptStarted: true });
    await service.handle(command({ attempt: 2 }));
    await service.handle(command({ attempt: 2 }));
    expect(sent).toEqual([]);
    expect(published.map((p) => [p.payload.attempt, p.options?.delayMs])).toEqual([[3, 4000]]);
  });

  it('an attempt another dispatcher holds is looked at again after the lease', async () => {
    const { service, records, sent, published } = setup(status(200));
    records.claims.push({ kind: 'in-flight', leaseUntil: new Date(Date.now() + 10_000) });
    await service.handle(command());
    expect(sent).toEqual([]);
    expect(published.map((p) => [p.payload.attempt, p.options?.delayMs])).toEqual([[1, 35_000]]);
  });

  it('6.3: a callback dropped under overload is recorded with its reason', async () => {
    const { service, records } = setup(status(200));
    await service.dropped(command(), 'max-length');
    expect(records.dropped).toEqual(['max-length']);
  });
});
