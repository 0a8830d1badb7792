import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DocumentType, Environment } from '@docrender/contracts';
import { FilesystemBlobStore } from '@docrender/storage';
import { suiteDatabase } from '../../test/suite-database';
import { provisionTestOrganisationWithTemplate } from '../../test/suite-fixtures';
import { RetentionPurge } from './retention-purge.service';

describe('RetentionPurge against PostgreSQL and the filesystem blob store', () => {
  const db = suiteDatabase();
  let blobDir: string;
  let blobs: FilesystemBlobStore;
  const now = new Date('2026-11-21T00:00:00Z');
  const daysAgo = (n: number) => new Date(now.getTime() - n * 86_400_000);

  beforeAll(async () => {
    blobDir = await mkdtemp(path.join(os.tmpdir(), 'docrender-retention-'));
    blobs = await FilesystemBlobStore.open(blobDir);
  });
  afterAll(async () => {
    await rm(blobDir, { recursive: true, force: true });
  });

  async function organisationWithDocuments(retentionDays: number | null, ages: number[]) {
    const { organisationId, templateId } = await provisionTestOrganisationWithTemplate(db.database, 'Keeper', { retentionDays }, now);
    const documents = [];
    for (const age of ages) {
      const key = `organisations/${organisationId}/documents/${age}.pdf`;
      await blobs.put(key, Buffer.from('%PDF-1.7'), 'application/pdf');
      documents.push(
        await db.database.documents.create({
          organisationId,
          templateId,
          versionNumber: 1,
          environment: Environment.Test,
          language: null,
          documentName: `Doc ${age}`,
          documentType: DocumentType.Template,
          pdfBlobKey: key,
          fileSizeBytes: 8,
          pageCount: 1,
          renderedAt: daysAgo(age),
          renderDurationMs: 10,
        }),
      );
    }
    return { organisationId, documents };
  }

  it('3.3: by policy, PDFs past the organisation\'s retention are deleted from storage and flagged; metadata stays', async () => {
    const keepy = await organisationWithDocuments(30, [1, 29, 31, 90]);
    const forever = await organisationWithDocuments(null, [400]);
    const report = await new RetentionPurge(db.database.documents, blobs).purgeByRetentionPolicy(now);
    expect(report).toEqual({ purged: 2, failures: [] });

    for (const doc of keepy.documents) {
      const stored = await db.database.documents.findById(keepy.organisationId, doc.id);
      const expired = doc.renderedAt < daysAgo(30);
      expect(stored?.isPdfDeleted).toBe(expired);
      expect(stored?.documentName).toBe(doc.documentName);
      expect(await blobs.stat(doc.pdfBlobKey)).toEqual(expired ? null : expect.objectContaining({ sizeBytes: 8 }));
    }
    const kept = await db.database.documents.findById(forever.organisationId, forever.documents[0].id);
    expect(kept?.isPdfDeleted).toBe(false);
  });

  it('3.3: an explicit cutoff purges every organisation\'s older PDFs, and a second run finds nothing', async () => {
    const { organisationId, documents } = await organisationWithDocuments(null, [5, 15]);
    const purge = new RetentionPurge(db.database.documents, blobs);
    const report = await purge.purgeOlderThan(daysAgo(10), { organisationId });
    expect(report.purged).toBe(1);
    expect((await db.database.documents.findById(organisationId, documents[1].id))?.isPdfDeleted).toBe(true);
    expect(await purge.purgeOlderThan(daysAgo(10), { organisationId })).toEqual({ purged: 0, failures: [] });
  });
});
