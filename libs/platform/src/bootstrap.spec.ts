import { Inject, Injectable, Module, OnApplicationBootstrap } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadSettings, messagingSettings } from '@docrender/config';
import { MessageName } from '@docrender/contracts';
import { InProcessMessageBus, MESSAGE_BUS, type MessageBus, UnhandledSubscriptionError } from '@docrender/messaging';
import { JsonLogger, type Logger } from '@docrender/observability';
import { Database } from '@docrender/persistence';
import { FilesystemBlobStore } from '@docrender/storage';
import { createServiceApp, NestLogAdapter, type ServiceDefinition, serviceSettings, startService } from './bootstrap';
import { LOGGER } from './infrastructure/infrastructure.module';

const quiet = new JsonLogger('bootstrap-test', 'error', {}, () => undefined);

/** A provider of the app under test: it takes its logger and its bus the way every app's services do. */
@Injectable()
class Greeter {
  constructor(
    @Inject(LOGGER) readonly logger: Logger,
    @Inject(MESSAGE_BUS) readonly bus: MessageBus,
  ) {}
}

@Module({ providers: [Greeter] })
class GreeterModule {}

const withoutDatabase: ServiceDefinition<false> = {
  name: 'api-gateway',
  database: false,
  settings: [],
  module: () => ({ module: GreeterModule }),
  port: () => 0,
};

describe('the shared bootstrap (issue 19: one way to start a service)', () => {
  let blobDir: string;
  beforeEach(async () => {
    blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-bootstrap-'));
  });
  afterEach(async () => {
    await rm(blobDir, { recursive: true, force: true });
  });

  it('starts a definition that asks for no database without one: no DATABASE_URL needed, none connected', async () => {
    const service = await startService(withoutDatabase, { BLOB_DIR: blobDir }, quiet);
    try {
      expect(service.infrastructure).not.toHaveProperty('database');
      expect(service.port).toBeGreaterThan(0);
      const greeter = service.app.get(Greeter);
      expect(greeter.logger).toBe(quiet);
      expect(() => service.app.get(Database, { strict: false })).toThrow();
    } finally {
      await service.stop();
    }
  });

  it('connects PostgreSQL only for a definition that asks for it (the same environment then refuses to start)', async () => {
    const withDatabase: ServiceDefinition<true> = { ...withoutDatabase, database: true, module: () => ({ module: GreeterModule }) };
    await expect(startService(withDatabase, { BLOB_DIR: blobDir, ALLOW_DEVELOPMENT_SECRETS: 'true' }, quiet)).rejects.toThrow(
      new ConfigError('DATABASE_URL', 'must be set for api-gateway (only the one-process mode, npm start, embeds PostgreSQL)'),
    );
  });

  it('an app that takes messages needs RabbitMQ on its own (AMQP_URL), and reads only the development secrets it uses', async () => {
    const consumer: ServiceDefinition<false> = { ...withoutDatabase, name: 'render-service' };
    await expect(startService(consumer, { BLOB_DIR: blobDir }, quiet)).rejects.toThrow(
      new ConfigError('AMQP_URL', 'must be set for render-service on its own (only the one-process mode, npm start, uses the in-process bus)'),
    );
    // no database, no view links: the public development secrets are none of its business (no ALLOW_DEVELOPMENT_SECRETS)
    await expect(startService(withoutDatabase, { BLOB_DIR: blobDir }, quiet).then((s) => s.stop())).resolves.toBeUndefined();
  });

  describe('the handler check (SUBSCRIPTIONS) every app goes through', () => {
    const handledBy = (name: ServiceDefinition['name'], messages: MessageName[]): { definition: ServiceDefinition<false>; handled: unknown[] } => {
      const handled: unknown[] = [];
      @Injectable()
      class Consumer implements OnApplicationBootstrap {
        constructor(@Inject(MESSAGE_BUS) private readonly bus: MessageBus) {}
        async onApplicationBootstrap(): Promise<void> {
          for (const message of messages) {
            await this.bus.consume(message, async (payload) => void handled.push(payload));
          }
        }
      }
      @Module({ providers: [Consumer] })
      class ConsumerModule {}
      return { definition: { ...withoutDatabase, name, module: () => ({ module: ConsumerModule }) }, handled };
    };

    it('refuses to start an app whose consumers handle another app’s message, before it takes any', async () => {
      const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), quiet);
      const blobStore = await FilesystemBlobStore.open(blobDir);
      await bus.publish(MessageName.RunJob, { jobId: 'waiting' });
      const { definition, handled } = handledBy('webhook-dispatcher', [MessageName.DeliverWebhook, MessageName.RunJob]);
      const app = await createServiceApp(definition, { bus, blobStore, close: () => bus.close() }, quiet, serviceSettings([definition], {}));
      try {
        await expect(app.init()).rejects.toThrow(new UnhandledSubscriptionError('webhook-dispatcher', [], [MessageName.RunJob]));
        expect(handled).toEqual([]);
        expect(await bus.queueDepth(MessageName.RunJob)).toBe(1);
      } finally {
        await app.close();
        await bus.close();
      }
    });

    it('refuses to start an app with a subscribed message left without a handler; subscribes a complete one', async () => {
      const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), quiet);
      const blobStore = await FilesystemBlobStore.open(blobDir);
      const infrastructure = { bus, blobStore, close: () => bus.close() };
      const missing = handledBy('job-worker', []);
      const refused = await createServiceApp(missing.definition, infrastructure, quiet, serviceSettings([missing.definition], {}));
      await expect(refused.init()).rejects.toThrow('job-worker: no handler for job.run');
      await refused.close();

      const complete = handledBy('job-worker', [MessageName.RunJob]);
      const app = await createServiceApp(complete.definition, infrastructure, quiet, serviceSettings([complete.definition], {}));
      try {
        await app.init();
        await bus.publish(MessageName.RunJob, { jobId: 'taken' });
        for (let i = 0; i < 100 && complete.handled.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
        expect(complete.handled).toEqual([{ jobId: 'taken' }]);
      } finally {
        await app.close();
        await bus.close();
      }
    });
  });
});

describe('NestLogAdapter (issue 37 item 4: the start banner within the first screen)', () => {
  it("writes Nest's start-up narration at debug and its other messages at their own level", () => {
    const lines: string[] = [];
    const adapter = new NestLogAdapter(new JsonLogger('nest-log-test', 'info', {}, (line) => lines.push(line)));
    adapter.log('Mapped {/v1/render, POST} route', 'RouterExplorer');
    adapter.log('RenderModule dependencies initialized', 'InstanceLoader');
    adapter.log('Nest application successfully started', 'NestApplication');
    expect(lines).toEqual([]);
    adapter.log('something else Nest says', 'SomeService');
    adapter.warn('a warning', 'RouterExplorer');
    expect(lines.map((line) => (JSON.parse(line) as { level: string; message: string }).level)).toEqual(['info', 'warn']);
  });
});
