import { loadSettings, messagingSettings, storageSettings } from '@docrender/config';
import { createMessageBus, type MessageBus } from '@docrender/messaging';
import { JsonLogger, type Logger } from '@docrender/observability';
import type { Infrastructure } from '@docrender/platform';
import { createBlobStore, type BlobStore } from '@docrender/storage';
import { createTestDatabase, TEST_API_KEY_PEPPER, type TestDatabase } from '../postgres/test-database';
import { createRabbitVhost, type RabbitVhost } from '../rabbitmq/rabbitmq-vhost';
import { startS3Server, type S3TestServer } from '../s3/s3-server';

/** A fresh PostgreSQL database, RabbitMQ vhost and S3 server for one test file, and the environment that selects them. */
export type TestInfrastructure = {
  db: TestDatabase;
  vhost: RabbitVhost;
  s3: S3TestServer;
  blobStore: BlobStore;
  /** DATABASE_URL, AMQP_URL, S3_* and API_KEY_PEPPER for these resources (for in-process apps and child processes). */
  env: Record<string, string>;
  /** A message bus on the vhost, with messaging settings from `env` and `overrides`. */
  connectBus(overrides?: Record<string, string>): Promise<MessageBus>;
  /** The Infrastructure an app module is built on, sharing the test's database connection. */
  infrastructureWith(bus: MessageBus): Infrastructure;
  teardown(): Promise<void>;
};

/** A logger that writes nothing unless DEBUG_TEST_LOGS is set (then everything from debug up). */
export function testLogger(service: string): Logger {
  return process.env.DEBUG_TEST_LOGS ? new JsonLogger(service, 'debug') : new JsonLogger(service, 'error', {}, () => undefined);
}

export async function startTestInfrastructure(label: string): Promise<TestInfrastructure> {
  const db = await createTestDatabase();
  const vhost = await createRabbitVhost(label);
  const s3 = await startS3Server();
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    AMQP_URL: vhost.url,
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY: s3.accessKey,
    S3_SECRET_KEY: s3.secretKey,
    S3_BUCKET: 'documents',
    API_KEY_PEPPER: TEST_API_KEY_PEPPER,
  };
  const blobStore = await createBlobStore(loadSettings(storageSettings, env));
  const buses: MessageBus[] = [];
  return {
    db,
    vhost,
    s3,
    blobStore,
    env,
    async connectBus(overrides = {}) {
      const bus = await createMessageBus(loadSettings(messagingSettings, { ...env, ...overrides }), testLogger('test-bus'));
      buses.push(bus);
      return bus;
    },
    infrastructureWith(bus) {
      return { database: db.database, bus, blobStore, close: () => bus.close() };
    },
    async teardown() {
      await Promise.allSettled(buses.map((b) => b.close()));
      await db.drop();
      await vhost.delete();
      await s3.stop();
    },
  };
}
