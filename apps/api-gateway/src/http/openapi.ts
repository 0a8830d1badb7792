import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { buildVersion } from '@docrender/platform';

/** The OpenAPI document of the public interface, generated from the controllers and contracts. */
export function createOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Document Rendering Service')
    .setDescription('Render stored templates (JSON layout DSL) with JSON data into PDF documents. See docs/ in the repository.')
    .setVersion(buildVersion())
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: service_test_… (test) or service_prod_… (production)' })
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Swagger UI at /docs and the JSON document at /docs-json. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup('docs', app, () => createOpenApiDocument(app), { jsonDocumentUrl: 'docs-json' });
}
