import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { ERROR_HTTP_STATUS, ErrorCode, type ErrorEnvelopeDto } from '@docrender/contracts';
import { textProblem } from '../request-body/text-input';

/** Longest query string accepted (bytes, as sent): longer ones are 422 BindingError. */
export const MAX_QUERY_STRING_BYTES = 8 * 1024;
/** Request line plus headers the HTTP server reads (Node's default is 16 KiB): room for the query check above. */
export const MAX_HEADER_BYTES = 256 * 1024;

function reject(res: Response, message: string): void {
  const body: ErrorEnvelopeDto = { error: { code: ErrorCode.BindingError, message } };
  res.status(ERROR_HTTP_STATUS[ErrorCode.BindingError]).json(body);
}

/**
 * Spec 7.2: a query string or path that cannot be bound is 422 BindingError naming the parameter, never a 500 from
 * deeper down: over MAX_QUERY_STRING_BYTES, or a value or path segment with a NUL character (PostgreSQL text cannot
 * hold one) or a lone surrogate. Values are decoded as URLSearchParams decodes them (invalid UTF-8 becomes U+FFFD).
 * The probes (spec 4.17: no parameters, 200 or a plain-text 503) are left alone.
 */
export function requestText() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = req.originalUrl ?? req.url;
    if (url.startsWith('/v1/meta/')) {
      next();
      return;
    }
    const start = url.indexOf('?');
    const query = start < 0 ? '' : url.slice(start + 1);
    if (query.length > MAX_QUERY_STRING_BYTES) {
      reject(res, `the query string is ${query.length} bytes long; the limit is ${MAX_QUERY_STRING_BYTES}`);
      return;
    }
    for (const [name, value] of new URLSearchParams(query)) {
      const problem = textProblem(name, MAX_QUERY_STRING_BYTES) ?? textProblem(value, MAX_QUERY_STRING_BYTES);
      if (problem !== null) {
        reject(res, `query parameter ${JSON.stringify(name.replace(/\0/g, '\\u0000'))}: ${problem}`);
        return;
      }
    }
    const path = start < 0 ? url : url.slice(0, start);
    if (/%00/.test(path)) {
      reject(res, 'the path must not contain the NUL character (%00)');
      return;
    }
    next();
  };
}

/**
 * Requests the HTTP parser itself refuses (request line and headers over MAX_HEADER_BYTES, malformed HTTP) get the
 * error envelope too, instead of Node's bare 431 or 400, and the connection is closed.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  // Read per connection by Node's HTTP server (the option of http.createServer, set after creation here).
  (server as Server & { maxHeaderSize?: number }).maxHeaderSize = MAX_HEADER_BYTES;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const message =
      error.code === 'HPE_HEADER_OVERFLOW' ? `the request line and headers exceed ${MAX_HEADER_BYTES} bytes` : 'the request is not valid HTTP/1.1';
    const body = JSON.stringify({ error: { code: ErrorCode.BindingError, message } } satisfies ErrorEnvelopeDto);
    const status = ERROR_HTTP_STATUS[ErrorCode.BindingError];
    socket.end(`HTTP/1.1 ${status} Unprocessable Entity\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}
