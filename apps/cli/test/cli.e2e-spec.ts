import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLIENT_VERSION, DocrenderClient } from '@docrender/client';
import { freePort, REPO_ROOT } from '@docrender/testing';
import { IDS, runCliProcess, startCliService, type CliRun, type CliService } from './cli-service';

jest.setTimeout(240_000);

type RunJson = {
  requestedCount: number;
  renderedCount: number;
  missingCount: number;
  missingDocuments: number[] | null;
  environment: string;
  files: { documentIndex: number; documentName: string; path: string; documentId: string | null }[];
  issuesByType: { type: string; documentIndexes: number[] }[];
  jobs: { state: string; status: string }[];
  notReceived: number | null;
};

const isPdf = async (file: string): Promise<boolean> => (await readFile(file)).subarray(0, 5).toString() === '%PDF-';

describe('docrender CLI as a process against the running service', () => {
  let service: CliService;
  let work: string;
  let invoice: Record<string, unknown>;
  let cli: (args: string[], env?: Record<string, string>) => Promise<CliRun>;

  beforeAll(async () => {
    service = await startCliService();
    work = await mkdtemp(path.join(tmpdir(), 'docrender-cli-work-'));
    invoice = JSON.parse(await readFile(path.join(REPO_ROOT, 'examples/invoice/data.json'), 'utf8')) as Record<string, unknown>;
    cli = (args, env = {}) => runCliProcess(args, { SERVICE_API_KEY: service.testKey, SERVICE_BASE_URL: service.baseUrl, ...env }, work);
  });

  afterAll(async () => {
    await service?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** `count` invoices numbered INV-0…, with the documents at `invalid` indexes replaced by an empty object. */
  const invoices = (count: number, invalid: number[] = []): Record<string, unknown>[] =>
    Array.from({ length: count }, (_, i) => (invalid.includes(i) ? {} : { ...invoice, number: `INV-${i}` }));

  describe('render', () => {
    it('1, 4.2: renders an NDJSON batch in test-key requests of 10, writes <documentName>.pdf, shows progress, summarises issues by type and index, exits 1 for the missing one', async () => {
      await writeFile(path.join(work, 'batch.ndjson'), invoices(12, [7]).map((d) => JSON.stringify(d)).join('\n'));
      const result = await cli(['render', IDS.invoice, '--data', 'batch.ndjson', '--out', 'batch-out']);
      expect(result.code).toBe(1);
      const files = (await readdir(path.join(work, 'batch-out'))).sort();
      expect(files).toHaveLength(11);
      expect(files).toContain('Invoice INV-0.pdf');
      expect(files).toContain('Invoice INV-11.pdf');
      expect(files).not.toContain('Invoice INV-7.pdf');
      expect(await isPdf(path.join(work, 'batch-out', 'Invoice INV-11.pdf'))).toBe(true);
      expect(result.stderr).toMatch(/render \[#+-*\] 10\/12 documents/);
      expect(result.stderr).toMatch(/render \[#{30}\] 12\/12 documents/);
      expect(result.stdout).toContain('Rendered 11 of 12 documents (test); 11 PDF file(s) written to batch-out');
      expect(result.stdout).toContain('Missing: 1: document 7');
      expect(result.stdout).toMatch(/Error\s+SchemaInvalid\s+×\d+\s+document 7\n/);
    });

    it('4.2: --json prints one JSON document for scripts and nothing on stderr; exit 0 when every document rendered', async () => {
      await writeFile(path.join(work, 'two.json'), JSON.stringify(invoices(2)));
      const result = await cli(['render', IDS.invoice, '--data', 'two.json', '--out', 'two-out', '--json']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      const run = JSON.parse(result.stdout) as RunJson;
      expect(run).toMatchObject({ requestedCount: 2, renderedCount: 2, missingCount: 0, missingDocuments: [], environment: 'test' });
      expect(run.files.map((f) => [f.documentIndex, f.documentName])).toEqual([
        [0, 'Invoice INV-0'],
        [1, 'Invoice INV-1'],
      ]);
      for (const file of run.files) expect(await isPdf(file.path)).toBe(true);
    });

    it('4.2: --version and --language render a language variant; --no-persist stores nothing', async () => {
      await writeFile(path.join(work, 'letter.json'), await readFile(path.join(REPO_ROOT, 'examples/letter/data.json')));
      const result = await cli(['render', IDS.letter, '--data', 'letter.json', '--out', 'letter-out', '--version', '1', '--language', 'de', '--no-persist', '--json']);
      expect(result.code).toBe(0);
      const run = JSON.parse(result.stdout) as RunJson;
      expect(run.files).toHaveLength(1);
      expect(run.files[0].documentName).toMatch(/^Letter to /);
      expect(run.files[0].documentId).toBeNull();
      const unknown = await cli(['render', IDS.letter, '--data', 'letter.json', '--out', 'letter-out', '--language', 'xx']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^error: 400 ValidationError: .*\(POST \/v1\/render\//);
    });

    it('4.5, 4.6, 6.4: --async --receive: enqueues, polls with a progress bar, writes the PDFs from the verified callbacks, and knows exactly which one is missing', async () => {
      const port = await freePort();
      await writeFile(path.join(work, 'async.json'), JSON.stringify(invoices(4, [2])));
      const result = await cli([
        'render',
        IDS.invoice,
        '--data',
        'async.json',
        '--out',
        'async-out',
        '--async',
        '--callback-url',
        `http://127.0.0.1:${port}/callbacks?token=abc`,
        '--receive',
        `127.0.0.1:${port}`,
        '--webhook-secret',
        service.webhookSecret,
        '--poll-interval',
        '300',
      ]);
      expect(result.code).toBe(1);
      expect((await readdir(path.join(work, 'async-out'))).sort()).toEqual(['Invoice INV-0.pdf', 'Invoice INV-1.pdf', 'Invoice INV-3.pdf']);
      expect(await isPdf(path.join(work, 'async-out', 'Invoice INV-3.pdf'))).toBe(true);
      expect(result.stderr).toMatch(/render \[#{30}\] 4\/4 documents \(1 job\)/);
      // issue 37 item 4: the job's id, to resume waiting with `jobs wait` after an interruption
      expect(result.stderr).toMatch(/job [0-9a-f-]{36}: 4 document\(s\); if interrupted, wait again with: docrender jobs wait [0-9a-f-]{36}/);
      expect(result.stdout).toContain('Missing: 1: document 2');
      expect(result.stdout).toMatch(/Job [0-9a-f-]{36}: completed, partial \(3\/4\)/);
      expect(result.stdout).toMatch(/SchemaInvalid\s+×\d+\s+document 2\n/);
    });

    it('6.5, 6.4: --async without --receive reports the outcome from polling; a receiver given the wrong secret rejects every callback', async () => {
      const port = await freePort();
      await writeFile(path.join(work, 'async-two.json'), JSON.stringify(invoices(2)));
      const polled = await cli(['render', IDS.invoice, '--data', 'async-two.json', '--out', 'polled-out', '--async', '--callback-url', `http://127.0.0.1:${port}/x`, '--poll-interval', '300', '--json']);
      expect(polled.code).toBe(0);
      const run = JSON.parse(polled.stdout) as RunJson;
      expect(run).toMatchObject({ renderedCount: 2, missingCount: 0, missingDocuments: null, notReceived: null, files: [] });
      expect(run.jobs).toMatchObject([{ state: 'completed', status: 'ok' }]);

      const receiverPort = await freePort();

      const wrongSecret = await cli([
        'render',
        IDS.invoice,
        '--data',
        'async-two.json',
        '--out',
        'rejected-out',
        '--async',
        '--callback-url',
        `http://127.0.0.1:${receiverPort}/cb`,
        '--receive',
        `127.0.0.1:${receiverPort}`,
        '--webhook-secret',
        'whsec_notTheOrganisationsSecret',
        '--receive-grace',
        '1',
        '--poll-interval',
        '300',
      ]);
      expect(wrongSecret.code).toBe(1);
      expect(wrongSecret.stderr).toContain('callback rejected: Webhook signature rejected (no-matching-signature)');
      expect(wrongSecret.stdout).toContain('Not received: 2 rendered document(s)');
      expect(await readdir(path.join(work, 'rejected-out'))).toEqual([]);
    });
  });

  describe('jobs wait and --version', () => {
    it('issue 37 item 4: jobs wait <id> resumes waiting on a job enqueued elsewhere, with progress, and exits 1 when a document is missing; --version names the CLI', async () => {
      const sdk = new DocrenderClient({ baseUrl: service.baseUrl, apiKey: service.testKey });
      const job = await sdk.jobs.enqueue(IDS.invoice, invoices(3, [1]), { callbackUrl: `http://127.0.0.1:${await freePort()}/cb` });
      const waited = await cli(['jobs', 'wait', job.jobId, '--poll-interval', '300']);
      expect(waited.code).toBe(1);
      expect(waited.stderr).toMatch(/job \[#{30}\] 3\/3 documents/);
      expect(waited.stdout).toContain(job.jobId);
      expect(waited.stdout).toMatch(/rendered\s+2 of 3/);
      expect(waited.stdout).toMatch(/missing\s+1/);
      const again = await cli(['jobs', 'wait', job.jobId, '--json']);
      expect(again.code).toBe(1);
      expect(JSON.parse(again.stdout)).toMatchObject({ jobId: job.jobId, state: 'completed', renderedCount: 2, missingCount: 1 });

      const version = await cli(['--version']);
      expect(version).toEqual({ code: 0, stdout: `docrender ${CLIENT_VERSION}\n`, stderr: '' });
    });
  });

  describe('validate, lists, download, stats', () => {
    it('4.4, 7.4: validate exits 1 with issues by type and document index; exit 0 when clean; the test gate ignores warnings', async () => {
      await writeFile(path.join(work, 'check.json'), JSON.stringify([invoice, {}]));
      const invalid = await cli(['validate', IDS.invoice, '--data', 'check.json']);
      expect(invalid.code).toBe(1);
      expect(invalid.stdout).toMatch(/^Invalid \(production gate\): 2 document\(s\), \d+ issue\(s\)/);
      expect(invalid.stdout).toMatch(/Error\s+SchemaInvalid\s+×\d+\s+document 1\n/);
      await writeFile(path.join(work, 'clean.json'), JSON.stringify(invoice));
      const valid = await cli(['validate', IDS.invoice, '--data', 'clean.json', '--json']);
      expect(valid.code).toBe(0);
      expect(JSON.parse(valid.stdout)).toMatchObject({ valid: true, gate: 'production', documentCount: 1 });
      await writeFile(path.join(work, 'warning.json'), JSON.stringify({ ...invoice, seller: { ...(invoice.seller as object), bic: undefined } }));
      const warned = await cli(['validate', IDS.invoice, '--data', 'warning.json', '--json']);
      const warnedJson = JSON.parse(warned.stdout) as { valid: boolean; issues: { severity: string }[] };
      expect(warnedJson.issues.map((i) => i.severity)).toContain('Warning');
      expect(warned.code).toBe(1);
      expect((await cli(['validate', IDS.invoice, '--data', 'warning.json', '--gate', 'test'])).code).toBe(0);
    });

    it('4.7, 4.1: templates list: a table, --json the paged result, --all every page', async () => {
      const table = await cli(['templates', 'list', '--sort', 'name']);
      expect(table.code).toBe(0);
      expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+LATEST\s+VERSIONS\s+PROJECT\s+UPDATED$/);
      expect(table.stdout).toMatch(new RegExp(`${IDS.invoice}\\s+Invoice\\s+1\\s+1`));
      expect(table.stdout).toContain('1-2 of 2');
      const json = JSON.parse((await cli(['templates', 'list', '--search', 'lett', '--json'])).stdout) as { items: { id: string }[]; total: number };
      expect(json).toMatchObject({ total: 1, items: [{ id: IDS.letter }] });
      const everything = JSON.parse((await cli(['templates', 'list', '--all', '--take', '1', '--json'])).stdout) as { total: number };
      expect(everything.total).toBe(2);
    });

    it('4.1: templates list names the next page and checks the sort field against the contract, with a suggestion', async () => {
      const first = await cli(['templates', 'list', '--sort', 'name', '--take', '1']);
      expect(first.stdout).toContain('1-1 of 2');
      expect(first.stderr).toContain('next page: docrender templates list --sort name --take 1 --skip 1');
      const last = await cli(['templates', 'list', '--sort', 'name', '--take', '1', '--skip', '1']);
      expect([last.stdout.includes('2-2 of 2'), last.stderr]).toEqual([true, '']);
      const typo = await cli(['templates', 'list', '--sort', 'nmae']);
      expect(typo).toMatchObject({ code: 2, stderr: "error: --sort: templates cannot be sorted by 'nmae'; did you mean 'name'?; fields: updatedAt, name, createdAt\n" });
    });

    it('4.13, 4.15: documents list filters by template and environment; documents download writes <documentName>.pdf', async () => {
      const list = await cli(['documents', 'list', '--template', IDS.invoice, '--environment', 'test', '--sort', 'renderedAt', '--desc', '--take', '3', '--json']);
      expect(list.code).toBe(0);
      const page = JSON.parse(list.stdout) as { items: { id: string; documentName: string; templateId: string }[]; total: number };
      expect(page.total).toBeGreaterThanOrEqual(11);
      expect(page.items).toHaveLength(3);
      expect(page.items.every((d) => d.templateId === IDS.invoice)).toBe(true);
      const all = JSON.parse((await cli(['documents', 'list', '--template', IDS.invoice, '--environment', 'test', '--all', '--take', '50', '--json'])).stdout) as { total: number };
      expect(all.total).toBe(page.total);
      const table = await cli(['documents', 'list', '--filter', `template.guid=${IDS.invoice}`, '--take', '2']);
      expect(table.stdout).toContain(`Invoice (${IDS.invoice})`);

      const [first, second] = page.items;
      const download = await cli(['documents', 'download', first.id, second.id, '--out', 'downloads']);
      expect(download.code).toBe(0);
      expect((await readdir(path.join(work, 'downloads'))).sort()).toEqual([`${first.documentName}.pdf`, `${second.documentName}.pdf`].sort());
      const single = await cli(['documents', 'download', first.id, '--out', 'one/named.pdf', '--json']);
      expect(JSON.parse(single.stdout)).toMatchObject({ files: [{ documentId: first.id, path: path.join(work, 'one/named.pdf') }] });
      expect(await isPdf(path.join(work, 'one/named.pdf'))).toBe(true);
      const missing = await cli(['documents', 'download', '6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toMatch(/^error: 404 DocumentNotFound: /);
    });

    it('4.16: stats: the organisation’s usage, as text or JSON', async () => {
      const text = await cli(['stats']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^organisation\s+CLI Org$/m);
      expect(text.stdout).toMatch(/^pages used\s+\d+ of 500$/m);
      expect(JSON.parse((await cli(['stats', '--json'])).stdout)).toMatchObject({ organisationName: 'CLI Org', includedRendersPerMonth: 500 });
    });
  });

  describe('keys and failures', () => {
    it('1, 5: takes the key from --key as well as SERVICE_API_KEY; a production key renders in production and is not capped at 10', async () => {
      await writeFile(path.join(work, 'eleven.json'), JSON.stringify(invoices(11)));
      const result = await cli(['render', IDS.invoice, '--data', 'eleven.json', '--out', 'prod-out', '--key', service.productionKey, '--json'], { SERVICE_API_KEY: '' });
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ environment: 'production', renderedCount: 11 });
    });

    it('5, 7.5: exits 2 without a key, 1 with a key the service refuses, and 1 when the service cannot be reached', async () => {
      const noKey = await cli(['stats'], { SERVICE_API_KEY: '' });
      expect(noKey).toMatchObject({ code: 2, stdout: '' });
      expect(noKey.stderr).toBe('error: no API key: set SERVICE_API_KEY or pass --key\n');
      const refused = await cli(['templates', 'list'], { SERVICE_API_KEY: 'service_test_notAKeyTheServiceKnows' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/^error: 401 Unauthorized: /);
      const unreachable = await cli(['stats', '--base-url', `http://127.0.0.1:${await freePort()}`]);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stderr).toMatch(/^error: connection failed \(GET \/v1\/organisation\/stats\): .*ECONNREFUSED/);
    });
  });
});
