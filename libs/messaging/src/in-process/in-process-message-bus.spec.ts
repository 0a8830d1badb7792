import { loadSettings, messagingSettings, type MessagingSettings } from '@docrender/config';
import { MessageName } from '@docrender/contracts';
import { createMessageBus } from '../message-bus.factory';
import { capturingLogger, eventually, runJob, deliverWebhook } from '../testing/message-fixtures';
import { describeMessageBusBehaviour } from '../testing/message-bus.behaviour';
import { InProcessMessageBus } from './in-process-message-bus';

const settings = (overrides: Partial<MessagingSettings> = {}): MessagingSettings => ({ ...loadSettings(messagingSettings, {}), ...overrides });

describe('InProcessMessageBus', () => {
  describeMessageBusBehaviour(async (overrides) => new InProcessMessageBus(settings(overrides), capturingLogger().logger));

  it('createMessageBus picks the in-process bus when AMQP_URL is unset', async () => {
    const log = capturingLogger();
    const bus = await createMessageBus(settings(), log.logger);
    expect(bus).toBeInstanceOf(InProcessMessageBus);
    expect(log.messages()).toContain('AMQP_URL is not set: using the in-process message bus (messages do not survive a restart)');
    await bus.close();
  });

  it('serves competing consumers round-robin', async () => {
    const bus = new InProcessMessageBus(settings(), capturingLogger().logger);
    const order: string[] = [];
    await bus.consume(MessageName.RunJob, async () => {
      order.push('a');
    }, { prefetch: 1 });
    await bus.consume(MessageName.RunJob, async () => {
      order.push('b');
    }, { prefetch: 1 });
    for (let i = 0; i < 4; i++) await bus.publish(MessageName.RunJob, runJob(String(i)));
    await eventually('four deliveries', () => order.length === 4);
    expect(order.filter((who) => who === 'a')).toHaveLength(2);
    await bus.close();
  });

  it('a handler mutating its payload does not change what a redelivery sees', async () => {
    const bus = new InProcessMessageBus(settings(), capturingLogger().logger);
    const seen: string[] = [];
    await bus.consume(MessageName.RunJob, async (payload, context) => {
      seen.push(payload.jobId);
      payload.jobId = 'mutated';
      if (context.redeliveries === 0) throw new Error('again');
    });
    await bus.publish(MessageName.RunJob, runJob('original'));
    await eventually('the redelivery', () => seen.length === 2);
    expect(seen).toEqual(['original', 'original']);
    await bus.close();
  });

  it('is not durable: closing drops delayed messages and says so in the log', async () => {
    jest.useFakeTimers();
    try {
      const log = capturingLogger();
      const bus = new InProcessMessageBus(settings(), log.logger);
      const delivered: number[] = [];
      await bus.consume(MessageName.DeliverWebhook, async (payload) => {
        delivered.push(payload.attempt);
      });
      await bus.publish(MessageName.DeliverWebhook, deliverWebhook('retry', 2), { delayMs: 50 });
      await bus.close();
      // the message's delay passes on the fake clock: nothing is left to fire, and nothing was delivered
      await jest.advanceTimersByTimeAsync(100);
      expect(jest.getTimerCount()).toBe(0);
      expect(delivered).toEqual([]);
      expect(log.messages()).toContain('in-process bus closed with delayed messages pending; they are lost');
    } finally {
      jest.useRealTimers();
    }
  });

  it('logs a failed handler as a warning and the last failure as an error', async () => {
    const log = capturingLogger();
    const bus = new InProcessMessageBus(settings({ deliveryLimit: 1 }), log.logger);
    await bus.consume(MessageName.RunJob, async () => {
      throw new Error('broken');
    });
    await bus.publish(MessageName.RunJob, runJob('x'));
    await eventually('the final failure', () => log.messages().includes('handler failed on the last allowed delivery; the message is dead-lettered'));
    expect(log.messages()).toContain('handler failed; the message returns to the queue');
    await bus.close();
  });
});
