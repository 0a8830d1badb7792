import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadSettings, messagingSettings, type MessagingSettings } from '@docrender/config';
import { MessageName } from '@docrender/contracts';
import { createRabbitVhost, type RabbitVhost } from '@docrender/testing';
import { connect } from 'amqplib';
import { MessageBusUnavailableError, RequestTimeoutError, type DeliveryContext } from '../message-bus';
import { createMessageBus } from '../message-bus.factory';
import { describeMessageBusBehaviour } from '../testing/message-bus.behaviour';
import { capturingLogger, deferred, deliverWebhook, eventually, renderDocument, renderedResult, runJob } from '../testing/message-fixtures';
import { AmqpMessageBus } from './amqp-message-bus';
import { AmqpTopology } from './amqp-topology';

describe('AmqpMessageBus against RabbitMQ', () => {
  let vhost: RabbitVhost;
  const quiet = capturingLogger().logger;

  beforeAll(async () => {
    vhost = await createRabbitVhost('messaging');
  });

  afterAll(async () => {
    await vhost.delete();
  });

  /** Settings on this file's vhost with queues of their own (a fresh prefix) unless the prefix is given. */
  const settingsFor = (overrides: Partial<MessagingSettings> = {}): MessagingSettings => ({
    ...loadSettings(messagingSettings, {}),
    amqpUrl: vhost.url,
    queuePrefix: `t${randomBytes(4).toString('hex')}.`,
    // a bound, not a speed: on a busy machine connecting and declaring the topology took over 5 s (CI, 2026-11-29);
    // the test of the bound itself sets its own 500 ms against a closed port
    connectTimeoutMs: 30_000,
    publishWaitMs: 5_000,
    ...overrides,
  });

  describe('the MessageBus contract', () => {
    describeMessageBusBehaviour((overrides) => AmqpMessageBus.connect(settingsFor(overrides), quiet));
  });

  const buses: AmqpMessageBus[] = [];
  const openBus = async (settings: MessagingSettings, logger = quiet): Promise<AmqpMessageBus> => {
    const bus = await AmqpMessageBus.connect(settings, logger);
    buses.push(bus);
    return bus;
  };

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
  });

  it('createMessageBus connects to RabbitMQ when AMQP_URL is set', async () => {
    const bus = await createMessageBus(settingsFor(), quiet);
    try {
      expect(bus).toBeInstanceOf(AmqpMessageBus);
      await expect(bus.ping()).resolves.toBeUndefined();
    } finally {
      await bus.close();
    }
  });

  it('start-up fails within AMQP_CONNECT_TIMEOUT_MS with MessageBusUnavailableError naming the broker, never its password', async () => {
    const settings = settingsFor({ amqpUrl: 'amqp://guest:secret-password@127.0.0.1:1/', connectTimeoutMs: 500 });
    const connecting = AmqpMessageBus.connect(settings, quiet);
    await expect(connecting).rejects.toBeInstanceOf(MessageBusUnavailableError);
    await expect(connecting).rejects.toThrow(/127\.0\.0\.1:1.*not reachable within 500 ms: .*ECONNREFUSED/);
    await expect(connecting).rejects.not.toThrow(/secret-password/);
  });

  it('several instances declare the same topology at once (declaration is idempotent)', async () => {
    const settings = settingsFor();
    const [first, second] = await Promise.all([openBus(settings), openBus(settings)]);
    const received: string[] = [];
    await second.consume(MessageName.RunJob, async (payload) => {
      received.push(payload.jobId);
    });
    await first.publish(MessageName.RunJob, runJob('shared'));
    await eventually('the delivery', () => received.length === 1);
  });

  it('a consumer process that dies returns its unacknowledged message to the queue for another consumer', async () => {
    const settings = settingsFor();
    const survivor = await openBus(settings);
    const child = spawnAbandoningConsumer(settings);
    try {
      await child.says('consuming');
      await survivor.publish(MessageName.RunJob, runJob('orphan'));
      await child.says('received orphan');
      child.process.kill('SIGKILL');

      const redelivered = deferred<DeliveryContext & { jobId: string }>();
      await survivor.consume(MessageName.RunJob, async (payload, context) => {
        redelivered.resolve({ jobId: payload.jobId, ...context });
      });
      expect(await redelivered.promise).toMatchObject({ jobId: 'orphan', redeliveries: 1 });
    } finally {
      child.process.kill('SIGKILL');
    }
  }, 30_000);

  it('6.3.2: a delayed message survives closing the bus that published it and reaches a bus opened later', async () => {
    const settings = settingsFor();
    const publisher = await AmqpMessageBus.connect(settings, quiet);
    const published = Date.now();
    await publisher.publish(MessageName.DeliverWebhook, deliverWebhook('pending-retry', 2), { delayMs: 800 });
    await publisher.close();

    const dispatcher = await openBus(settings);
    const arrived = deferred<{ deliveryId: string; attempt: number; afterMs: number }>();
    await dispatcher.consume(MessageName.DeliverWebhook, async (payload) => {
      arrived.resolve({ deliveryId: payload.deliveryId, attempt: payload.attempt, afterMs: Date.now() - published });
    });
    const arrival = await arrived.promise;
    expect(arrival).toMatchObject({ deliveryId: 'pending-retry', attempt: 2 });
    expect(arrival.afterMs).toBeGreaterThanOrEqual(790);
  });

  it('an undecodable message is dead-lettered at once instead of being redelivered', async () => {
    const settings = settingsFor();
    const topology = new AmqpTopology(settings);
    const bus = await openBus(settings);
    const handled: string[] = [];
    await bus.consume(MessageName.RunJob, async (payload) => {
      handled.push(payload.jobId);
    });
    const raw = await connect(vhost.url);
    try {
      const channel = await raw.createConfirmChannel();
      channel.sendToQueue(topology.workQueue(MessageName.RunJob), Buffer.from('not json'), { persistent: true });
      await channel.waitForConfirms();
      await eventually('the dead letter', async () => (await channel.checkQueue(topology.deadLetterQueue(MessageName.RunJob))).messageCount === 1);
      expect(handled).toEqual([]);
    } finally {
      await raw.close();
    }
  });

  it('a publish for a queue deleted behind the bus fails instead of vanishing (mandatory routing)', async () => {
    const settings = settingsFor();
    const topology = new AmqpTopology(settings);
    const bus = await openBus(settings);
    const raw = await connect(vhost.url);
    try {
      const channel = await raw.createChannel();
      await channel.deleteQueue(topology.workQueue(MessageName.RunJob));
    } finally {
      await raw.close();
    }
    await expect(bus.publish(MessageName.RunJob, runJob('nowhere'))).rejects.toThrow(`RabbitMQ has no queue ${topology.workQueue(MessageName.RunJob)}`);
  });

  it('a channel error fails that publish only; the bus rebuilds its session and keeps working', async () => {
    const settings = settingsFor();
    const topology = new AmqpTopology(settings);
    const log = capturingLogger();
    const bus = await openBus(settings, log.logger);
    const raw = await connect(vhost.url);
    try {
      // A delay queue declared by someone else with other arguments: declaring it again is a channel error (406).
      await (await raw.createChannel()).assertQueue(topology.delayQueue(MessageName.DeliverWebhook, 1234), { durable: true });
    } finally {
      await raw.close();
    }
    await expect(bus.publish(MessageName.DeliverWebhook, deliverWebhook('clash'), { delayMs: 1234 })).rejects.toThrow(/PRECONDITION_FAILED/);
    const received: string[] = [];
    await bus.consume(MessageName.DeliverWebhook, async (payload) => {
      received.push(payload.deliveryId);
    });
    await bus.publish(MessageName.DeliverWebhook, deliverWebhook('fine'));
    await eventually('the next message', () => received.includes('fine'));
    expect(log.messages()).toContain('the publish channel closed; reconnecting to RabbitMQ');
  });

  it('a reply to a requester that has gone away is dropped and the render consumer keeps serving', async () => {
    const settings = settingsFor();
    const renderService = await openBus(settings);
    const handling = deferred();
    const release = deferred();
    await renderService.consume(MessageName.RenderDocument, async (command) => {
      if (command.requestId === 'gone') {
        handling.resolve();
        await release.promise;
      }
      return renderedResult(command.requestId);
    });
    const gateway = await AmqpMessageBus.connect(settings, quiet);
    const abandoned = gateway.request(MessageName.RenderDocument, renderDocument('gone'), { timeoutMs: 10_000 });
    await handling.promise;
    await Promise.all([expect(abandoned).rejects.toBeInstanceOf(MessageBusUnavailableError), gateway.close()]);
    release.resolve();

    const nextGateway = await openBus(settings);
    await expect(nextGateway.request(MessageName.RenderDocument, renderDocument('next'), { timeoutMs: 5_000 })).resolves.toEqual(
      renderedResult('next'),
    );
  });

  it('a connection that drops under a running handler: the handler is told its delivery is abandoned, its result is discarded and the redelivery alone answers', async () => {
    const rabbitmqctl = async (...args: string[]): Promise<string> => (await promisify(execFile)('rabbitmqctl', args)).stdout;
    const connectionsOfVhost = async (): Promise<string[]> =>
      (await rabbitmqctl('list_connections', '-q', '--no-table-headers', 'pid', 'vhost'))
        .split('\n')
        .map((line) => line.split('\t'))
        .filter(([, name]) => name === vhost.name)
        .map(([pid]) => pid);
    const settings = settingsFor();
    const gateway = await openBus(settings);
    const others = await connectionsOfVhost();
    const log = capturingLogger();
    const renderService = await openBus(settings, log.logger);
    const [renderServiceConnection, ...more] = (await connectionsOfVhost()).filter((pid) => !others.includes(pid));
    expect(more).toEqual([]);

    const deliveries: DeliveryContext[] = [];
    const handling = deferred();
    await renderService.consume(MessageName.RenderDocument, async (command, context) => {
      deliveries.push(context);
      if (deliveries.length > 1) return renderedResult('redelivery');
      handling.resolve();
      await new Promise((resolve) => context.abandoned.addEventListener('abort', resolve));
      return renderedResult('abandoned delivery');
    });
    const reply = gateway.request(MessageName.RenderDocument, renderDocument('dropped'), { timeoutMs: 20_000 });
    await handling.promise;
    await rabbitmqctl('close_connection', renderServiceConnection, 'test: the render service loses its connection mid-render');

    await expect(reply).resolves.toEqual(renderedResult('redelivery'));
    expect(deliveries.map((d) => ({ redeliveries: d.redeliveries, abandoned: d.abandoned.aborted }))).toEqual([
      { redeliveries: 0, abandoned: true },
      { redeliveries: 1, abandoned: false },
    ]);
    expect(log.messages()).toContain('delivery abandoned: its channel closed while the handler ran; RabbitMQ delivers the message again');
  });

  it('request times out when the render queue has no consumer', async () => {
    const bus = await openBus(settingsFor());
    await expect(bus.request(MessageName.RenderDocument, renderDocument('nobody'), { timeoutMs: 300 })).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it('queueDepth of the render queue shows waiting sync renders (the autoscaling signal)', async () => {
    const bus = await openBus(settingsFor());
    // the renders wait (nothing consumes them) until they time out; long enough for a loaded machine to see both
    const requests = [1, 2].map((i) => bus.request(MessageName.RenderDocument, renderDocument(`waiting-${i}`), { timeoutMs: 3_000 }));
    await eventually('two waiting renders', async () => (await bus.queueDepth(MessageName.RenderDocument)) === 2);
    await Promise.all(requests.map((request) => expect(request).rejects.toBeInstanceOf(RequestTimeoutError)));
  });
});

type ChildConsumer = { process: ChildProcessWithoutNullStreams; says(line: string): Promise<void> };

/** Starts abandoning-consumer.child.js: it consumes job.run with the real AmqpMessageBus and never acknowledges. */
function spawnAbandoningConsumer(settings: MessagingSettings): ChildConsumer {
  const child = spawn(process.execPath, [path.join(__dirname, '../testing/abandoning-consumer.child.js')], {
    env: { ...process.env, CHILD_MESSAGING_SETTINGS: JSON.stringify(settings) },
  });
  let output = '';
  let errors = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return {
    process: child,
    says: async (line) => {
      try {
        await eventually(`the child to say "${line}"`, () => output.split('\n').includes(line), 20_000);
      } catch (error) {
        throw new Error(`${(error as Error).message}; child stderr: ${errors}`);
      }
    },
  };
}
