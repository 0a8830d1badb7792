import { MemoryBlobStore } from '@docrender/storage';
import type { PurgeCandidate } from '../repositories/stored-document.repository';
import { RetentionPurge, type PurgeableDocuments } from './retention-purge.service';

/** The unit tests' blob store, whose deletes can be made to fail for chosen keys. */
class FakeBlobStore extends MemoryBlobStore {
  readonly failingKeys = new Set<string>();
  override async delete(key: string): Promise<void> {
    if (this.failingKeys.has(key)) throw new Error(`storage refused ${key}`);
    return super.delete(key);
  }
}

type FakeDocument = PurgeCandidate & { isPdfDeleted: boolean; retentionDays: number | null };

/** In-memory documents with the three queries the purge uses. */
class FakeDocuments implements PurgeableDocuments {
  constructor(readonly rows: FakeDocument[]) {}
  async findPurgeable(cutoff: Date, options: { organisationId?: string; limit: number }): Promise<PurgeCandidate[]> {
    return this.live()
      .filter((d) => d.renderedAt < cutoff && (options.organisationId === undefined || d.organisationId === options.organisationId))
      .slice(0, options.limit);
  }
  async findBeyondRetention(now: Date, limit: number): Promise<PurgeCandidate[]> {
    return this.live()
      .filter((d) => d.retentionDays !== null && d.renderedAt.getTime() < now.getTime() - d.retentionDays * 86_400_000)
      .slice(0, limit);
  }
  async markPdfDeleted(ids: readonly string[]): Promise<number> {
    let n = 0;
    for (const d of this.rows) {
      if (ids.includes(d.id) && !d.isPdfDeleted) {
        d.isPdfDeleted = true;
        n++;
      }
    }
    return n;
  }
  private live(): FakeDocument[] {
    return this.rows.filter((d) => !d.isPdfDeleted).sort((a, b) => a.renderedAt.getTime() - b.renderedAt.getTime());
  }
}

const day = (n: number) => new Date(Date.UTC(2026, 10, n));

function setup(count: number, organisationOf: (i: number) => string = () => 'org-a', retentionDays: number | null = 30) {
  const blobs = new FakeBlobStore();
  const rows: FakeDocument[] = Array.from({ length: count }, (_, i) => ({
    id: `doc-${i}`,
    organisationId: organisationOf(i),
    pdfBlobKey: `pdf/${i}.pdf`,
    renderedAt: day(1 + (i % 28)),
    isPdfDeleted: false,
    retentionDays,
  }));
  for (const r of rows) blobs.blobs.set(r.pdfBlobKey, Buffer.from('%PDF'));
  return { blobs, documents: new FakeDocuments(rows) };
}

describe('RetentionPurge', () => {
  it('3.3: deletes the PDFs older than the cutoff across batches and marks them isPdfDeleted; newer ones stay', async () => {
    const { blobs, documents } = setup(50);
    const purge = new RetentionPurge(documents, blobs, { batchSize: 7, concurrency: 3 });
    const report = await purge.purgeOlderThan(day(11));
    const old = documents.rows.filter((d) => d.renderedAt < day(11));
    expect(report).toEqual({ purged: old.length, failures: [] });
    for (const d of documents.rows) {
      const isOld = d.renderedAt < day(11);
      expect(d.isPdfDeleted).toBe(isOld);
      expect(blobs.blobs.has(d.pdfBlobKey)).toBe(!isOld);
    }
  });

  it('3.3: a PDF whose deletion fails stays unmarked and is reported; the others are purged; a later run completes it', async () => {
    const { blobs, documents } = setup(10);
    blobs.failingKeys.add('pdf/2.pdf');
    const purge = new RetentionPurge(documents, blobs, { batchSize: 4 });
    const report = await purge.purgeOlderThan(day(30));
    expect(report.purged).toBe(9);
    expect(report.failures).toEqual([{ documentId: 'doc-2', reason: 'storage refused pdf/2.pdf' }]);
    expect(documents.rows.find((d) => d.id === 'doc-2')?.isPdfDeleted).toBe(false);

    blobs.failingKeys.clear();
    expect(await purge.purgeOlderThan(day(30))).toEqual({ purged: 1, failures: [] });
  });

  it('stops when a whole batch fails instead of retrying it forever', async () => {
    const { blobs, documents } = setup(6);
    for (let i = 0; i < 6; i++) blobs.failingKeys.add(`pdf/${i}.pdf`);
    const report = await new RetentionPurge(documents, blobs, { batchSize: 3 }).purgeOlderThan(day(30));
    expect(report.purged).toBe(0);
    expect(report.failures.map((f) => f.documentId)).toEqual(['doc-0', 'doc-1', 'doc-2']);
  });

  it('purges only the given organisation when asked', async () => {
    const { blobs, documents } = setup(10, (i) => (i % 2 === 0 ? 'org-a' : 'org-b'));
    const report = await new RetentionPurge(documents, blobs).purgeOlderThan(day(30), { organisationId: 'org-b' });
    expect(report.purged).toBe(5);
    expect(documents.rows.filter((d) => d.isPdfDeleted).every((d) => d.organisationId === 'org-b')).toBe(true);
  });

  it('3.3: by policy, purges what is older than each organisation\'s retentionDays', async () => {
    const { blobs, documents } = setup(28, () => 'org-a', 10);
    const report = await new RetentionPurge(documents, blobs).purgeByRetentionPolicy(day(21));
    // rendered on days 1..10 are more than 10 days before day 21
    expect(report.purged).toBe(10);
  });
});
