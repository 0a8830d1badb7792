import { ConfigError, databaseSettings, developmentSecretsSettings, messagingSettings, Settings, SettingsSpec, storageSettings, tracingSettings } from '@docrender/config';
import { BlobStore, createBlobStore } from '@docrender/storage';
import { createMessageBus, MessageBus } from '@docrender/messaging';
import { Database } from '@docrender/persistence';
import type { Logger } from '@docrender/observability';
import { platformSettings } from './platform.settings';

/** What every app is given: the message bus and the blob store. */
export type Connections = {
  bus: MessageBus;
  blobStore: BlobStore;
  /** Closes what was connected (the bus, and the database when there is one). */
  close(): Promise<void>;
};

/**
 * The connections plus PostgreSQL: what an app whose service definition asks for the database is given.
 * Built once per process: by the shared bootstrap from the process's settings, or by the one-process launcher,
 * which hands the same instance to all four app modules.
 */
export type Infrastructure = Connections & {
  /** PostgreSQL as apps reach it: repositories, one transaction helper, readiness — never the raw connection. */
  database: Database;
};

export const hasDatabase = (connections: Connections): connections is Infrastructure => 'database' in connections;

/** The settings the platform itself reads in every process (plus DATABASE_URL and friends when it opens the database). */
export function platformSpecs(database: boolean): SettingsSpec[] {
  return [messagingSettings, storageSettings, platformSettings, developmentSecretsSettings, tracingSettings, ...(database ? [databaseSettings] : [])];
}

type ConnectCommon = {
  /** Reported to PostgreSQL as application_name and used in log lines. */
  service: string;
  logger: Logger;
  /** The process's settings, holding platformSpecs(database). */
  settings: Settings;
  /** Refuse the in-process bus (AMQP_URL unset): an app that takes messages, on its own, would never get any. */
  requireBroker?: boolean;
  /**
   * Wait for RabbitMQ at start (up to AMQP_CONNECT_TIMEOUT_MS, then fail; the default). False: start without it and
   * connect in the background (the gateway, so that a restart during a RabbitMQ outage keeps serving reads).
   */
  waitForBroker?: boolean;
};

export type ConnectOptions = ConnectCommon &
  (
    | { database: false }
    | {
        database: true;
        /** Overrides DATABASE_URL (the one-process launcher passes the embedded server's URL). */
        databaseUrl?: string;
      }
  );

/**
 * Connects RabbitMQ (AMQP_URL; the in-process bus otherwise) and the blob store (S3_ENDPOINT; the filesystem
 * otherwise), and, when asked for, PostgreSQL (DATABASE_URL is then required), applying pending migrations unless
 * DB_RUN_MIGRATIONS=false. A bad setting throws a ConfigError naming the variable.
 */
export async function connectInfrastructure(options: ConnectCommon & { database: false }): Promise<Connections>;
export async function connectInfrastructure(options: ConnectCommon & { database: true; databaseUrl?: string }): Promise<Infrastructure>;
export async function connectInfrastructure(options: ConnectOptions): Promise<Connections | Infrastructure>;
export async function connectInfrastructure(options: ConnectOptions): Promise<Connections | Infrastructure> {
  const { settings, logger: log } = options;
  const messaging = settings.get(messagingSettings);
  const storage = settings.get(storageSettings);
  if (options.requireBroker && messaging.amqpUrl === undefined) {
    throw new ConfigError('AMQP_URL', `must be set for ${options.service} on its own (only the one-process mode, npm start, uses the in-process bus)`);
  }
  const described = {
    messageBus: messaging.amqpUrl ? redactUrl(messaging.amqpUrl) : 'in-process',
    blobStore: storage.s3Endpoint ? `${storage.s3Endpoint}/${storage.s3Bucket}` : `filesystem ${storage.blobDir}`,
  };
  if (!options.database) {
    const blobStore = await createBlobStore(storage);
    const bus = await createMessageBus(messaging, log, { waitForConnection: options.waitForBroker ?? true });
    log.info('infrastructure connected', { database: 'none', ...described });
    return { bus, blobStore, close: () => bus.close() };
  }

  const db = settings.get(databaseSettings);
  const url = options.databaseUrl ?? db.url;
  if (!url) {
    throw new ConfigError('DATABASE_URL', `must be set for ${options.service} (only the one-process mode, npm start, embeds PostgreSQL)`);
  }
  const database = await Database.open({
    url,
    poolSize: db.poolSize,
    poolIdleMs: db.poolIdleMs,
    logQueries: db.logQueries,
    applicationName: options.service,
    apiKeyPepper: db.apiKeyPepper,
    migrate: false,
  });
  try {
    if (settings.get(platformSettings).runMigrations) {
      const applied = await database.migrate();
      if (applied.length > 0) log.info('database migrations applied', { migrations: applied.join(', ') });
    }
    const blobStore = await createBlobStore(storage);
    const bus = await createMessageBus(messaging, log, { waitForConnection: options.waitForBroker ?? true });
    log.info('infrastructure connected', { database: redactUrl(url), ...described });
    return {
      database,
      bus,
      blobStore,
      async close() {
        await bus.close();
        await database.close();
      },
    };
  } catch (err) {
    await database.close();
    throw err;
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}
