import { randomUUID } from 'node:crypto';
import { DocumentType, Environment } from '@docrender/contracts';
import { suiteDatabase } from '../../test/suite-database';
import { provisionOrganisation } from '../provisioning/organisation-provisioning';
import type { NewStoredDocument } from './stored-document.repository';

describe('StoredDocumentRepository.createPaid (real PostgreSQL)', () => {
  const db = suiteDatabase();
  const now = new Date('2026-11-21T12:00:00Z');

  /** An organisation with an allowance and a template to render, optionally with its billing period started long ago. */
  const organisationWith = async (includedPagesPerMonth: number, billingPeriodStart?: Date) => {
    const { organisation } = await db.database.transaction((r) =>
      provisionOrganisation(
        r,
        { name: 'Docs Ltd', tier: 'growth', includedPagesPerMonth, includedTokensPerMonth: 0, retentionDays: null, userCount: 1, billingPeriodStart },
        billingPeriodStart ?? now,
      ),
    );
    const template = await db.database.templates.create({ organisationId: organisation.id, projectId: null, name: 'Invoice', documentNameTemplate: null, updatedBy: 'test' });
    return { organisationId: organisation.id, templateId: template.id };
  };

  const documentOf = (owner: { organisationId: string; templateId: string }, pageCount: number): NewStoredDocument => {
    const id = randomUUID();
    return {
      id,
      organisationId: owner.organisationId,
      templateId: owner.templateId,
      versionNumber: 1,
      environment: Environment.Production,
      language: 'de',
      documentName: `Invoice ${id.slice(0, 8)}`,
      documentType: DocumentType.Template,
      pdfBlobKey: `organisations/${owner.organisationId}/documents/${id}.pdf`,
      fileSizeBytes: 31_337,
      pageCount,
      renderedAt: now,
      renderDurationMs: 84,
    };
  };

  const documentCount = async (organisationId: string) =>
    Number(((await db.dataSource.query('SELECT count(*) AS n FROM documents WHERE organisation_id = $1', [organisationId])) as { n: string }[])[0].n);

  it('3.1 rule 3 and 4.2 persist: takes the pages and stores the document, every field as given', async () => {
    const owner = await organisationWith(10);
    const input = documentOf(owner, 3);
    const created = await db.database.documents.createPaid(input, now);
    expect(created).toEqual({ ...input, renderJobId: null, conformance: null, isPdfDeleted: false, createdAt: now, updatedAt: now });
    expect(await db.database.documents.findById(owner.organisationId, input.id ?? '')).toEqual(created);
    expect((await db.database.usage.getUsage(owner.organisationId, now)).pagesUsed).toBe(3);
  });

  it('issue 34 item 5: a stored document keeps its conformance, paid in one statement or created unpaid', async () => {
    const owner = await organisationWith(10);
    const conformance = { pdfA: 'PDF/A-3b' as const, pdfUA: null, checks: 'passed' as const, rules: ['6.1.3', '6.8'], eInvoice: 'en16931' as const };
    const paid = await db.database.documents.createPaid({ ...documentOf(owner, 1), conformance }, now);
    const unpaid = await db.database.documents.create({ ...documentOf(owner, 1), conformance }, now);
    for (const stored of [paid, unpaid]) {
      expect(stored?.conformance).toEqual(conformance);
      expect((await db.database.documents.findById(owner.organisationId, stored?.id ?? ''))?.conformance).toEqual(conformance);
    }
  });

  it('3.1 rule 3: pages that do not fit store nothing and take nothing', async () => {
    const owner = await organisationWith(5);
    await db.database.usage.setPagesUsed(owner.organisationId, 4, now);
    expect(await db.database.documents.createPaid(documentOf(owner, 2), now)).toBeNull();
    expect(await documentCount(owner.organisationId)).toBe(0);
    expect((await db.database.usage.getUsage(owner.organisationId, now)).pagesUsed).toBe(4);
  });

  it('3.1 rule 3: after the billing period ended the period rolls over, then the document is paid and stored', async () => {
    const owner = await organisationWith(5, new Date('2026-08-15T00:00:00Z'));
    await db.database.usage.setPagesUsed(owner.organisationId, 5, new Date('2026-08-20T00:00:00Z'));
    expect(await db.database.documents.createPaid(documentOf(owner, 2), now)).not.toBeNull();
    expect(await db.database.usage.getUsage(owner.organisationId, now)).toMatchObject({ periodStart: new Date('2026-11-15T00:00:00Z'), pagesUsed: 2 });
    expect(await documentCount(owner.organisationId)).toBe(1);
  });

  it('3.1 rule 3: after the billing period ended, a document whose row cannot be stored takes no credit', async () => {
    const owner = await organisationWith(5, new Date('2026-08-15T00:00:00Z'));
    const stored = await db.database.documents.create(documentOf(owner, 1), new Date('2026-08-20T00:00:00Z'));
    // the same id again: the insert fails after the pages were taken, and the pages must come back with it
    await expect(db.database.documents.createPaid({ ...documentOf(owner, 2), id: stored.id }, now)).rejects.toThrow();
    expect((await db.database.usage.getUsage(owner.organisationId, now)).pagesUsed).toBe(0);
    expect(await documentCount(owner.organisationId)).toBe(1);
  });

  it('3.1 rule 3: concurrent paid documents at the boundary never overspend, and each paid one is stored', async () => {
    const owner = await organisationWith(25);
    await db.database.usage.setPagesUsed(owner.organisationId, 15, now);
    const wants = Array.from({ length: 20 }, (_, i) => (i % 3) + 1);
    const created = await Promise.all(wants.map((pages) => db.database.documents.createPaid(documentOf(owner, pages), now)));
    const paidPages = wants.filter((_, i) => created[i] !== null).reduce((a, b) => a + b, 0);
    const used = (await db.database.usage.getUsage(owner.organisationId, now)).pagesUsed;
    expect(used).toBe(15 + paidPages);
    expect(used).toBeLessThanOrEqual(25);
    expect(await documentCount(owner.organisationId)).toBe(created.filter((c) => c !== null).length);
    wants.forEach((pages, i) => {
      if (created[i] === null) expect(used + pages).toBeGreaterThan(25);
    });
  });
});
