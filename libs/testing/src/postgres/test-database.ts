import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { Database } from '@docrender/persistence';
import { connectDataSource, runMigrations } from '@docrender/persistence/internal';

/** The server integration tests use (trust auth). Override with TEST_POSTGRES_URL. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The pepper tests store API keys under. */
export const TEST_API_KEY_PEPPER = 'test-pepper-not-secret';

export type TestDatabase = {
  /** URL of the new database, e.g. for a child process. */
  url: string;
  /** Connected, migrations applied. */
  dataSource: DataSource;
  /** Repositories over `dataSource`, keyed with TEST_API_KEY_PEPPER. */
  database: Database;
  name: string;
  /** Closes the connections and drops the database. */
  drop(): Promise<void>;
};

/**
 * Creates a fresh database `docrender_test_<random>` on the test server, applies the migrations (unless
 * `migrate: false`) and connects. Each test file makes its own and drops it in afterAll.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `docrender_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const dataSource = await connectDataSource(url.toString(), { poolSize: 10, applicationName: 'docrender-test' });
  if (options.migrate ?? true) await runMigrations(dataSource);
  return {
    url: url.toString(),
    dataSource,
    database: new Database(dataSource, { apiKeyPepper: TEST_API_KEY_PEPPER }),
    name,
    async drop() {
      if (dataSource.isInitialized) await dataSource.destroy();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
