// A program written against a client generated from docs/openapi.json by openapi-typescript + openapi-fetch, the way
// a user of another code base would write it: every endpoint, no casts, no `any`. The OpenAPI test generates
// `./openapi.d.ts` next to a copy of this file and type-checks it (issue 22: generated clients can trust the document).
// Not part of the project's own typecheck: it needs the generated file.
import createClient from 'openapi-fetch';
import type { components, paths } from './openapi';

type Schemas = components['schemas'];

// JSON answers by default (the second type argument); the PDF and PNG answers are read with `parseAs: 'blob'`.
const api = createClient<paths, 'application/json'>({ baseUrl: 'http://localhost:3000', headers: { Authorization: 'Bearer service_test_example' } });
const templateId = '3f6c2a4e-8b1d-4c7a-9e2f-5a1b0c9d8e7f';
const invoice = { number: 'INV-1', customer: { name: 'Globex' }, lines: [{ description: 'Consulting', quantity: 2, unitPrice: 120 }] };

function report(error: Schemas['ErrorEnvelopeDto'] | undefined): void {
  if (error) console.error(`${error.error.code}: ${error.error.message}`);
}

export async function everyEndpoint(): Promise<void> {
  // Listing contract: integers, enums of fields and operators.
  const templates = await api.GET('/v1/templates', {
    params: { query: { skip: 0, take: 25, sortBy: 'name', sortDirection: 'desc', search: 'invoice', 'filters[0].field': 'updatedAt', 'filters[0].op': 'gte', 'filters[0].value': '2026-01-01T00:00:00Z' } },
  });
  report(templates.error);
  const names: string[] = (templates.data?.items ?? []).map((t) => t.name);
  const latest: number | null | undefined = templates.data?.items[0]?.latestVersionNumber;
  const ofProject = await api.GET('/v1/projects/{projectId}/templates', { params: { path: { projectId: templateId } } });
  const projectName: string | null | undefined = ofProject.data?.items[0]?.projectName;
  const template = await api.GET('/v1/templates/{id}', { params: { path: { id: templateId } } });
  const versionCount: number | undefined = template.data?.versionCount;

  const versions = await api.GET('/v1/templates/{templateId}/versions', {
    params: { path: { templateId }, query: { sortBy: 'versionNumber', 'filters[0].field': 'publishedAt', 'filters[0].op': 'lt', 'filters[0].value': '2026-11-01' } },
  });
  const published: (string | null)[] = (versions.data?.items ?? []).map((v) => v.publishedAt);
  const newest = await api.GET('/v1/templates/{templateId}/versions/latest', { params: { path: { templateId } } });
  const templateJson: string | undefined = newest.data?.templateJson;
  const version = await api.GET('/v1/templates/{templateId}/versions/{versionNumber}', { params: { path: { templateId, versionNumber: 2 } } });
  const sampleData: string | undefined = version.data?.sampleData;
  const renamed = await api.PATCH('/v1/templates/{templateId}/versions/{versionNumber}/document-name-template', {
    params: { path: { templateId, versionNumber: 2 } },
    body: { documentNameTemplate: 'Invoice {{ number }}' },
  });
  report(renamed.error);
  const cleared = await api.PATCH('/v1/templates/{templateId}/versions/{versionNumber}/document-name-template', {
    params: { path: { templateId, versionNumber: 2 } },
    body: { documentNameTemplate: null },
  });
  const pattern: string | null | undefined = cleared.data?.documentNameTemplate;
  const preview = await api.GET('/v1/templates/{templateId}/versions/{versionNumber}/preview-image', { params: { path: { templateId, versionNumber: 2 } } });
  if (preview.data) {
    const url = new URL(preview.data.url);
    const image = await api.GET('/v1/templates/{templateId}/versions/{versionNumber}/preview-image/file', {
      params: { path: { templateId, versionNumber: 2 }, query: { expires: Number(url.searchParams.get('expires')), signature: url.searchParams.get('signature') ?? '' } },
      parseAs: 'blob',
    });
    const png: Blob | undefined = image.data;
    report(image.error);
    console.log(png?.size);
  }

  const documents = await api.GET('/v1/documents', {
    params: { query: { 'filters[0].field': 'environment', 'filters[0].op': 'neq', 'filters[0].value': 'test', sortBy: 'renderedAt', take: 200 } },
  });
  for (const stored of documents.data?.items ?? []) {
    const deleted: boolean = stored.isPdfDeleted;
    const language: string | null = stored.language;
    console.log(deleted, language, stored.viewUrl);
  }
  const one = await api.GET('/v1/documents/{id}', { params: { path: { id: templateId } } });
  const pages: number | undefined = one.data?.pageCount;
  const file = await api.GET('/v1/documents/{id}/file', { params: { path: { id: templateId } }, parseAs: 'blob' });
  const pdf: Blob | undefined = file.data;
  if (file.error) console.error(file.error.error.code === 'PdfDeleted' ? 'purged' : file.error.error.message);

  const stats = await api.GET('/v1/organisation/stats');
  const available: number | undefined = stats.data?.pagesAvailable;
  const fonts = await api.GET('/v1/fonts', { params: { query: { 'filters[0].field': 'source', 'filters[0].value': 'custom' } } });
  const families: string[] = (fonts.data?.items ?? []).map((f) => f.family);

  // Renders: the envelope, the raw PDF, a stateless render, validation.
  const rendered = await api.POST('/v1/render/{templateId}', { params: { path: { templateId }, query: { persist: true, language: 'de' } }, body: { documents: [invoice], includeDocument: false } });
  if (rendered.data) {
    const status: 'ok' | 'partial' | 'failed' | 'insufficient_credit' = rendered.data.status;
    const ids: (string | null)[] = rendered.data.documents.map((d) => d.id);
    const issueTypes: string[] = rendered.data.issues.map((i) => i.type);
    console.log(status, ids, issueTypes);
  }
  const raw = await api.POST('/v1/render/{templateId}/versions/{version}', {
    params: { path: { templateId, version: 2 } },
    headers: { Accept: 'application/pdf' },
    body: { documents: [invoice] },
    parseAs: 'blob',
  });
  const rawPdf: Blob | undefined = raw.data;
  const stateless = await api.POST('/v1/render', {
    params: { query: { language: 'en' } },
    body: { template: { dsl: 1, body: [{ type: 'text', id: 'hello', text: 'Hello {{ name }}' }] }, data: { name: 'Ada' } },
    parseAs: 'blob',
  });
  const statelessPdf: Blob | undefined = stateless.data;
  const validation = await api.POST('/v1/render/{templateId}/validate', { params: { path: { templateId } }, body: { documents: [invoice, {}] } });
  const blocking: number = (validation.data?.issues ?? []).filter((i) => i.severity !== 'Information').length;
  const versionValidation = await api.POST('/v1/render/{templateId}/versions/{version}/validate', { params: { path: { templateId, version: 2 } }, body: { documents: [invoice] } });
  const firstIndex: number | null | undefined = versionValidation.data?.issues[0]?.documentIndex;

  // Asynchronous jobs and their callbacks.
  const job = await api.POST('/v1/render/{templateId}/async', { params: { path: { templateId } }, body: { documents: [invoice], callbackUrl: 'https://hooks.example.net/render?token=s3cret' } });
  const versionJob = await api.POST('/v1/render/{templateId}/versions/{version}/async', {
    params: { path: { templateId, version: 2 }, query: { persist: false } },
    body: { documents: [invoice], callbackUrl: 'https://hooks.example.net/render', includeDocument: true },
  });
  if (job.error) console.error(job.error.error.code === 'QueueFull' ? 'retry later' : job.error.error.message);
  const jobId = job.data?.jobId ?? versionJob.data?.jobId ?? '';
  const polled = await api.GET('/v1/render/jobs/{jobId}', { params: { path: { jobId } } });
  const outcome: 'ok' | 'partial' | 'failed' | 'insufficient_credit' | null | undefined = polled.data?.status;
  const finished: boolean = polled.data?.state !== 'pending';

  // Probes: anonymous; the readiness probe's 503 is plain text, so this client accepts every media type.
  const probes = createClient<paths>({ baseUrl: 'http://localhost:3000' });
  const status = await probes.GET('/v1/meta/status', { parseAs: 'text' });
  const reason: string | undefined = status.error;
  const deployed = await probes.GET('/v1/meta/version');
  const build: string | undefined = deployed.data?.version;

  console.log(names, latest, projectName, versionCount, published, templateJson, sampleData, pattern, pages, pdf, available, families);
  console.log(rawPdf, statelessPdf, blocking, firstIndex, outcome, finished, reason, build);
}

/** A callback receiver typed by the document: progress bodies carry `document`, completion bodies do not. */
export function onCallback(
  event: 'render.progress' | 'render.completed' | 'render.failed',
  body: Schemas['ProgressCallbackDto'] | Schemas['CompletionCallbackDto'],
): string {
  if ('document' in body) return `${event}: document ${body.documentIndex} of ${body.requestedCount} (${body.document.pageCount} pages)`;
  const missing: number = body.missingCount;
  return `${event}: ${body.state} ${body.status}, ${missing} missing`;
}

