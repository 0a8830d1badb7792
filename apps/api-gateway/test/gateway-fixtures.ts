import { DocumentType, Environment } from '@docrender/contracts';
import { expectAnswerMatchesContract } from '@docrender/testing';
import { provisionOrganisation, type Database, type StoredDocumentRecord, type TemplateRow, type TemplateVersionRecord } from '@docrender/persistence';
import type { BlobStore } from '@docrender/storage';

/** An organisation with one key of each environment. */
export type Tenant = { organisationId: string; name: string; testKey: string; prodKey: string };

export async function createTenant(
  db: Database,
  name: string,
  options: { includedPagesPerMonth?: number; includedTokensPerMonth?: number; tier?: string; userCount?: number } = {},
): Promise<Tenant> {
  const { organisation } = await db.transaction((repositories) =>
    provisionOrganisation(repositories, {
      name,
      tier: options.tier ?? 'pro',
      includedPagesPerMonth: options.includedPagesPerMonth ?? 1000,
      includedTokensPerMonth: options.includedTokensPerMonth ?? 5000,
      retentionDays: null,
      userCount: options.userCount ?? 3,
    }),
  );
  const test = await db.apiKeys.create(organisation.id, Environment.Test);
  const prod = await db.apiKeys.create(organisation.id, Environment.Production);
  return { organisationId: organisation.id, name, testKey: test.plaintextKey, prodKey: prod.plaintextKey };
}

/** A minimal valid template DSL document and its sample data (the gateway stores and returns them as text). */
export const SAMPLE_TEMPLATE = { version: 1, pages: [{ elements: [{ id: 'title', type: 'text', text: 'Invoice {{number}}' }] }] };
export const SAMPLE_DATA = { data: { number: 'INV-1' }, i18n: {} };

export async function createTemplate(
  db: Database,
  tenant: Tenant,
  input: { name: string; projectId?: string | null; versions?: { publish: boolean; at?: Date; documentNameTemplate?: string | null }[]; at?: Date },
): Promise<{ template: TemplateRow; versions: TemplateVersionRecord[] }> {
  const template = await db.templates.create(
    { organisationId: tenant.organisationId, projectId: input.projectId ?? null, name: input.name, documentNameTemplate: null, updatedBy: 'user-1' },
    input.at ?? new Date(),
  );
  const versions: TemplateVersionRecord[] = [];
  for (const v of input.versions ?? []) {
    versions.push(
      await db.templateVersions.addVersion(
        template.id,
        {
          templateJson: JSON.stringify(SAMPLE_TEMPLATE),
          sampleData: JSON.stringify(SAMPLE_DATA),
          translations: null,
          documentNameTemplate: v.documentNameTemplate ?? null,
        },
        { author: 'user-1', publish: v.publish, now: v.at },
      ),
    );
  }
  return { template, versions };
}

/** A one-page PDF small enough to write by hand (valid enough for viewers and for byte comparison). */
export const TINY_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
    '3 0 obj<</Type/Page/MediaBox[0 0 200 200]/Parent 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/** A stored document with its PDF in the blob store. */
export async function createDocument(
  db: Database,
  blobs: BlobStore,
  tenant: Tenant,
  input: Partial<Omit<StoredDocumentRecord, 'id' | 'organisationId'>> & { templateId: string },
): Promise<StoredDocumentRecord> {
  const pdf = TINY_PDF;
  const id = crypto.randomUUID();
  const pdfBlobKey = `organisations/${tenant.organisationId}/documents/${id}.pdf`;
  await blobs.put(pdfBlobKey, pdf, 'application/pdf');
  const now = input.renderedAt ?? new Date();
  return db.documents.create(
    {
      id,
      organisationId: tenant.organisationId,
      templateId: input.templateId,
      versionNumber: input.versionNumber ?? 1,
      environment: input.environment ?? Environment.Test,
      language: input.language ?? null,
      documentName: input.documentName ?? `Document ${id.slice(0, 8)}`,
      documentType: input.documentType ?? DocumentType.Template,
      pdfBlobKey,
      fileSizeBytes: input.fileSizeBytes ?? pdf.length,
      pageCount: input.pageCount ?? 1,
      renderedAt: now,
      renderDurationMs: input.renderDurationMs ?? 120,
    },
    input.createdAt ?? now,
  );
}

export type HttpAnswer = { status: number; headers: Headers; body: Buffer; json<T = Record<string, unknown>>(): T };

/** A small HTTP client for one gateway and one key (null: no Authorization header); every answer must match docs/openapi.json. */
export function client(baseUrl: string, key: string | null) {
  const send = async (method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer> => {
    const headers: Record<string, string> = { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...init.headers };
    if (init.body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(path.startsWith('http') ? path : `${baseUrl}${path}`, { method, headers, body: init.body });
    const body = Buffer.from(await response.arrayBuffer());
    expectAnswerMatchesContract({ method, url: response.url, status: response.status, headers: response.headers, body });
    return { status: response.status, headers: response.headers, body, json: <T>() => JSON.parse(body.toString('utf8')) as T };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => send('GET', path, { headers }),
    patch: (path: string, body: string, headers?: Record<string, string>) => send('PATCH', path, { body, headers }),
    send,
  };
}

export type ErrorBody = { error: { code: string; message: string } };
