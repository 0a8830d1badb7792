import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, TEST_API_KEY_PEPPER, type TestDatabase } from '../postgres/test-database';
import { appCommandJson } from './app-command';
import { ensureBuilt, freePort, REPO_ROOT, startAppProcess, type AppProcess } from './app-process';

/** A fresh API key of `environment` (spec part 1: the prefix decides it). */
export const newApiKey = (environment: 'test' | 'prod'): string => `service_${environment}_${randomBytes(18).toString('base64url')}`;

/** A fresh webhook signing secret. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(18).toString('base64url')}`;

export type SeededServiceOptions = {
  /** The seed file's content; `examples` is the repository's examples/ folder relative to the seed file. */
  seed(examples: string): unknown;
  /** Runs after the seed, before the service starts (e.g. more admin commands). */
  prepare?(admin: (args: string[]) => Promise<unknown>): Promise<void>;
  /** The service's entry point under dist/; by default the one-process service. */
  main?: string;
  /** Settings added to (or replacing) the fixture's. */
  env?: Record<string, string>;
  /** Prefix of the temporary folder (seed file, blobs). */
  tempPrefix: string;
};

export type SeededService = {
  baseUrl: string;
  app: AppProcess;
  database: TestDatabase;
  /** Runs the admin CLI on the service's database and blob folder; resolves with its JSON output. */
  admin(args: string[]): Promise<unknown>;
  stop(): Promise<void>;
};

/**
 * The service (`apps/standalone`, the one-process mode, unless `main` says otherwise) on a fresh PostgreSQL database,
 * seeded through the admin CLI (`seed`), started once ready. Callbacks may go to local http:// receivers.
 */
export async function startSeededService(options: SeededServiceOptions): Promise<SeededService> {
  await ensureBuilt();
  const database = await createTestDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), options.tempPrefix));
  await chmod(dir, 0o755);
  const env = { DATABASE_URL: database.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, BLOB_DIR: path.join(dir, 'blobs') };
  const admin = (args: string[]): Promise<unknown> =>
    appCommandJson('apps/admin-cli/src/main.js', args, { HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env });
  let app: AppProcess | undefined;
  const stop = async (): Promise<void> => {
    await app?.stop();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const seedFile = path.join(dir, 'seed.json');
    await writeFile(seedFile, JSON.stringify(options.seed(path.relative(dir, path.join(REPO_ROOT, 'examples')))));
    await admin(['seed', seedFile]);
    await options.prepare?.(admin);
    const port = await freePort();
    app = startAppProcess(options.main ?? 'apps/standalone/src/main.js', {
      ...env,
      PORT: String(port),
      SEED_DEMO: 'false',
      DEMO_KEYS_FILE: path.join(dir, 'demo-keys.json'),
      DB_POOL_SIZE: '6',
      RENDER_BROWSERS: '1',
      RENDER_PAGES_PER_BROWSER: '2',
      EGRESS_ALLOW_PRIVATE: 'true',
      EGRESS_ALLOW_HTTP: 'true',
      ...options.env,
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await app.waitForReady(`${baseUrl}/v1/meta/status`, 180_000);
    return { baseUrl, app, database, admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
