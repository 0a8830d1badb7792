import { execFile } from 'node:child_process';
import path from 'node:path';
import { newApiKey, newWebhookSecret, REPO_ROOT, startSeededService } from '@docrender/testing';

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
  const testKey = newApiKey('test');
  const productionKey = newApiKey('prod');
  const webhookSecret = newWebhookSecret();
  const version = (examples: string, name: string, translations: boolean) => ({
    template: { file: `${examples}/${name}/template.json` },
    sampleData: { data: { file: `${examples}/${name}/data.json` }, i18n: {} },
    translations: translations ? { file: `${examples}/${name}/translations.json` } : null,
    published: true,
  });
  const seed = (examples: string) => ({
    organisations: [
      {
        id: IDS.organisation,
        name: 'CLI Org',
        tier: 'pro',
        includedRendersPerMonth: 500,
        apiKeys: [testKey, productionKey],
        webhookSecret,
        templates: [
          { id: IDS.invoice, name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', versions: [version(examples, 'invoice', false)] },
          { id: IDS.letter, name: 'Letter', documentNameTemplate: 'Letter to {{recipient.name}}', versions: [version(examples, 'letter', true)] },
        ],
      },
    ],
  });
  const { baseUrl, stop } = await startSeededService({ seed, tempPrefix: 'docrender-cli-' });
  return { baseUrl, testKey, productionKey, webhookSecret, stop };
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
