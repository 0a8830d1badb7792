import { randomBytes } from 'node:crypto';
import { loadSettings, messagingSettings, type MessagingSettings } from '@docrender/config';
import { MessageName } from '@docrender/contracts';
import { createRabbitVhost, restartRabbitMq, type RabbitVhost } from '@docrender/testing';
import { MessageBusUnavailableError } from '../message-bus';
import { capturingLogger, deliverWebhook, eventually, renderDocument, renderedResult, runJob } from '../testing/message-fixtures';
import { AmqpMessageBus } from './amqp-message-bus';

// Restarts the machine's RabbitMQ application (rabbitmqctl stop_app / start_app): every connection to it drops for a
// few seconds, so it is a serial spec: jest runs it after every other test file, alone.
describe('AmqpMessageBus when RabbitMQ restarts', () => {
  let vhost: RabbitVhost;

  beforeAll(async () => {
    vhost = await createRabbitVhost('reconnect');
  }, 180_000);

  afterAll(async () => {
    await vhost?.delete();
  });

  const settingsFor = (overrides: Partial<MessagingSettings> = {}): MessagingSettings => ({
    ...loadSettings(messagingSettings, {}),
    amqpUrl: vhost.url,
    queuePrefix: `t${randomBytes(4).toString('hex')}.`,
    reconnectMaxDelayMs: 500,
    publishWaitMs: 60_000,
    ...overrides,
  });

  it('reconnects, declares its topology again, resumes its consumers and loses no message', async () => {
    const settings = settingsFor();
    const log = capturingLogger();
    const bus = await AmqpMessageBus.connect(settings, log.logger);
    const impatient = await AmqpMessageBus.connect({ ...settings, publishWaitMs: 300 }, capturingLogger().logger);
    try {
      const jobs: string[] = [];
      await bus.consume(MessageName.RunJob, async (payload) => {
        jobs.push(payload.jobId);
      });
      await bus.consume(MessageName.RenderDocument, async (command) => renderedResult(command.requestId));
      await bus.publish(MessageName.RunJob, runJob('before'));
      await eventually('the first job', () => jobs.includes('before'));
      // Queued with no consumer: it must still be there after the restart.
      await bus.publish(MessageName.DeliverWebhook, deliverWebhook('queued-before'));

      let publishedDuringOutage: Promise<void> | undefined;
      await restartRabbitMq(async () => {
        await eventually('the bus to notice', () => log.messages().includes('RabbitMQ connection lost; reconnecting'));
        await expect(bus.ping()).rejects.toBeInstanceOf(MessageBusUnavailableError);
        publishedDuringOutage = bus.publish(MessageName.RunJob, runJob('during'));
        await expect(impatient.publish(MessageName.RunJob, runJob('impatient'))).rejects.toThrow(/RabbitMQ unavailable for 300 ms/);
      });

      await publishedDuringOutage;
      await eventually('the job published during the outage', () => jobs.includes('during'), 30_000);
      await expect(bus.ping()).resolves.toBeUndefined();
      expect(log.messages()).toContain('connected to RabbitMQ; topology declared, consumers resumed');

      await bus.publish(MessageName.RunJob, runJob('after'));
      await eventually('the job published after the restart', () => jobs.includes('after'));
      await expect(bus.request(MessageName.RenderDocument, renderDocument('after'), { timeoutMs: 5_000 })).resolves.toEqual(renderedResult('after'));

      const webhooks: string[] = [];
      await bus.consume(MessageName.DeliverWebhook, async (payload) => {
        webhooks.push(payload.deliveryId);
      });
      await eventually('the message queued before the restart', () => webhooks.includes('queued-before'));
      expect(jobs).not.toContain('impatient');
    } finally {
      await Promise.all([bus.close(), impatient.close()]);
    }
  }, 90_000);
});
