import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, ensureBuilt, freePort, REPO_ROOT, startAppProcess, TEST_API_KEY_PEPPER, type AppProcess } from '@docrender/testing';

const run = promisify(execFile);

export const IDS = {
  organisation: '00000000-0000-4000-8000-00000000d001',
  invoice: '00000000-0000-4000-8000-00000000d010',
  letter: '00000000-0000-4000-8000-00000000d011',
} as const;

export type CliService = {
  baseUrl: string;
  testKey: string;
  productionKey: string;
  webhookSecret: string;
  stop(): Promise<void>;
};

export type CliRun = { code: number; stdout: string; stderr: string };

/**
 * The service in one process (`apps/standalone`) on a fresh database, seeded through the admin CLI with one
 * organisation (both keys, a webhook secret) and the invoice and letter examples. Callbacks may go to local receivers.
 */
export async function startCliService(): Promise<CliService> {
  await ensureBuilt();
  const db = await createTestDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), 'docrender-cli-'));
  await chmod(dir, 0o755);
  const testKey = `service_test_${randomBytes(18).toString('base64url')}`;
  const productionKey = `service_prod_${randomBytes(18).toString('base64url')}`;
  const webhookSecret = `whsec_${randomBytes(18).toString('base64url')}`;
  const env = { DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, BLOB_DIR: path.join(dir, 'blobs') };
  const examples = path.relative(dir, path.join(REPO_ROOT, 'examples'));
  const version = (name: string, translations: boolean) => ({
    template: { file: `${examples}/${name}/template.json` },
    sampleData: { data: { file: `${examples}/${name}/data.json` }, i18n: {} },
    translations: translations ? { file: `${examples}/${name}/translations.json` } : null,
    published: true,
  });
  const seed = {
    organisations: [
      {
        id: IDS.organisation,
        name: 'CLI Org',
        tier: 'pro',
        includedRendersPerMonth: 500,
        apiKeys: [testKey, productionKey],
        webhookSecret,
        templates: [
          { id: IDS.invoice, name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', versions: [version('invoice', false)] },
          { id: IDS.letter, name: 'Letter', documentNameTemplate: 'Letter to {{recipient.name}}', versions: [version('letter', true)] },
        ],
      },
    ],
  };
  let app: AppProcess | undefined;
  const stop = async (): Promise<void> => {
    await app?.stop();
    await db.drop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await writeFile(path.join(dir, 'seed.json'), JSON.stringify(seed));
    await run(process.execPath, [path.join(REPO_ROOT, 'dist/apps/admin-cli/src/main.js'), 'seed', path.join(dir, 'seed.json')], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    });
    const port = await freePort();
    app = startAppProcess('apps/standalone/src/main.js', {
      ...env,
      PORT: String(port),
      SEED_DEMO: 'false',
      DEMO_KEYS_FILE: path.join(dir, 'demo-keys.json'),
      DB_POOL_SIZE: '6',
      RENDER_BROWSERS: '1',
      RENDER_PAGES_PER_BROWSER: '2',
      EGRESS_ALLOW_PRIVATE: 'true',
      EGRESS_ALLOW_HTTP: 'true',
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await app.waitForReady(`${baseUrl}/v1/meta/status`, 180_000);
    return { baseUrl, testKey, productionKey, webhookSecret, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs `node dist/apps/cli/src/main.js …args` as its own process with exactly `env` (plus PATH and HOME), from `cwd`. */
export function runCliProcess(args: string[], env: Record<string, string>, cwd: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(REPO_ROOT, 'dist/apps/cli/src/main.js'), ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
