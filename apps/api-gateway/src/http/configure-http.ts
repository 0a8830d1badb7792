import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from '@docrender/observability';
import { jsonBodyParserType } from '../render';
import { createBindingValidationPipe } from './binding-validation.pipe';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { serveOpenApi } from './openapi';
import { requestContext } from './request-context.middleware';

/** HTTP behaviour of the public interface: JSON bodies, the error envelope, binding validation, OpenAPI at /docs. */
export function configureHttp(app: INestApplication, logger: Logger): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.use(requestContext(logger));
  // Render bodies are read raw and scanned off the event loop by the render module; every other JSON body is parsed here.
  express.useBodyParser('json', { limit: '1gb', type: jsonBodyParserType });
  app.useGlobalFilters(new ErrorEnvelopeFilter(logger));
  app.useGlobalPipes(createBindingValidationPipe());
  serveOpenApi(app);
}
