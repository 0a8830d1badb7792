import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { histogram, serveInSpan, withLogFields, type Logger } from '@docrender/observability';

const requestSeconds = histogram(
  'docrender_http_request_seconds',
  'API gateway requests by method, route and status.',
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  ['method', 'route', 'status'],
);

/** A client-chosen request id is kept when it is short and plain; anything else is replaced. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the client's `X-Request-Id`, or a new UUID), echoes it in the response, puts it on every
 * log line written while serving the request, serves it inside a trace span (when tracing is on), and writes one access-log line with the outcome when the response ends.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers['x-request-id'];
    const requestId = typeof header === 'string' && CLIENT_REQUEST_ID.test(header) ? header : randomUUID();
    const started = process.hrtime.bigint();
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // The matched route pattern (not the concrete path) keeps the metric's label set small.
      const route = (req.route as { path?: string } | undefined)?.path ?? 'unmatched';
      requestSeconds.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      const fields = { requestId, method: req.method, path: req.path, status: res.statusCode, durationMs: Math.round(seconds * 1000) };
      if (req.path.startsWith('/v1/meta/') || req.path === '/metrics') logger.debug('request served', fields);
      else logger.info('request served', fields);
    });
    withLogFields({ requestId }, () => serveInSpan(req, res, requestId, next));
  };
}
