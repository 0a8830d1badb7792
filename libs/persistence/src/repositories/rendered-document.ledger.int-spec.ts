import { randomUUID } from 'node:crypto';
import { DependencyOutageError, DocumentType, Environment, OutcomeUnknownError } from '@docrender/contracts';
import { provisionTenant, startTcpFaultProxy, TEST_API_KEY_PEPPER, waitFor, type TcpFaultProxy, type TestTenant } from '@docrender/testing';
import { suiteDatabase } from '../../test/suite-database';
import { Database } from '../database';
import type { RenderedDocumentEntry } from '@docrender/rendering';

const APPLICATION = 'ledger-under-test';

/**
 * Issue 31 item 6 (decision 0028): the ledger of sync renders tells a recording that never reached PostgreSQL from one
 * whose connection was lost with the statement sent, which may have been committed. The ledger's database is reached
 * through a TCP fault proxy that the test cuts; the test's own connection reaches PostgreSQL directly.
 */
describe('RenderedDocumentLedger when PostgreSQL goes away (TCP cut)', () => {
  let proxy: TcpFaultProxy;
  let ledgerDatabase: Database;
  let tenant: TestTenant;

  // declared before the suite database, so it runs before the database is dropped
  afterAll(async () => {
    await ledgerDatabase?.close().catch(() => undefined);
    await proxy?.close();
  });
  const db = suiteDatabase();

  beforeAll(async () => {
    const url = new URL(db.url);
    proxy = await startTcpFaultProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    ledgerDatabase = await Database.open({ url: url.toString(), poolSize: 2, applicationName: APPLICATION, apiKeyPepper: TEST_API_KEY_PEPPER, migrate: false });
    tenant = await provisionTenant(db.database, { pages: 1000 });
  });

  const entry = (id: string): RenderedDocumentEntry => {
    const now = new Date();
    return {
      payment: { organisationId: tenant.organisationId, pages: 2 },
      document: {
        id,
        organisationId: tenant.organisationId,
        templateId: tenant.templateId,
        versionNumber: 1,
        environment: Environment.Production,
        language: null,
        documentName: 'Invoice',
        documentType: DocumentType.Template,
        pdfBlobKey: `organisations/${tenant.organisationId}/documents/${id}.pdf`,
        fileSizeBytes: 10,
        pageCount: 2,
        renderedAt: now,
        renderDurationMs: 5,
      },
      renderedAt: now,
    };
  };
  const stored = async (id: string): Promise<boolean> => ((await db.dataSource.query(`SELECT 1 FROM documents WHERE id = $1`, [id])) as unknown[]).length === 1;
  const pagesUsed = async (): Promise<number> =>
    ((await db.dataSource.query(`SELECT pages_used FROM usage_periods WHERE organisation_id = $1`, [tenant.organisationId])) as { pages_used: number }[])[0].pages_used;

  it('a connection lost with the statement sent is OutcomeUnknownError, and the statement may indeed commit after it', async () => {
    proxy.forward();
    const id = randomUUID();
    const before = await pagesUsed();
    // The test holds the organisation's usage row, so the recording's statement waits at PostgreSQL, sent.
    const lock = db.dataSource.createQueryRunner();
    await lock.connect();
    await lock.startTransaction();
    try {
      await lock.query(`SELECT 1 FROM usage_periods WHERE organisation_id = $1 FOR UPDATE`, [tenant.organisationId]);
      const recording = ledgerDatabase.renderedDocuments.record(entry(id));
      recording.catch(() => undefined);
      await waitFor('the recording waiting for the usage row', async () => {
        const rows = (await db.dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [APPLICATION])) as unknown[];
        return rows.length > 0 ? true : undefined;
      }, 30_000, 20);
      proxy.cut();
      const failure = await recording.then(() => null, (error: unknown) => error);
      expect(failure).toBeInstanceOf(OutcomeUnknownError);
      await lock.commitTransaction();
    } finally {
      if (lock.isTransactionActive) await lock.rollbackTransaction();
      await lock.release();
    }
    // PostgreSQL finishes the statement it was sent: the document is stored and paid although its sender saw an error.
    await waitFor('the orphaned statement to commit', async () => ((await stored(id)) ? true : undefined), 30_000, 50);
    expect(await pagesUsed()).toBe(before + 2);
  });

  it('a recording that cannot reach PostgreSQL is DependencyOutageError (not OutcomeUnknownError) and stores and takes nothing', async () => {
    proxy.cut();
    const id = randomUUID();
    const before = await pagesUsed();
    // Connections the cut left in the pool fail first; a fresh one is refused before anything is sent.
    const failure = await waitFor('a refusal before anything was sent', async () => {
      const error = await ledgerDatabase.renderedDocuments.record(entry(id)).then(() => null, (e: unknown) => e);
      return error instanceof OutcomeUnknownError ? undefined : error;
    }, 30_000, 50);
    expect(failure).toBeInstanceOf(DependencyOutageError);
    expect(failure).not.toBeInstanceOf(OutcomeUnknownError);
    expect(await stored(id)).toBe(false);
    expect(await pagesUsed()).toBe(before);
  });
});
