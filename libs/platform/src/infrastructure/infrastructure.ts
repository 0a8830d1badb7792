import { databaseSettings, loadSettings, messagingSettings, storageSettings } from '@docrender/config';
import { BlobStore, createBlobStore } from '@docrender/storage';
import { createMessageBus, MessageBus } from '@docrender/messaging';
import { connectDataSource, runMigrations } from '@docrender/persistence';
import type { Logger } from '@docrender/observability';
import type { DataSource } from 'typeorm';
import { platformSettings } from './platform.settings';

/**
 * The three connections every app shares: PostgreSQL, the message bus and the blob store.
 * Built once per process: by an app's main.ts from its settings, or by the one-process launcher,
 * which hands the same instance to all four app modules.
 */
export type Infrastructure = {
  dataSource: DataSource;
  bus: MessageBus;
  blobStore: BlobStore;
  /** API keys are stored under HMAC-SHA256 with this pepper. */
  apiKeyPepper: string;
  close(): Promise<void>;
};

export type ConnectOptions = {
  /** Reported to PostgreSQL as application_name and used in log lines. */
  service: string;
  logger: Logger;
  env?: NodeJS.ProcessEnv;
  /** Overrides DATABASE_URL (the one-process launcher passes the embedded server's URL). */
  databaseUrl?: string;
};

/**
 * Connects to the configured PostgreSQL (DATABASE_URL is required for a standalone app), RabbitMQ (AMQP_URL; the
 * in-process bus otherwise) and blob store (S3_ENDPOINT; the filesystem otherwise), and applies pending migrations
 * unless DB_RUN_MIGRATIONS=false. A bad setting throws a ConfigError naming the variable.
 */
export async function connectInfrastructure(options: ConnectOptions): Promise<Infrastructure> {
  const env = options.env ?? process.env;
  const db = loadSettings(databaseSettings, env);
  const messaging = loadSettings(messagingSettings, env);
  const storage = loadSettings(storageSettings, env);
  const platform = loadSettings(platformSettings, env);
  const url = options.databaseUrl ?? db.url;
  if (!url) {
    throw new Error(`DATABASE_URL: must be set for ${options.service} (only the one-process mode, npm start, embeds PostgreSQL)`);
  }
  const log = options.logger;
  const dataSource = await connectDataSource(url, { poolSize: db.poolSize, logQueries: db.logQueries, applicationName: options.service });
  try {
    if (platform.runMigrations) {
      const applied = await runMigrations(dataSource);
      if (applied.length > 0) log.info('database migrations applied', { migrations: applied.join(', ') });
    }
    const blobStore = await createBlobStore(storage);
    const bus = await createMessageBus(messaging, log);
    log.info('infrastructure connected', {
      database: redactUrl(url),
      messageBus: messaging.amqpUrl ? redactUrl(messaging.amqpUrl) : 'in-process',
      blobStore: storage.s3Endpoint ? `${storage.s3Endpoint}/${storage.s3Bucket}` : `filesystem ${storage.blobDir}`,
    });
    return {
      dataSource,
      bus,
      blobStore,
      apiKeyPepper: db.apiKeyPepper,
      async close() {
        await bus.close();
        await dataSource.destroy();
      },
    };
  } catch (err) {
    await dataSource.destroy();
    throw err;
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}
