import { randomUUID } from 'node:crypto';
import { suiteDatabase } from '../../test/suite-database';
import { provisionOrganisation } from '../provisioning/organisation-provisioning';
import { MIGRATIONS_TABLE, pendingMigrations, revertMigrations, runMigrations } from '../data-source';
import { MIGRATIONS } from './index';

/** The tables of the initial schema (later migrations may add more). */
const EXPECTED_TABLES = [
  'api_keys',
  'documents',
  'font_families',
  'font_files',
  'organisations',
  'outbox',
  'projects',
  'rate_limit_permits',
  'render_job_documents',
  'render_job_issues',
  'render_jobs',
  'template_versions',
  'templates',
  'usage_periods',
  'webhook_secrets',
  // issue 35: the workspace's users and sessions
  'workspace_sessions',
  'workspace_users',
  // issue 35 item 1: invitations
  'workspace_invitations',
];

describe('migrations', () => {
  const db = suiteDatabase({ migrate: false });

  async function tables(): Promise<string[]> {
    const rows = (await db.dataSource.query(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> $1 ORDER BY tablename`,
      [MIGRATIONS_TABLE],
    )) as { tablename: string }[];
    return rows.map((r) => r.tablename);
  }

  it('apply on an empty database, create every table, and leave nothing pending', async () => {
    expect(await tables()).toEqual([]);
    expect(await runMigrations(db.dataSource)).toEqual(MIGRATIONS.map((m) => new m().name));
    expect(await tables()).toEqual(expect.arrayContaining(EXPECTED_TABLES));
    expect(await pendingMigrations(db.dataSource)).toEqual([]);
    expect(await runMigrations(db.dataSource)).toEqual([]);
  });

  it('4.1: the listing indexes exist (documents by org + renderedAt, templates by org + updatedAt/name, versions by template + number)', async () => {
    const rows = (await db.dataSource.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public'`)) as { indexdef: string }[];
    const defs = rows.map((r) => r.indexdef);
    expect(defs).toEqual(
      expect.arrayContaining([
        expect.stringContaining('ON public.documents USING btree (organisation_id, rendered_at, id)'),
        expect.stringContaining('ON public.templates USING btree (organisation_id, updated_at, id)'),
        expect.stringContaining('ON public.templates USING btree (organisation_id, name, id)'),
        expect.stringMatching(/UNIQUE INDEX .* ON public\.template_versions USING btree \(template_id, version_number\)/),
        expect.stringContaining('ON public.rate_limit_permits USING btree (organisation_id, category, permitted_at)'),
      ]),
    );
  });

  it('2.10: render_jobs.recorded_count starts as the count of the outcomes recorded before it existed', async () => {
    // the API keys' last use, the workspace's invitations, the undelivered renders, the workspace's users, the documents' conformance, the deferred document reference,
    // then recorded_count
    expect(await revertMigrations(db.dataSource)).toBe(1);
    expect(await revertMigrations(db.dataSource)).toBe(1);
    expect(await revertMigrations(db.dataSource)).toBe(1);
    expect(await revertMigrations(db.dataSource)).toBe(1);
    expect(await revertMigrations(db.dataSource)).toBe(1);
    expect(await revertMigrations(db.dataSource)).toBe(1);
    expect(await revertMigrations(db.dataSource)).toBe(1);
    const { organisation } = await db.database.transaction((r) =>
      provisionOrganisation(r, { name: 'Counted', tier: 'pro', includedPagesPerMonth: 10, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
    );
    const template = await db.database.templates.create({ organisationId: organisation.id, projectId: null, name: 'T', documentNameTemplate: null, updatedBy: 'a' });
    const [counted, empty] = [randomUUID(), randomUUID()];
    for (const id of [counted, empty]) {
      await db.dataSource.query(
        `INSERT INTO render_jobs (id, organisation_id, template_id, version_number, environment, language, persist, include_document, callback_url, input_blob_key, state, requested_count)
         VALUES ($1, $2, $3, 1, 'test', NULL, true, false, 'https://hooks.example/cb', 'jobs/x', 'pending', 3)`,
        [id, organisation.id, template.id],
      );
    }
    await db.dataSource.query(`INSERT INTO render_job_documents (job_id, document_index, outcome) VALUES ($1, 0, 'rendered'), ($1, 2, 'blocked')`, [counted]);
    await runMigrations(db.dataSource);
    const rows = (await db.dataSource.query(`SELECT id, recorded_count FROM render_jobs WHERE id = ANY($1::uuid[])`, [[counted, empty]])) as { id: string; recorded_count: number }[];
    expect(Object.fromEntries(rows.map((r) => [r.id, r.recorded_count]))).toEqual({ [counted]: 2, [empty]: 0 });
  });

  it('revert fully, down to no tables, and apply again', async () => {
    expect(await revertMigrations(db.dataSource, { all: true })).toBe(MIGRATIONS.length);
    expect(await tables()).toEqual([]);
    expect(await pendingMigrations(db.dataSource)).toHaveLength(MIGRATIONS.length);
    await runMigrations(db.dataSource);
    expect(await tables()).toEqual(expect.arrayContaining(EXPECTED_TABLES));
  });
});
