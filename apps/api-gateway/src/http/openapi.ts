import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CompletionCallbackDto, ProgressCallbackDto } from '@docrender/contracts';
import { Settings, viewUrlSettings } from '@docrender/config';
import { buildVersion, trimBaseUrl } from '@docrender/platform';
import { applyOpenApiConventions } from './openapi-conventions';

/**
 * The OpenAPI document of the public interface, generated from the controllers and contracts. Its server is
 * `publicBaseUrl` when given (a gateway with PUBLIC_BASE_URL), else relative (docs/openapi.json, a gateway without it).
 */
export function createOpenApiDocument(app: INestApplication, publicBaseUrl: string | null = null): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Document Rendering Service')
    .setDescription(
      'Render stored templates (JSON layout DSL) with JSON data into PDF documents, one at a time, in batches, or as ' +
        'asynchronous jobs with signed callbacks. The guide to this interface is docs/api.md in the repository.',
    )
    .setVersion(buildVersion())
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: service_test_… (test) or service_prod_… (production)' })
    .addApiKey(
      { type: 'apiKey', in: 'query', name: 'signature', description: 'A signed link (viewUrl, preview url): its `signature` and `expires` query parameters are the credential.' },
      'signedLink',
    )
    .build();
  return applyOpenApiConventions(SwaggerModule.createDocument(app, config, { extraModels: [ProgressCallbackDto, CompletionCallbackDto] }), publicBaseUrl);
}

/** Swagger UI at /docs and the JSON document at /docs-json, naming PUBLIC_BASE_URL as the server when it is set. */
export function serveOpenApi(app: INestApplication): void {
  const configured = app.get(Settings, { strict: false }).get(viewUrlSettings).publicBaseUrl;
  const publicBaseUrl = configured === undefined ? null : trimBaseUrl(configured);
  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app, publicBaseUrl), { jsonDocumentUrl: 'docs-json' });
}
