import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { buildVersion } from '@docrender/platform';

/** The workspace's own HTTP API, apart from /v1 (issue 35): sessions, templates, preview, organisation settings. */
export function createWorkspaceOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('docrender workspace')
    .setDescription(
      'The API behind the template workspace pages (docs/workspace.md). A session cookie set by POST /workspace/api/session ' +
        'authenticates; every write also sends the session\'s csrfToken in the X-CSRF-Token header. Not part of the public /v1 interface.',
    )
    .setVersion(buildVersion())
    .addCookieAuth('__Host-workspace-session')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** The document at /workspace/api/openapi.json. */
export function serveWorkspaceOpenApi(app: INestApplication): void {
  let document: OpenAPIObject | null = null;
  const http = app.getHttpAdapter();
  http.get('/workspace/api/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => {
    document ??= createWorkspaceOpenApiDocument(app);
    res.json(document);
  });
}
