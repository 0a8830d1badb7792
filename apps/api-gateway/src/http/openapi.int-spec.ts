import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateOpenApiDocument, openApiJson } from './openapi-document';

const checkedIn = path.resolve(__dirname, '../../../../docs/openapi.json');

describe('OpenAPI document (issue 5: checked in as docs/openapi.json and kept in sync)', () => {
  it('docs/openapi.json is exactly what the controllers describe (run `npm run docs:openapi` after changing them)', async () => {
    expect(readFileSync(checkedIn, 'utf8')).toBe(await openApiJson());
  });

  it('describes every endpoint of the contract', async () => {
    const document = await generateOpenApiDocument();
    const operations = Object.entries(document.paths).flatMap(([p, item]) =>
      Object.keys(item).filter((k) => ['get', 'post', 'patch', 'put', 'delete'].includes(k)).map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'POST /v1/render/{templateId}',
        'POST /v1/render/{templateId}/versions/{version}',
        'POST /v1/render',
        'POST /v1/render/{templateId}/validate',
        'POST /v1/render/{templateId}/versions/{version}/validate',
        'POST /v1/render/{templateId}/async',
        'POST /v1/render/{templateId}/versions/{version}/async',
        'GET /v1/render/jobs/{jobId}',
        'GET /v1/templates',
        'GET /v1/projects/{projectId}/templates',
        'GET /v1/templates/{id}',
        'GET /v1/templates/{templateId}/versions',
        'GET /v1/templates/{templateId}/versions/latest',
        'GET /v1/templates/{templateId}/versions/{versionNumber}',
        'PATCH /v1/templates/{templateId}/versions/{versionNumber}/document-name-template',
        'GET /v1/templates/{templateId}/versions/{versionNumber}/preview-image',
        'GET /v1/documents',
        'GET /v1/documents/{id}',
        'GET /v1/documents/{id}/file',
        'GET /v1/organisation/stats',
        'GET /v1/fonts',
        'GET /v1/meta/status',
        'GET /v1/meta/version',
      ]),
    );
  });
});
