import { randomUUID } from 'node:crypto';
import { JobState, type Environment } from '@docrender/contracts';
import { provisionOrganisation, type Database } from '@docrender/persistence';
import type { RenderJobRecord } from '@docrender/rendering';
import type { BlobStore } from '@docrender/storage';
import type { StandInDocument } from './render-stand-in';

export type TestTenant = { organisationId: string; templateId: string; webhookSecret: string };

/** What the published version holds; by default a stand-in template (the render stand-in ignores it). */
export type TemplateContent = { templateJson: string; sampleData: string; translations: string | null };

const STAND_IN_TEMPLATE: TemplateContent = {
  templateJson: JSON.stringify({ pages: [] }),
  sampleData: JSON.stringify({ data: {}, i18n: {} }),
  translations: JSON.stringify({ defaultLanguage: 'en', languages: { en: { strings: { title: 'Invoice' } }, de: { strings: { title: 'Rechnung' } } } }),
};

/** An organisation with `pages` of credit, a webhook secret, and a template with one published version. */
export async function provisionTenant(
  db: Database,
  options: { pages: number; retentionDays?: number | null; name?: string; template?: TemplateContent },
): Promise<TestTenant> {
  const { organisation, webhookSecret } = await db.transaction((r) =>
    provisionOrganisation(r, {
      name: options.name ?? 'Async Org',
      tier: 'pro',
      includedPagesPerMonth: options.pages,
      includedTokensPerMonth: 0,
      retentionDays: options.retentionDays ?? null,
      userCount: 1,
    }),
  );
  const template = await db.templates.create({ organisationId: organisation.id, projectId: null, name: 'Invoice', documentNameTemplate: null, updatedBy: 'test' });
  await db.templateVersions.addVersion(template.id, { ...(options.template ?? STAND_IN_TEMPLATE), documentNameTemplate: null }, { author: 'test', publish: true });
  return { organisationId: organisation.id, templateId: template.id, webhookSecret };
}

export type StoredJobInput = {
  environment: Environment;
  documents: StandInDocument[];
  callbackUrl: string;
  persist?: boolean;
  includeDocument?: boolean;
};

/** Stores a queued job the way the gateway's enqueue does (inputs in the blob store, job + outbox row in one transaction). */
export async function storeQueuedJob(db: Database, blobs: BlobStore, tenant: Pick<TestTenant, 'organisationId' | 'templateId'>, input: StoredJobInput): Promise<RenderJobRecord> {
  const id = randomUUID();
  const inputBlobKey = `jobs/${id}/input`;
  await Promise.all(input.documents.map((d, i) => blobs.put(`${inputBlobKey}/${i}.json`, Buffer.from(JSON.stringify(d)), 'application/json')));
  const job = await db.renderJobs.createQueued({
    id,
    organisationId: tenant.organisationId,
    templateId: tenant.templateId,
    versionNumber: 1,
    environment: input.environment,
    language: null,
    persist: input.persist ?? true,
    includeDocument: input.includeDocument ?? false,
    callbackUrl: input.callbackUrl,
    inputBlobKey,
    requestedCount: input.documents.length,
  });
  if (job.state !== JobState.Pending) throw new Error('a new job is pending');
  return job;
}

/** `n` documents of the scenario with `pages` pages each. */
export const documentsOf = (n: number, scenario: StandInDocument['scenario'] = 'ok', pages = 1): StandInDocument[] =>
  Array.from({ length: n }, (_, i) => ({ scenario, pages, invoiceNumber: `2026-${String(i + 1).padStart(4, '0')}` }));
