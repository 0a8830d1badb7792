import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { newApiKey, newWebhookSecret, startSeededService } from '@docrender/testing';

/** Fixed ids of the seeded organisations' records. */
export const IDS = {
  organisation: '00000000-0000-4000-8000-00000000c001',
  project: '00000000-0000-4000-8000-00000000c002',
  invoice: '00000000-0000-4000-8000-00000000c010',
  letter: '00000000-0000-4000-8000-00000000c011',
  draftOnly: '00000000-0000-4000-8000-00000000c012',
  purgedOrganisation: '00000000-0000-4000-8000-00000000c101',
  purgedInvoice: '00000000-0000-4000-8000-00000000c110',
  deletedOrganisation: '00000000-0000-4000-8000-00000000c201',
} as const;

export type SeededKeys = {
  /** The main organisation's keys and webhook signing secret. */
  test: string;
  production: string;
  webhookSecret: string;
  /** A test key of a second organisation whose PDFs a test purges (410 PdfDeleted). */
  purgedOrganisationTest: string;
  /** A test key of an organisation deleted at start (401 NotAuthenticated). */
  deletedOrganisationTest: string;
};

export type ServiceFixture = {
  baseUrl: string;
  keys: SeededKeys;
  /** Runs the admin CLI on the fixture's database and blob folder; resolves with its JSON output. */
  admin(args: string[]): Promise<unknown>;
  /** Everything the service printed (for failure messages). */
  output(): string;
  /** Forgets every rate-limit permit taken so far, so the next request of every organisation starts a full window. */
  clearRateLimitPermits(): Promise<void>;
  stop(): Promise<void>;
};

function seed(keys: SeededKeys, examples: string): unknown {
  const invoiceVersion = (published: boolean, documentNameTemplate: string | null) => ({
    template: { file: `${examples}/invoice/template.json` },
    sampleData: { data: { file: `${examples}/invoice/data.json` }, i18n: {} },
    translations: null,
    documentNameTemplate,
    published,
  });
  return {
    organisations: [
      {
        id: IDS.organisation,
        name: 'Client SDK Org',
        tier: 'growth',
        includedRendersPerMonth: 1000,
        includedTokensPerMonth: 5000,
        userCount: 2,
        apiKeys: [keys.test, keys.production],
        webhookSecret: keys.webhookSecret,
        projects: [
          {
            id: IDS.project,
            name: 'Examples',
            templates: [
              { id: IDS.invoice, name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', versions: [invoiceVersion(true, null), invoiceVersion(false, 'Draft {{number}}')] },
              {
                id: IDS.letter,
                name: 'Letter',
                documentNameTemplate: 'Letter to {{recipient.name}}',
                versions: [
                  {
                    template: { file: `${examples}/letter/template.json` },
                    sampleData: { data: { file: `${examples}/letter/data.json` }, i18n: {} },
                    translations: { file: `${examples}/letter/translations.json` },
                    documentNameTemplate: null,
                    published: true,
                  },
                ],
              },
              { id: IDS.draftOnly, name: 'Draft only', documentNameTemplate: null, versions: [invoiceVersion(false, null)] },
            ],
          },
        ],
      },
      {
        id: IDS.purgedOrganisation,
        name: 'Purged Org',
        apiKeys: [keys.purgedOrganisationTest],
        templates: [{ id: IDS.purgedInvoice, name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', versions: [invoiceVersion(true, null)] }],
      },
      { id: IDS.deletedOrganisation, name: 'Deleted Org', apiKeys: [keys.deletedOrganisationTest] },
    ],
  };
}

/**
 * The whole service in one process (`apps/standalone`: gateway, render service with Chromium, job worker, webhook
 * dispatcher on the in-process bus) on a fresh PostgreSQL database, seeded through the admin CLI with three
 * organisations, one of them then deleted. Callbacks may go to local http:// receivers. One per test file.
 * `main: 'apps/api-gateway/src/main.js'` starts the gateway alone instead (reads, the PATCH and validation work; renders
 * have no render service).
 */
export async function startService(extraEnv: Record<string, string> = {}, main = 'apps/standalone/src/main.js'): Promise<ServiceFixture> {
  const keys: SeededKeys = {
    test: newApiKey('test'),
    production: newApiKey('prod'),
    webhookSecret: newWebhookSecret(),
    purgedOrganisationTest: newApiKey('test'),
    deletedOrganisationTest: newApiKey('test'),
  };
  const service = await startSeededService({
    seed: (examples) => seed(keys, examples),
    prepare: async (admin) => {
      await admin(['delete-org', '--org', IDS.deletedOrganisation]);
    },
    main,
    env: extraEnv,
    tempPrefix: 'docrender-client-',
  });
  const clearRateLimitPermits = async (): Promise<void> => {
    await service.database.dataSource.query('DELETE FROM rate_limit_permits');
  };
  return { baseUrl: service.baseUrl, keys, admin: service.admin, output: () => service.app.output(), clearRateLimitPermits, stop: service.stop };
}

/** An HTTP receiver of job callbacks on 127.0.0.1 that answers 200 and keeps each request's raw body and headers. */
export type CallbackSink = {
  url: string;
  received: { rawBody: Buffer; headers: Record<string, string | string[] | undefined> }[];
  /** Resolves once `count` callbacks arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export async function startCallbackSink(): Promise<CallbackSink> {
  const received: CallbackSink['received'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ rawBody: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/callbacks?token=${randomBytes(8).toString('hex')}`,
    received,
    async waitFor(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`${received.length} of ${count} callbacks arrived within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
