import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export type DataSourceOptions = {
  /** Maximum connections of this process's pool. Default 10. */
  poolSize?: number;
  /**
   * Milliseconds an idle pooled connection stays open (0: until the pool ends). Default 300,000: pg-pool's own
   * 10 s closed a bursty process's connections between bursts, and each new one cost PostgreSQL a backend start and
   * every prepared statement again (issue 23).
   */
  poolIdleMs?: number;
  /** Log every SQL statement. Default false. */
  logQueries?: boolean;
  /** Reported to PostgreSQL as application_name (visible in pg_stat_activity). */
  applicationName?: string;
};

/** How long an idle pooled connection stays open unless DB_POOL_IDLE_MS says otherwise. */
export const DEFAULT_POOL_IDLE_MS = 300_000;

/** The table where TypeORM records applied migrations. */
export const MIGRATIONS_TABLE = 'schema_migrations';

/**
 * A TypeORM data source for our schema (not yet connected: call `initialize()` or use `connectDataSource`).
 * The schema is owned by the migrations alone: `synchronize` is always off.
 */
export function createDataSource(url: string, options: DataSourceOptions = {}): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: options.logQueries ?? false,
    applicationName: options.applicationName ?? 'docrender',
    extra: { max: options.poolSize ?? 10, idleTimeoutMillis: options.poolIdleMs ?? DEFAULT_POOL_IDLE_MS },
  });
}

/** createDataSource + initialize. */
export async function connectDataSource(url: string, options: DataSourceOptions = {}): Promise<DataSource> {
  return createDataSource(url, options).initialize();
}

/**
 * Applies every pending migration (each in its own transaction) and returns the names applied.
 * Several processes may call this at once (the service and the admin CLI): an advisory lock makes them take turns.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  return withMigrationLock(dataSource, async () => {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  });
}

/** Reverts the most recent migration, or with `all` every applied one (down to an empty schema). Returns how many. */
export async function revertMigrations(dataSource: DataSource, options: { all?: boolean } = {}): Promise<number> {
  return withMigrationLock(dataSource, async () => {
    let reverted = 0;
    do {
      const before = await appliedMigrationCount(dataSource);
      if (before === 0) break;
      await dataSource.undoLastMigration({ transaction: 'each' });
      reverted++;
    } while (options.all);
    return reverted;
  });
}

/** Names of the migrations that are not yet applied. */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const appliedCount = await appliedMigrationCount(dataSource);
  return dataSource.migrations.slice(appliedCount).map((m) => m.name ?? m.constructor.name);
}

async function appliedMigrationCount(dataSource: DataSource): Promise<number> {
  const [{ exists }] = (await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS exists`, [MIGRATIONS_TABLE])) as { exists: boolean }[];
  if (!exists) return 0;
  const [{ count }] = (await dataSource.query(`SELECT count(*)::int AS count FROM ${MIGRATIONS_TABLE}`)) as { count: number }[];
  return count;
}

/** An arbitrary constant identifying "schema migration in progress" for pg_advisory_lock. */
const MIGRATION_LOCK_KEY = 7_441_902_113;

async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}
