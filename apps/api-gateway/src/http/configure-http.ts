import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Logger } from '@docrender/observability';
import { createBindingValidationPipe } from './binding-validation.pipe';
import { ErrorEnvelopeFilter } from './error-envelope.filter';
import { serveOpenApi } from './openapi';
import { requestContext } from './request-context.middleware';
import { answerClientErrorsWithEnvelope, requestText } from './request-text.middleware';

/**
 * HTTP behaviour of the public interface: the error envelope, binding validation, OpenAPI at /docs. There is no
 * global body parser: each route with a body reads it after its guards (RequestBodyModule), so the API key is checked
 * before the first body byte is read and an unknown path reads no body at all.
 */
export function configureHttp(app: INestApplication, logger: Logger): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.use(requestContext(logger));
  express.use(requestText());
  answerClientErrorsWithEnvelope(app.getHttpServer() as Server);
  app.useGlobalFilters(new ErrorEnvelopeFilter(logger));
  app.useGlobalPipes(createBindingValidationPipe());
  serveOpenApi(app);
}
