import path from 'node:path';
import { readFileSync } from 'node:fs';
import { Environment } from '@docrender/contracts';
import { suiteDatabase, type SuiteDatabase } from '../../test/suite-database';
import { applySeed, type SeedResult } from './apply-seed';
import { SeedFileError } from './seed-file';

const OK_DIR = path.join(__dirname, 'fixtures', 'ok', 'acme');
const NOT_OK_DIR = path.join(__dirname, 'fixtures', 'not-ok');
const acmeSeed = (): Record<string, unknown> => JSON.parse(readFileSync(path.join(OK_DIR, 'seed.json'), 'utf8')) as Record<string, unknown>;
const CHANGED_TEMPLATE = { dsl: 1, body: [{ id: 'greeting', type: 'text', text: 'Dear {{name}}, changed' }] };
const seedKeys = (seed: unknown): string[] =>
  (seed as { organisations: { apiKeys?: string[] }[] }).organisations.flatMap((o) => o.apiKeys ?? []);

/** Every row of every table of the schema, as JSON text, in a stable order. */
async function dumpAllTables(db: SuiteDatabase): Promise<Record<string, string[]>> {
  const tables = (await db.dataSource.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)) as { tablename: string }[];
  const dump: Record<string, string[]> = {};
  for (const { tablename } of tables) {
    const rows = (await db.dataSource.query(`SELECT row_to_json(t)::text AS row FROM ${tablename} t`)) as { row: string }[];
    dump[tablename] = rows.map((r) => r.row).sort();
  }
  return dump;
}

describe('applySeed', () => {
  const db = suiteDatabase();
  let first: SeedResult;

  beforeAll(async () => {
    first = await applySeed(db.database, acmeSeed(), OK_DIR, { now: new Date('2026-11-21T10:00:00Z') });
  });

  it('creates what the file describes and returns its ids', async () => {
    const [acme, beta] = first.organisations;
    expect(beta.id).toBe('0b7f4a52-9d0e-4d7a-8f3c-5e2a1b6c9d01');
    expect(acme.templates[0].id).toBe('6f1d3c1e-2b7a-4c0e-9a51-3f0b8d2e7c11');
    expect(acme.apiKeys.map((k) => k.environment)).toEqual([Environment.Test, Environment.Production]);
    expect(acme.projects[0].templates[0].versions).toEqual([
      expect.objectContaining({ versionNumber: 1, published: true }),
      expect.objectContaining({ versionNumber: 2, published: false }),
    ]);

    const organisation = await db.database.organisations.findById(acme.id);
    expect(organisation).toMatchObject({ name: 'Acme Ltd', tier: 'growth', includedPagesPerMonth: 500, includedTokensPerMonth: 10000, retentionDays: 30, userCount: 3 });
    expect((await db.database.usage.getUsage(acme.id, new Date('2026-11-21T10:00:00Z'))).pagesUsed).toBe(12);
    expect(await db.database.webhookSecrets.signingSecretsAt(acme.id)).toEqual(['whsec_acmeSigningSecret0123456789']);
    expect(await db.database.apiKeys.authenticate('service_prod_acmeProdKey0123456789abcdef')).toMatchObject({
      organisationId: acme.id,
      environment: Environment.Production,
      organisationDeleted: false,
    });
    expect(await db.database.organisations.findById(beta.id)).toMatchObject({ name: 'Beta GmbH', tier: 'free', includedPagesPerMonth: 100, retentionDays: null });
  });

  it('2.3: versions hold the DSL, sample data {data, i18n} (file references resolved), translations and naming', async () => {
    const invoice = first.organisations[0].projects[0].templates[0];
    const template = await db.database.templates.findById(first.organisations[0].id, invoice.id);
    expect(template).toMatchObject({ name: 'Invoice', documentNameTemplate: 'Invoice {{number}}', projectName: 'Billing', latestVersionNumber: 1, versionCount: 2, updatedBy: 'seed' });
    const v1 = await db.database.templateVersions.findByNumber(invoice.id, 1);
    const v2 = await db.database.templateVersions.findByNumber(invoice.id, 2);
    expect(JSON.parse(v1!.templateJson)).toEqual(JSON.parse(readFileSync(path.join(OK_DIR, 'invoice.template.json'), 'utf8')));
    expect(JSON.parse(v1!.sampleData)).toEqual({ data: { number: 'INV-1', total: 42 }, i18n: {} });
    expect(v1).toMatchObject({ translations: null, documentNameTemplate: null, publishedBy: 'seed' });
    expect(JSON.parse(v2!.sampleData)).toEqual({ data: { number: 'INV-2', total: 7 }, i18n: { language: 'de' } });
    expect(JSON.parse(v2!.translations!)).toEqual({ defaultLanguage: 'de', languages: { de: { locale: 'de-DE', strings: { Invoice: 'Rechnung' } } } });
    expect(v2).toMatchObject({ documentNameTemplate: 'Invoice {{number}} (draft)', publishedAt: null });
    const letter = await db.database.templateVersions.findByNumber(first.organisations[0].templates[0].id, 1);
    expect(JSON.parse(letter!.sampleData)).toEqual({ data: {}, i18n: {} });
  });

  it('applied twice gives one state: the same ids and every table row for row unchanged', async () => {
    const before = await dumpAllTables(db);
    const second = await applySeed(db.database, acmeSeed(), OK_DIR, { now: new Date('2026-11-22T10:00:00Z') });
    expect(second).toEqual(first);
    expect(await dumpAllTables(db)).toEqual(before);
  });

  it('5: no API key plaintext (nor its secret part) is stored in any text, varchar or jsonb column', async () => {
    const columns = (await db.dataSource.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND data_type IN ('text', 'character varying', 'jsonb', 'json')`,
    )) as { table_name: string; column_name: string }[];
    expect(columns.length).toBeGreaterThan(20);
    for (const key of seedKeys(acmeSeed())) {
      const secretPart = key.slice('service_test_'.length + 12);
      for (const { table_name, column_name } of columns) {
        const rows = (await db.dataSource.query(
          `SELECT count(*)::int AS n FROM ${table_name} WHERE strpos(${column_name}::text, $1) > 0 OR strpos(${column_name}::text, $2) > 0`,
          [key, secretPart],
        )) as { n: number }[];
        expect({ table: table_name, column: column_name, key, hits: rows[0].n }).toEqual({ table: table_name, column: column_name, key, hits: 0 });
      }
    }
  });

  it('a changed field is applied, a new version is added, and a revoked key stays revoked', async () => {
    const seed = acmeSeed() as { organisations: Record<string, unknown>[] };
    seed.organisations[0].userCount = 9;
    const letter = (seed.organisations[0].templates as { versions: unknown[] }[])[0];
    letter.versions.push({ template: { dsl: 1, body: [{ type: 'text', id: 'greeting', text: 'Dear {{ name }}' }] }, published: false });
    const [testKey] = first.organisations[0].apiKeys;
    await db.database.apiKeys.revoke(testKey.id);

    const result = await applySeed(db.database, seed, OK_DIR);
    expect((await db.database.organisations.findById(result.organisations[0].id))?.userCount).toBe(9);
    expect(result.organisations[0].templates[0].versions.map((v) => v.versionNumber)).toEqual([1, 2]);
    expect(result.organisations[0].apiKeys[0]).toMatchObject({ id: testKey.id, revoked: true });
  });

  it('3.4: a published version never changes: a differing entry is an error naming it, and nothing is applied', async () => {
    const seed = acmeSeed() as { organisations: Record<string, unknown>[] };
    seed.organisations[0].userCount = 77;
    (seed.organisations[0].templates as { versions: { template: unknown }[] }[])[0].versions[0].template = CHANGED_TEMPLATE;
    await expect(applySeed(db.database, seed, OK_DIR)).rejects.toThrow(
      /^organisations\[0\]\.templates\[0\]\.versions\[0\]: version 1 is published and differs/,
    );
    expect((await db.database.organisations.findById(first.organisations[0].id))?.userCount).toBe(9);

    const replaced = await applySeed(db.database, seed, OK_DIR, { allowPublishedChanges: true });
    const version = await db.database.templateVersions.findByNumber(replaced.organisations[0].templates[0].id, 1);
    expect(JSON.parse(version!.templateJson)).toEqual(CHANGED_TEMPLATE);
    expect(version!.publishedAt).not.toBeNull();
  });

  it('an API key of another organisation is refused with the entry named', async () => {
    const seed = { organisations: [{ name: 'Thief Ltd', apiKeys: ['service_test_betaTestKey0123456789abcdef'] }] };
    await expect(applySeed(db.database, seed, OK_DIR)).rejects.toThrow(
      /^organisations\[0\]\.apiKeys\[0\]: .*another organisation/,
    );
    expect(await db.database.organisations.findLiveByName('Thief Ltd')).toEqual([]);
  });

  it.each([
    ['api-key-without-prefix.json', /^organisations\[0\]\.apiKeys\[1\]: must start with service_test_ or service_prod_$/],
    ['unknown-field.json', /^organisations\[0\]\.projects\[0\]\.colour: unknown field/],
    ['missing-template-file.json', /^organisations\[0\]\.templates\[0\]\.versions\[0\]\.template\.file: nowhere\.json cannot be read \(ENOENT\)$/],
    ['bad-webhook-secret.json', /^organisations\[0\]\.webhookSecret: must start with whsec_$/],
    ['negative-allowance.json', /^organisations\[0\]\.includedRendersPerMonth: must be a whole number >= 0$/],
    ['sample-data-without-data.json', /^organisations\[0\]\.templates\[0\]\.versions\[0\]\.sampleData: must be an object with a "data" member/],
    // Issue 31 item 4: the render's own check (checkTemplateVersion), before anything is written.
    ['unknown-function.json', /^organisations\[0\]\.templates\[0\]\.versions\[0\]: the template version is invalid: \$\.body\[0\]\.text: binding syntax error at character \d+: unknown function "frobnicate"/],
    ['old-translations.json', /^organisations\[0\]\.templates\[0\]\.versions\[0\]: the template version is invalid: translations: must be /],
    ['bad-document-name.json', /^organisations\[0\]\.templates\[0\]\.documentNameTemplate: binding syntax error at character \d+: unclosed/],
  ])('a bad seed file (%s) is refused with the bad entry named', async (file, message) => {
    const seed: unknown = JSON.parse(readFileSync(path.join(NOT_OK_DIR, file), 'utf8'));
    const attempt = applySeed(db.database, seed, NOT_OK_DIR);
    await expect(attempt).rejects.toThrow(SeedFileError);
    await expect(applySeed(db.database, seed, NOT_OK_DIR)).rejects.toThrow(message);
  });
});
