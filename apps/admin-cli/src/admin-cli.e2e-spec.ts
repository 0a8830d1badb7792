import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DocumentType, Environment } from '@docrender/contracts';
import { FilesystemBlobStore } from '@docrender/storage';
import { createTestDatabase, TEST_API_KEY_PEPPER, type TestDatabase } from '@docrender/testing';

const ROOT = path.resolve(__dirname, '../../..');
const CLI = path.join(ROOT, 'dist/apps/admin-cli/src/main.js');
const FIXTURES = path.join(__dirname, 'fixtures', 'ok');
const NOT_OK = path.join(__dirname, 'fixtures', 'not-ok');
const INTER_REGULAR = path.join(ROOT, 'node_modules/@fontsource/inter/files/inter-latin-400-normal.woff2');

type CliRun = { code: number; stdout: string; stderr: string };

// Each CLI run is a fresh Node process (about a second); jest's per-project testTimeout does not reach here.
jest.setTimeout(120_000);

describe('admin CLI as a child process against PostgreSQL', () => {
  let db: TestDatabase;
  let blobDir: string;

  const cli = (...args: string[]): Promise<CliRun> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: ROOT, env: { PATH: process.env.PATH, DATABASE_URL: db.url, API_KEY_PEPPER: TEST_API_KEY_PEPPER, BLOB_DIR: blobDir, INIT_CWD: FIXTURES } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      );
    });
  const ok = async (...args: string[]): Promise<Record<string, unknown>> => {
    const run = await cli(...args);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(ROOT, 'tools/build.mjs'), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
    db = await createTestDatabase({ migrate: false });
    blobDir = await mkdtemp(path.join(os.tmpdir(), 'docrender-cli-blobs-'));
  });
  afterAll(async () => {
    await db.drop();
    await rm(blobDir, { recursive: true, force: true });
  });

  let organisationId: string;

  it('applies the migrations before acting (migrate prints what it applied)', async () => {
    const result = await ok('migrate');
    expect(result.applied).toEqual(expect.arrayContaining(['InitialSchema1763740800000']));
    expect(await ok('migrate')).toEqual({ applied: [] });
  });

  it('create-org prints the organisation and its webhook secret as JSON', async () => {
    const result = await ok('create-org', '--name', 'Cli Ltd', '--tier', 'growth', '--included-pages', '500', '--retention-days', '30', '--user-count', '3');
    const organisation = result.organisation as Record<string, unknown>;
    expect(organisation).toMatchObject({ name: 'Cli Ltd', tier: 'growth', includedRendersPerMonth: 500, retentionDays: 30, userCount: 3 });
    expect(result.webhookSecret).toMatch(/^whsec_/);
    organisationId = organisation.id as string;
    expect(await db.database.organisations.findById(organisationId)).toMatchObject({ name: 'Cli Ltd' });
  });

  it('5.2: create-key prints the key once; it authenticates, and neither list-keys nor the database holds it', async () => {
    const created = await ok('create-key', '--org', organisationId, '--env', 'production', '--label', 'billing system');
    const key = created.key as string;
    expect(key).toMatch(/^service_prod_[A-Za-z0-9]{40}$/);
    expect(await db.database.apiKeys.authenticate(key)).toMatchObject({ organisationId, environment: Environment.Production });

    const listed = await cli('list-keys', '--org', organisationId);
    expect(listed.stdout).toContain(created.id as string);
    expect(listed.stdout).not.toContain(key);
    const [{ hits }] = (await db.dataSource.query(`SELECT count(*)::int AS hits FROM api_keys WHERE key_hash = $1 OR label = $1 OR lookup_prefix = $1`, [key])) as { hits: number }[];
    expect(hits).toBe(0);

    expect(await ok('revoke-key', '--key-id', created.id as string)).toMatchObject({ id: created.id });
    expect(await db.database.apiKeys.authenticate(key)).toBeNull();
  });

  it.each([
    [['create-org'], '--name: is required'],
    [['create-org', '--name', 'X', '--included-pages', 'lots'], "--included-pages: must be a whole number from 0 to 2147483647, got 'lots'"],
    [['create-key', '--org', 'not-a-uuid', '--env', 'test'], "--org: must be a UUID, got 'not-a-uuid'"],
    [['create-key', '--org', '00000000-0000-4000-8000-000000000000', '--env', 'staging'], "--env: must be one of test, production, got 'staging'"],
    [['create-key', '--org', '00000000-0000-4000-8000-000000000000', '--env', 'test'], '--org: no organisation 00000000-0000-4000-8000-000000000000'],
    [['create-key', '--colour', 'red'], '--colour: unknown option'],
    [['import-template', '--org', '00000000-0000-4000-8000-000000000000', '--dsl', 'missing.json', '--name', 'T'], '--dsl: cannot read missing.json (ENOENT)'],
    [['purge-pdfs', '--older-than', 'last tuesday'], "--older-than: must be an ISO 8601 time or an age like 30d or 12h, got 'last tuesday'"],
    [['frobnicate'], 'frobnicate: unknown command'],
  ])('a bad argument %p prints one line naming it and exits 2', async (args, message) => {
    const run = await cli(...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.endsWith('\n')).toBe(true);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^error: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('rotate-webhook-secret keeps the previous secret for 24 hours', async () => {
    const before = await db.database.webhookSecrets.find(organisationId);
    const rotated = await ok('rotate-webhook-secret', '--org', organisationId);
    expect(rotated.secret).not.toBe(before?.active);
    const expires = new Date(rotated.previousSecretExpiresAt as string).getTime();
    expect(expires - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(await db.database.webhookSecrets.signingSecretsAt(organisationId)).toEqual([rotated.secret, before?.active]);
  });

  it('create-project, import-template (draft, then a published version) and publish-version', async () => {
    const project = await ok('create-project', '--org', organisationId, '--name', 'Sales');
    const draft = await ok(
      'import-template',
      '--org', organisationId,
      '--name', 'Receipt',
      '--project', project.id as string,
      '--dsl', 'receipt.template.json',
      '--sample-data', 'receipt.data.json',
      '--translations', 'receipt.translations.json',
      '--document-name-template', 'Receipt {{number}}',
    );
    expect(draft).toMatchObject({ templateName: 'Receipt', versionNumber: 1, published: false });
    const templateId = draft.templateId as string;
    const second = await ok('import-template', '--org', organisationId, '--template', templateId, '--dsl', 'receipt.template.json', '--publish');
    expect(second).toMatchObject({ versionNumber: 2, published: true });
    expect(await ok('publish-version', '--org', organisationId, '--template', templateId, '--version', '1')).toMatchObject({ versionNumber: 1, publishedBy: 'admin-cli' });

    const template = await db.database.templates.findById(organisationId, templateId);
    expect(template).toMatchObject({ projectName: 'Sales', latestVersionNumber: 2, versionCount: 2, documentNameTemplate: 'Receipt {{number}}' });
    const v1 = await db.database.templateVersions.findByNumber(templateId, 1);
    expect(JSON.parse(v1!.sampleData)).toEqual({ data: { number: 'R-1' }, i18n: {} });
    expect(JSON.parse(v1!.translations!)).toMatchObject({ defaultLanguage: 'fr', languages: { fr: { strings: { Receipt: 'Reçu' } } } });
    expect(v1!.documentNameTemplate).toBe('Receipt {{number}}');
  });

  const UNKNOWN_FUNCTION = /\$\.body\[0\]\.text: .*unknown function "frobnicate"/;

  it('31.4: import-template refuses what a render would refuse (an unknown function), naming its path; nothing is stored or published', async () => {
    const run = await cli('import-template', '--org', organisationId, '--name', 'Broken', '--dsl', path.join(NOT_OK, 'unknown-function.template.json'), '--publish');
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^error: --dsl: the template version is invalid: /);
    expect(run.stderr).toMatch(UNKNOWN_FUNCTION);
    expect(await db.database.templates.findByName(organisationId, null, 'Broken')).toEqual([]);
  });

  it('31.4: import-template refuses a document-name template whose bindings do not parse, and translations not in the documented format', async () => {
    const name = await cli('import-template', '--org', organisationId, '--name', 'Badly named', '--dsl', 'receipt.template.json', '--document-name-template', 'Receipt {{ number');
    expect(name).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --dsl: the template version is invalid: documentNameTemplate: binding syntax error/) });
    const translations = await cli('import-template', '--org', organisationId, '--name', 'Badly translated', '--dsl', 'receipt.template.json', '--translations', 'receipt.data.json');
    expect(translations).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --dsl: the template version is invalid: translations: must be /) });
    expect(await db.database.templates.findByName(organisationId, null, 'Badly named')).toEqual([]);
    expect(await db.database.templates.findByName(organisationId, null, 'Badly translated')).toEqual([]);
  });

  it('31.4: publish-version refuses a draft a render would refuse (stored before the check) and leaves it a draft', async () => {
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Old draft', documentNameTemplate: null, updatedBy: 'test' });
    const content = { templateJson: readFileSync(path.join(NOT_OK, 'unknown-function.template.json'), 'utf8'), sampleData: '{"data":{},"i18n":{}}', translations: null, documentNameTemplate: null };
    await db.database.templateVersions.addVersion(template.id, content, { author: 'test', publish: false });
    const run = await cli('publish-version', '--org', organisationId, '--template', template.id, '--version', '1');
    expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --version: the template version is invalid: /) });
    expect(run.stderr).toMatch(UNKNOWN_FUNCTION);
    expect((await db.database.templateVersions.findByNumber(template.id, 1))?.publishedAt).toBeNull();
  });

  it('add-font stores the file in the blob store and the family in the database', async () => {
    const result = await ok('add-font', '--org', organisationId, '--family', 'Brand Sans', '--file', `400:normal:${INTER_REGULAR}`);
    const files = result.files as { blobKey: string; format: string }[];
    expect(files).toEqual([expect.objectContaining({ weight: 400, style: 'normal', format: 'woff2' })]);
    const blobs = await FilesystemBlobStore.open(blobDir);
    expect(await blobs.stat(files[0].blobKey)).toMatchObject({ contentType: 'font/woff2' });
    expect(await db.database.fonts.listCustomFontRefs(organisationId)).toEqual([expect.objectContaining({ family: 'Brand Sans', blobKey: files[0].blobKey })]);

    const wrong = await cli('add-font', '--org', organisationId, '--family', 'Brand Sans', '--file', `700:normal:receipt.data.json`);
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: --file: receipt\.data\.json: the extension must be one of woff2, woff, ttf, otf\n$/) });
  });

  it('3.3: purge-pdfs deletes stored PDFs older than the cutoff and keeps their metadata', async () => {
    const blobs = await FilesystemBlobStore.open(blobDir);
    const template = await db.database.templates.create({ organisationId, projectId: null, name: 'Old', documentNameTemplate: null, updatedBy: 'test' });
    const make = async (name: string, renderedAt: Date) => {
      const key = `organisations/${organisationId}/documents/${name}.pdf`;
      await blobs.put(key, Buffer.from('%PDF-1.7'), 'application/pdf');
      return db.database.documents.create({
        organisationId,
        templateId: template.id,
        versionNumber: 1,
        environment: Environment.Test,
        language: null,
        documentName: name,
        documentType: DocumentType.Template,
        pdfBlobKey: key,
        fileSizeBytes: 8,
        pageCount: 1,
        renderedAt,
        renderDurationMs: 5,
      });
    };
    const old = await make('old', new Date(Date.now() - 40 * 86_400_000));
    const recent = await make('recent', new Date());
    expect(await ok('purge-pdfs', '--older-than', '30d', '--org', organisationId)).toMatchObject({ mode: 'older-than', purged: 1, failures: [] });
    expect(await db.database.documents.findById(organisationId, old.id)).toMatchObject({ isPdfDeleted: true, documentName: 'old' });
    expect(await blobs.stat(old.pdfBlobKey)).toBeNull();
    expect((await db.database.documents.findById(organisationId, recent.id))?.isPdfDeleted).toBe(false);
  });

  it('seed applies a file twice with the same ids', async () => {
    const first = await ok('seed', 'shop.seed.json');
    expect(await ok('seed', path.join(FIXTURES, 'shop.seed.json'))).toEqual(first);
    const organisations = first.organisations as { id: string; projects: { templates: { versions: { published: boolean }[] }[] }[] }[];
    expect(organisations[0].projects[0].templates[0].versions).toEqual([expect.objectContaining({ versionNumber: 1, published: true })]);
    expect(await db.database.apiKeys.authenticate('service_test_shopTestKey0123456789abcdef')).toMatchObject({ organisationId: organisations[0].id });
  });

  it('31.4: seed refuses a version a render would refuse (an unknown function), naming the entry and the path; nothing is written', async () => {
    const run = await cli('seed', path.join(NOT_OK, 'unknown-function.seed.json'));
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^error: organisations\[0\]\.templates\[0\]\.versions\[0\]: the template version is invalid: /);
    expect(run.stderr).toMatch(UNKNOWN_FUNCTION);
    const [{ count }] = (await db.dataSource.query(`SELECT count(*)::int AS count FROM organisations WHERE name = 'Door Ltd'`)) as { count: number }[];
    expect(count).toBe(0);
  });

  it('5.4: suspend-org makes its keys authenticate as suspended (403 Forbidden on renders); resume-org lifts it', async () => {
    const created = await ok('create-key', '--org', organisationId, '--env', 'production');
    expect(await ok('suspend-org', '--org', organisationId)).toMatchObject({ id: organisationId, suspended: true });
    expect(await db.database.apiKeys.authenticate(created.key as string)).toMatchObject({ organisationId, organisationSuspended: true });
    expect(await ok('resume-org', '--org', organisationId)).toMatchObject({ id: organisationId, suspended: false });
    expect(await db.database.apiKeys.authenticate(created.key as string)).toMatchObject({ organisationSuspended: false });
  });

  it('5.3: delete-org keeps the keys, which then authenticate as organisationDeleted (401 NotAuthenticated)', async () => {
    const created = await ok('create-key', '--org', organisationId, '--env', 'test');
    expect(await ok('delete-org', '--org', organisationId)).toMatchObject({ id: organisationId });
    expect(await db.database.apiKeys.authenticate(created.key as string)).toMatchObject({ organisationId, organisationDeleted: true });
    const again = await cli('delete-org', '--org', organisationId);
    expect(again).toMatchObject({ code: 2, stderr: `error: --org: organisation ${organisationId} was deleted\n` });
  });
});
