import { jobsSettings, Settings } from '@docrender/config';
import { DocumentType, Environment } from '@docrender/contracts';
import { createTestDatabase, type TestDatabase, testLogger, provisionTenant } from '@docrender/testing';
import { FilesystemBlobStore } from '@docrender/storage';
import { ExclusivePasses } from '@docrender/persistence';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { RETENTION_SWEEP_LOCK_KEY, RetentionSweepService } from './retention-sweep.service';

describe('retention sweep (spec 3.3) against PostgreSQL', () => {
  let db: TestDatabase;
  let blobDir: string;
  let blobs: FilesystemBlobStore;
  const now = new Date();
  const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);

  beforeAll(async () => {
    db = await createTestDatabase();
    blobDir = await mkdtemp(path.join(os.tmpdir(), 'docrender-sweep-'));
    blobs = await FilesystemBlobStore.open(blobDir);
  });
  afterAll(async () => {
    await db.drop();
    await rm(blobDir, { recursive: true, force: true });
  });

  async function documentRendered(organisationId: string, templateId: string, age: number) {
    const key = `organisations/${organisationId}/documents/${age}-${Math.random().toString(36).slice(2)}.pdf`;
    await blobs.put(key, Buffer.from('%PDF-1.7'), 'application/pdf');
    return db.database.documents.create({
      organisationId,
      templateId,
      versionNumber: 1,
      environment: Environment.Production,
      language: null,
      documentName: `Doc ${age}`,
      documentType: DocumentType.Template,
      pdfBlobKey: key,
      fileSizeBytes: 8,
      pageCount: 1,
      renderedAt: daysAgo(age),
      renderDurationMs: 5,
    });
  }

  const sweepService = () => new RetentionSweepService(new ExclusivePasses(db.database), db.database.documents, blobs, testLogger('job-worker'), Settings.load([jobsSettings], {}));

  it('3.3: the sweep purges PDFs past the organisation retention period, keeping metadata with isPdfDeleted', async () => {
    const tenant = await provisionTenant(db.database, { pages: 0, retentionDays: 7 });
    const old = await documentRendered(tenant.organisationId, tenant.templateId, 8);
    const fresh = await documentRendered(tenant.organisationId, tenant.templateId, 6);
    const report = await sweepService().sweep(now);
    expect(report).toEqual({ purged: 1, failures: [] });
    expect(await db.database.documents.findById(tenant.organisationId, old.id)).toMatchObject({ isPdfDeleted: true, pdfBlobKey: old.pdfBlobKey });
    expect(await blobs.stat(old.pdfBlobKey)).toBeNull();
    expect(await db.database.documents.findById(tenant.organisationId, fresh.id)).toMatchObject({ isPdfDeleted: false });
    expect(await blobs.stat(fresh.pdfBlobKey)).not.toBeNull();
  });

  it('3.3: safe on several replicas: while one sweeps (holds the lock) another skips; sweeps at once purge each PDF once', async () => {
    const tenant = await provisionTenant(db.database, { pages: 0, retentionDays: 1 });
    const holder = db.dataSource.createQueryRunner();
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [RETENTION_SWEEP_LOCK_KEY]);
    const old = await documentRendered(tenant.organisationId, tenant.templateId, 30);
    try {
      expect(await sweepService().sweep(now)).toBeNull();
      expect(await db.database.documents.findById(tenant.organisationId, old.id)).toMatchObject({ isPdfDeleted: false });
    } finally {
      await holder.query('SELECT pg_advisory_unlock($1)', [RETENTION_SWEEP_LOCK_KEY]);
      await holder.release();
    }
    for (let i = 0; i < 20; i++) await documentRendered(tenant.organisationId, tenant.templateId, 10);
    const reports = await Promise.all([sweepService().sweep(now), sweepService().sweep(now), sweepService().sweep(now)]);
    const purged = reports.reduce((sum, r) => sum + (r?.purged ?? 0), 0);
    expect(purged).toBe(21);
    const [{ count }] = (await db.dataSource.query(`SELECT count(*)::int AS count FROM documents WHERE organisation_id = $1 AND is_pdf_deleted = false`, [
      tenant.organisationId,
    ])) as { count: number }[];
    expect(count).toBe(0);
  });

  it('3.3: organisations without a retention policy keep their PDFs', async () => {
    const tenant = await provisionTenant(db.database, { pages: 0, retentionDays: null });
    const ancient = await documentRendered(tenant.organisationId, tenant.templateId, 3650);
    await sweepService().sweep(now);
    expect(await db.database.documents.findById(tenant.organisationId, ancient.id)).toMatchObject({ isPdfDeleted: false });
  });
});
