import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { DomainError, ERROR_HTTP_STATUS, ErrorCode, ErrorEnvelopeDto } from '@docrender/contracts';
import { dependencyOutageOf } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { LOGGER } from '@docrender/platform';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

/**
 * Nest's own HTTP exceptions (routing, parsing) mapped onto the spec's codes. Nest turns URIErrors (bad %-encoding)
 * into plain 400s; our own business-rule 400s are DomainErrors, so a plain 400 is a request that could not be bound
 * (spec 7.2).
 */
const CODE_OF_NEST_STATUS: ReadonlyMap<number, ErrorCode> = new Map([
  [400, ErrorCode.BindingError],
  [401, ErrorCode.Unauthorized],
  [403, ErrorCode.Forbidden],
  [404, ErrorCode.EntityNotFound],
  [406, ErrorCode.NotAcceptable],
  [413, ErrorCode.PayloadTooLarge],
  [429, ErrorCode.TooManyRequests],
]);

/** The code of a Nest HTTP exception's status: from the table, else InternalError from 500 up and BindingError below. */
function codeForHttpStatus(status: number): ErrorCode {
  return CODE_OF_NEST_STATUS.get(status) ?? (status >= 500 ? ErrorCode.InternalError : ErrorCode.BindingError);
}

/**
 * Seconds a client is asked to wait before retrying a request refused by a dependency outage (PostgreSQL, the blob
 * store, RabbitMQ or the render service unreachable): about the time the apps take to reconnect.
 */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * How long the rest of a body is read and discarded after an answer given before it was read in full (401 before the
 * body, 413 at a cap, 422 at a bad encoding). Closing at once would reset a connection the client is still sending
 * on, and a client mid-upload may then lose the answer (ECONNRESET) instead of reading it; past this, a body still
 * coming is cut.
 */
export const UNREAD_BODY_LINGER_MS = 2_000;

/**
 * Reads and discards what is left of `req`'s body once answered, so the client can finish sending and read the answer;
 * the connection is closed if the body has not ended within UNREAD_BODY_LINGER_MS, and serves the next request if it has.
 */
function discardRestOfBody(req: Request): void {
  const cut = setTimeout(() => req.socket.destroy(), UNREAD_BODY_LINGER_MS);
  cut.unref();
  const done = (): void => clearTimeout(cut);
  req.once('end', done);
  req.once('close', done);
  req.resume();
}

/**
 * Writes every rejection as the spec 7.1 envelope `{ error: { code, message } }` with the status of the one
 * code → status table. A dependency outage (spec 7.2) is 500 ExternalServiceError with `Retry-After`, so clients retry
 * it (spec 7.5); unknown failures become 500 InternalError. Both carry an `errorId` logged with the cause; the client
 * never sees a stack.
 */
@Catch()
export class ErrorEnvelopeFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    const req = http.getRequest<Request>();
    const { code, message, headers, errorId } = this.describe(exception, req);
    const body: ErrorEnvelopeDto = { error: { code, message, ...(errorId ? { errorId } : {}) } };
    if (res.headersSent) {
      res.end();
      return;
    }
    // A request answered before its body was read in full (401 before the body, 413 at a cap): the rest is discarded
    // for a bounded time, never parsed or buffered.
    if (!req.complete) discardRestOfBody(req);
    res.status(ERROR_HTTP_STATUS[code]).set(headers).json(body);
  }

  private describe(exception: unknown, req: Request): { code: ErrorCode; message: string; headers: Record<string, string>; errorId?: string } {
    if (exception instanceof DomainError) {
      const headers =
        exception.code === ErrorCode.ExternalServiceError ? { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS), ...exception.headers } : exception.headers;
      return { code: exception.code, message: exception.message, headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) {
        const message =
          status === 404 ? `no such endpoint: ${req.method} ${req.path}` : status === 400 ? `request could not be parsed: ${exception.message}` : exception.message;
        return { code: codeForHttpStatus(status), message, headers: {} };
      }
    }
    const errorId = randomUUID();
    // The outage policy of the message handlers (decision 0009) tells an unreachable dependency from a bug.
    const outage = dependencyOutageOf(exception);
    if (outage !== null) {
      this.logger.warn('a dependency is unreachable; the request was refused', { errorId, method: req.method, path: req.path, ...outage });
      return {
        code: ErrorCode.ExternalServiceError,
        message: `${outage.dependency} cannot be reached; retry later (errorId ${errorId})`,
        headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
        errorId,
      };
    }
    this.logger.error('unhandled error while serving a request', { errorId, method: req.method, path: req.path, err: exception });
    return { code: ErrorCode.InternalError, message: `internal error; quote errorId ${errorId} when reporting it`, headers: {}, errorId };
  }
}
