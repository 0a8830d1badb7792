import { randomUUID } from 'node:crypto';
import type { MessagingSettings } from '@docrender/config';
import { DependencyOutageError, MessageName, type DeliverWebhookCommand, type RunJobCommand } from '@docrender/contracts';
import {
  MessageBusUnavailableError,
  QueueFullError,
  RequestTimeoutError,
  type DeadLetterReason,
  type DeliveryContext,
  type MessageBus,
} from '../message-bus';
import { deferred, deliverWebhook, eventually, renderDocument, renderedResult, runJob, sleep } from './message-fixtures';

/** Opens a bus of the adapter under test; each call gets queues of its own (AMQP: a fresh queue prefix). */
export type OpenBus = (overrides: Partial<MessagingSettings>) => Promise<MessageBus>;

/** A small delivery limit; the bound tests set small bounds themselves. */
const TEST_SETTINGS: Partial<MessagingSettings> = {
  deliveryLimit: 2,
  jobQueueMaxLength: 100,
  webhookQueueMaxLength: 100,
  prefetch: 4,
  outageWaitMs: 50,
  outageWaitMaxMs: 200,
};

/**
 * The MessageBus port's contract (message-bus.ts), run against both adapters: the in-process bus in a unit test and
 * the AMQP bus against the real RabbitMQ in an integration test.
 */
export function describeMessageBusBehaviour(openBus: OpenBus): void {
  const opened: MessageBus[] = [];
  const open = async (overrides: Partial<MessagingSettings> = {}): Promise<MessageBus> => {
    const bus = await openBus({ ...TEST_SETTINGS, ...overrides });
    opened.push(bus);
    return bus;
  };

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });

  it('publish resolves once the message is accepted; the consumer gets the payload and message id', async () => {
    const bus = await open();
    const received: Array<{ payload: RunJobCommand; context: DeliveryContext }> = [];
    await bus.consume(MessageName.RunJob, async (payload, context) => {
      received.push({ payload, context });
    });
    await bus.publish(MessageName.RunJob, runJob('job-a'), { messageId: 'message-a' });
    await eventually('the delivery', () => received.length === 1);
    expect(received[0]).toEqual({
      payload: { jobId: 'job-a' },
      context: { messageId: 'message-a', redeliveries: 0, abandoned: expect.objectContaining({ aborted: false }) },
    });
  });

  it('publish gives a message without an id one of its own', async () => {
    const bus = await open();
    const ids: string[] = [];
    await bus.consume(MessageName.RunJob, async (_payload, context) => {
      ids.push(context.messageId);
    });
    await bus.publish(MessageName.RunJob, runJob('job-b'));
    await eventually('the delivery', () => ids.length === 1);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('competing consumers of one name share its messages, each message handled once', async () => {
    const bus = await open();
    const byConsumer: Record<'first' | 'second', string[]> = { first: [], second: [] };
    const consumer = (who: 'first' | 'second') => async (payload: RunJobCommand) => {
      byConsumer[who].push(payload.jobId);
      await sleep(50);
    };
    await bus.consume(MessageName.RunJob, consumer('first'), { prefetch: 1 });
    await bus.consume(MessageName.RunJob, consumer('second'), { prefetch: 1 });
    for (const jobId of ['1', '2', '3', '4']) await bus.publish(MessageName.RunJob, runJob(jobId));
    await eventually('four deliveries', () => byConsumer.first.length + byConsumer.second.length === 4);
    expect(byConsumer.first.length).toBeGreaterThan(0);
    expect(byConsumer.second.length).toBeGreaterThan(0);
    expect([...byConsumer.first, ...byConsumer.second].sort()).toEqual(['1', '2', '3', '4']);
  });

  it('a consumer holds no more unacknowledged messages than its prefetch', async () => {
    const bus = await open();
    const release = deferred();
    let inFlight = 0;
    let mostInFlight = 0;
    let handled = 0;
    await bus.consume(
      MessageName.RunJob,
      async () => {
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await release.promise;
        inFlight--;
        handled++;
      },
      { prefetch: 2 },
    );
    for (const jobId of ['1', '2', '3']) await bus.publish(MessageName.RunJob, runJob(jobId));
    await eventually('two messages in flight', () => inFlight === 2);
    await sleep(100);
    expect(mostInFlight).toBe(2);
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(1);
    release.resolve();
    await eventually('all handled', () => handled === 3);
  });

  it('a handler that throws gets the message again, counting redeliveries; past AMQP_DELIVERY_LIMIT it is dead-lettered', async () => {
    const bus = await open({ deliveryLimit: 2 });
    const redeliveries: number[] = [];
    const deadLetters: Array<{ jobId: string; messageId: string; reason: DeadLetterReason }> = [];
    await bus.consume(MessageName.RunJob, async (_payload, context) => {
      redeliveries.push(context.redeliveries);
      throw new Error('poison');
    });
    await bus.consumeDeadLetters(MessageName.RunJob, async (payload, context) => {
      deadLetters.push({ jobId: payload.jobId, ...context });
    });
    await bus.publish(MessageName.RunJob, runJob('poison'), { messageId: 'poison-message' });
    await eventually('the dead letter', () => deadLetters.length === 1);
    expect(redeliveries).toEqual([0, 1, 2]);
    expect(deadLetters).toEqual([{ jobId: 'poison', messageId: 'poison-message', reason: 'delivery-limit' }]);
  });

  it('a handler that fails once succeeds on the redelivery and the message is not dead-lettered', async () => {
    const bus = await open();
    const attempts: number[] = [];
    const deadLetters: string[] = [];
    await bus.consume(MessageName.RunJob, async (_payload, context) => {
      attempts.push(context.redeliveries);
      if (context.redeliveries === 0) throw new Error('transient');
    });
    await bus.consumeDeadLetters(MessageName.RunJob, async (payload) => {
      deadLetters.push(payload.jobId);
    });
    await bus.publish(MessageName.RunJob, runJob('flaky'));
    await eventually('the redelivery', () => attempts.length === 2);
    await sleep(200);
    expect(attempts).toEqual([0, 1]);
    expect(deadLetters).toEqual([]);
  });

  it('issue 18: an outage is not the message\'s fault: it waits with growing pauses, past the delivery limit, and is handled once the dependency is back', async () => {
    const bus = await open({ deliveryLimit: 2 });
    const seen: Array<{ at: number; redeliveries: number; messageId: string }> = [];
    const deadLetters: string[] = [];
    await bus.consume(MessageName.RunJob, async (_payload, context) => {
      seen.push({ at: Date.now(), redeliveries: context.redeliveries, messageId: context.messageId });
      if (seen.length <= 4) throw new DependencyOutageError('database', 'PostgreSQL unreachable');
    });
    await bus.consumeDeadLetters(MessageName.RunJob, async (payload) => {
      deadLetters.push(payload.jobId);
    });
    await bus.publish(MessageName.RunJob, runJob('waits'), { messageId: 'waiting-message' });
    await eventually('the delivery after four outages', () => seen.length === 5, 10_000);
    await sleep(300);
    expect(seen).toHaveLength(5);
    expect(seen.map((s) => [s.redeliveries, s.messageId])).toEqual(Array.from({ length: 5 }, () => [0, 'waiting-message']));
    const pauses = seen.slice(1).map((s, i) => s.at - seen[i].at);
    [50, 100, 200, 200].forEach((wait, i) => expect(pauses[i]).toBeGreaterThanOrEqual(wait - 10));
    expect(deadLetters).toEqual([]);
  });

  it('issue 18: a request whose handler meets an outage is answered by the delivery after the wait', async () => {
    const bus = await open();
    let tries = 0;
    await bus.consume(MessageName.RenderDocument, async (payload) => {
      tries++;
      if (tries === 1) throw new DependencyOutageError('blob storage', 'S3 unreachable');
      return renderedResult(payload.requestId);
    });
    await expect(bus.request(MessageName.RenderDocument, renderDocument('after-outage'), { timeoutMs: 5_000 })).resolves.toMatchObject({ documentName: 'after-outage' });
    expect(tries).toBe(2);
  });

  it('issue 18: failures of the message itself still count across outage waits; at the limit it is dead-lettered (delivery-limit)', async () => {
    const bus = await open({ deliveryLimit: 2 });
    const redeliveries: number[] = [];
    const deadLetters: Array<{ jobId: string; reason: DeadLetterReason }> = [];
    await bus.consume(MessageName.RunJob, async (_payload, context) => {
      redeliveries.push(context.redeliveries);
      if (redeliveries.length % 2 === 0) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      throw new Error('poison');
    });
    await bus.consumeDeadLetters(MessageName.RunJob, async (payload, context) => {
      deadLetters.push({ jobId: payload.jobId, reason: context.reason });
    });
    await bus.publish(MessageName.RunJob, runJob('poison-between-outages'));
    await eventually('the dead letter', () => deadLetters.length === 1, 10_000);
    expect(redeliveries).toEqual([0, 1, 1, 2, 2]);
    expect(deadLetters).toEqual([{ jobId: 'poison-between-outages', reason: 'delivery-limit' }]);
  });

  it('issue 18: a dead-letter handler that cannot reach a dependency gets its dead letter again once it can (nothing dropped unrecorded)', async () => {
    const bus = await open({ deliveryLimit: 0 });
    const tries: string[] = [];
    const recorded: Array<{ deliveryId: string; reason: DeadLetterReason }> = [];
    await bus.consume(MessageName.DeliverWebhook, async () => {
      throw new Error('poison');
    });
    await bus.consumeDeadLetters(MessageName.DeliverWebhook, async (payload, context) => {
      tries.push(payload.deliveryId);
      if (tries.length <= 3) throw Object.assign(new Error('Connection terminated unexpectedly'), { cause: new Error('socket hang up') });
      recorded.push({ deliveryId: payload.deliveryId, reason: context.reason });
    });
    await bus.publish(MessageName.DeliverWebhook, deliverWebhook('dead-during-outage'));
    await eventually('the dead letter recorded', () => recorded.length === 1, 10_000);
    expect(tries).toEqual(['dead-during-outage', 'dead-during-outage', 'dead-during-outage', 'dead-during-outage']);
    expect(recorded).toEqual([{ deliveryId: 'dead-during-outage', reason: 'delivery-limit' }]);
  });

  it('a message is acknowledged only after its handler resolved: cancel waits for the handler, nothing comes back', async () => {
    const bus = await open();
    const release = deferred();
    const started = deferred();
    let finished = false;
    const subscription = await bus.consume(MessageName.RunJob, async () => {
      started.resolve();
      await release.promise;
      finished = true;
    });
    await bus.publish(MessageName.RunJob, runJob('slow'));
    await started.promise;
    let cancelled = false;
    const cancelling = subscription.cancel().then(() => {
      cancelled = true;
    });
    await sleep(100);
    expect(cancelled).toBe(false);
    release.resolve();
    await cancelling;
    expect(finished).toBe(true);

    const later: string[] = [];
    await bus.consume(MessageName.RunJob, async (payload) => {
      later.push(payload.jobId);
    });
    await sleep(300);
    expect(later).toEqual([]);
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(0);
  });

  it('request resolves with the reply of the handler, each requester with its own', async () => {
    const bus = await open();
    await bus.consume(
      MessageName.RenderDocument,
      async (command) => {
        await sleep(command.requestId === 'first' ? 80 : 10);
        return renderedResult(command.requestId);
      },
      { prefetch: 2 },
    );
    const [first, second] = await Promise.all([
      bus.request(MessageName.RenderDocument, renderDocument('first'), { timeoutMs: 5_000 }),
      bus.request(MessageName.RenderDocument, renderDocument('second'), { timeoutMs: 5_000 }),
    ]);
    expect(first).toEqual(renderedResult('first'));
    expect(second).toEqual(renderedResult('second'));
  });

  it('0022: byte arrays in a reply travel as raw bytes and come back as Buffers at their places, the JSON around them intact', async () => {
    const bus = await open();
    const pdf = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x80, 0x0a]);
    await bus.consume(MessageName.RenderDocument, async (command) => {
      const result = renderedResult(command.requestId);
      return { ...result, pdf: result.pdf && { ...result.pdf, inlineBytes: pdf } };
    });
    const reply = await bus.request(MessageName.RenderDocument, renderDocument('binary'), { timeoutMs: 5_000 });
    expect(reply).toEqual({ ...renderedResult('binary'), pdf: { ...renderedResult('binary').pdf, inlineBytes: pdf } });
    expect(Buffer.isBuffer(reply.pdf?.inlineBytes)).toBe(true);
  });

  it('0022: a reply without byte arrays is plain JSON, as older builds send and read it', async () => {
    const bus = await open();
    await bus.consume(MessageName.RenderDocument, async (command) => renderedResult(command.requestId));
    await expect(bus.request(MessageName.RenderDocument, renderDocument('plain'), { timeoutMs: 5_000 })).resolves.toEqual(renderedResult('plain'));
  });

  it('request rejects with RequestTimeoutError when no reply comes in time', async () => {
    const bus = await open();
    const started = Date.now();
    const request = bus.request(MessageName.RenderPreview, { ...renderDocument('lonely'), sampleData: {} }, { timeoutMs: 200 });
    await expect(request).rejects.toBeInstanceOf(RequestTimeoutError);
    await expect(request).rejects.toThrow(`no reply to ${MessageName.RenderPreview} within 200 ms`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });

  it('a request whose requester stopped waiting is dropped, not handled', async () => {
    const bus = await open();
    await expect(bus.request(MessageName.RenderDocument, renderDocument('abandoned'), { timeoutMs: 100 })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    const handled: string[] = [];
    await bus.consume(MessageName.RenderDocument, async (command) => {
      handled.push(command.requestId);
      return renderedResult(command.requestId);
    });
    await eventually('the queue to drain', async () => (await bus.queueDepth(MessageName.RenderDocument)) === 0);
    await sleep(100);
    expect(handled).toEqual([]);
  });

  it('6.3.2: a delayed publish (webhook retry backoff) is delivered no sooner than its delay', async () => {
    const bus = await open();
    const arrivals: Array<{ deliveryId: string; afterMs: number }> = [];
    const published = Date.now();
    await bus.consume(MessageName.DeliverWebhook, async (payload) => {
      arrivals.push({ deliveryId: payload.deliveryId, afterMs: Date.now() - published });
    });
    await bus.publish(MessageName.DeliverWebhook, deliverWebhook('later', 2), { delayMs: 600 });
    await bus.publish(MessageName.DeliverWebhook, deliverWebhook('now'));
    await eventually('both deliveries', () => arrivals.length === 2);
    expect(arrivals.map((a) => a.deliveryId)).toEqual(['now', 'later']);
    expect(arrivals[1]?.afterMs).toBeGreaterThanOrEqual(590);
    expect(await bus.queueDepth(MessageName.DeliverWebhook)).toBe(0);
  });

  it('4.5: job.run refuses publishing beyond its bound with QueueFullError (the gateway answers 503 QueueFull)', async () => {
    const bus = await open({ jobQueueMaxLength: 3 });
    let accepted = 0;
    const refusals: unknown[] = [];
    for (let i = 0; i < 6; i++) {
      try {
        await bus.publish(MessageName.RunJob, runJob(`job-${i}`));
        accepted++;
      } catch (error) {
        refusals.push(error);
      }
    }
    // RabbitMQ quorum queues apply the bound after the fact and may take one message over it.
    expect(accepted).toBeGreaterThanOrEqual(3);
    expect(accepted).toBeLessThanOrEqual(4);
    expect(refusals.length).toBe(6 - accepted);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(QueueFullError);
      expect(refusal).toMatchObject({ messageName: MessageName.RunJob, maxLength: 3 });
    }
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(accepted);
  });

  it('6.3.4: webhook.deliver drops its oldest pending callbacks when full; they are dead-lettered with reason max-length', async () => {
    const bus = await open({ webhookQueueMaxLength: 3 });
    for (const id of ['d1', 'd2', 'd3', 'd4', 'd5']) await bus.publish(MessageName.DeliverWebhook, deliverWebhook(id));
    await eventually('the bound to apply', async () => (await bus.queueDepth(MessageName.DeliverWebhook)) === 3);

    const dropped: Array<{ deliveryId: string; reason: DeadLetterReason }> = [];
    await bus.consumeDeadLetters(MessageName.DeliverWebhook, async (payload: DeliverWebhookCommand, context) => {
      dropped.push({ deliveryId: payload.deliveryId, reason: context.reason });
    });
    const delivered: string[] = [];
    await bus.consume(MessageName.DeliverWebhook, async (payload) => {
      delivered.push(payload.deliveryId);
    });
    await eventually('every message accounted for', () => dropped.length === 2 && delivered.length === 3);
    expect(dropped).toEqual([
      { deliveryId: 'd1', reason: 'max-length' },
      { deliveryId: 'd2', reason: 'max-length' },
    ]);
    expect(delivered).toEqual(['d3', 'd4', 'd5']);
  });

  it('queueDepth counts the messages waiting for a consumer', async () => {
    const bus = await open();
    expect(await bus.queueDepth(MessageName.RunJob)).toBe(0);
    await bus.publish(MessageName.RunJob, runJob('a'));
    await bus.publish(MessageName.RunJob, runJob('b'));
    await eventually('depth 2', async () => (await bus.queueDepth(MessageName.RunJob)) === 2);
    expect(await bus.queueDepth(MessageName.DeliverWebhook)).toBe(0);
  });

  it('messages of one name never reach consumers of another', async () => {
    const bus = await open();
    const jobs: string[] = [];
    await bus.consume(MessageName.RunJob, async (payload) => {
      jobs.push(payload.jobId);
    });
    await bus.publish(MessageName.DeliverWebhook, deliverWebhook('w'));
    await bus.publish(MessageName.RunJob, runJob('j'));
    await eventually('the job', () => jobs.length === 1);
    expect(jobs).toEqual(['j']);
    expect(await bus.queueDepth(MessageName.DeliverWebhook)).toBe(1);
  });

  it('ping resolves while open; after close every operation fails with MessageBusUnavailableError', async () => {
    const bus = await open();
    await expect(bus.ping()).resolves.toBeUndefined();
    await bus.close();
    await expect(bus.ping()).rejects.toBeInstanceOf(MessageBusUnavailableError);
    await expect(bus.publish(MessageName.RunJob, runJob('late'))).rejects.toBeInstanceOf(MessageBusUnavailableError);
    await expect(bus.request(MessageName.RenderDocument, renderDocument('late'), { timeoutMs: 100 })).rejects.toBeInstanceOf(
      MessageBusUnavailableError,
    );
    await expect(bus.consume(MessageName.RunJob, async () => undefined)).rejects.toBeInstanceOf(MessageBusUnavailableError);
    await expect(bus.close()).resolves.toBeUndefined();
  });

  it('close fails a pending request at once and waits for the handlers in flight', async () => {
    const bus = await open();
    const release = deferred();
    const started = deferred();
    let finished = false;
    await bus.consume(MessageName.RunJob, async () => {
      started.resolve();
      await release.promise;
      finished = true;
    });
    await bus.publish(MessageName.RunJob, runJob(randomUUID()));
    await started.promise;
    const pending = bus.request(MessageName.RenderDocument, renderDocument('pending'), { timeoutMs: 10_000 });
    const closing = bus.close();
    await expect(pending).rejects.toBeInstanceOf(MessageBusUnavailableError);
    await sleep(50);
    expect(finished).toBe(false);
    release.resolve();
    await closing;
    expect(finished).toBe(true);
  });
}
