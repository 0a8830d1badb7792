import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CompletionCallbackDto, ProgressCallbackDto } from '@docrender/contracts';
import { buildVersion } from '@docrender/platform';
import { applyOpenApiConventions } from './openapi-conventions';

/** The OpenAPI document of the public interface, generated from the controllers and contracts. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
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
  return applyOpenApiConventions(SwaggerModule.createDocument(app, config, { extraModels: [ProgressCallbackDto, CompletionCallbackDto] }));
}

/** Swagger UI at /docs and the JSON document at /docs-json. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
