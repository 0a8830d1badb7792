import type { IncomingMessage } from 'node:http';

/**
 * The routes whose bodies the render controllers read themselves (after authentication and rate limiting), to check
 * size and depth off the event loop and hand documents on as raw JSON text: single and batch render (4.2), stateless
 * render (4.3) and validate (4.4). Case-insensitive and with an optional trailing slash, like the router.
 */
const RENDER_BODY_PATH = /^\/v1\/render(?:\/[^/]+(?:\/versions\/[^/]+)?(?:\/validate)?)?\/?$/i;

export function isRenderBodyRequest(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  if (req.method !== 'POST' || req.url === undefined) return false;
  const query = req.url.indexOf('?');
  return RENDER_BODY_PATH.test(query === -1 ? req.url : req.url.slice(0, query));
}

/** The media type of a Content-Type header, lower case, without parameters; null when absent. */
export function mediaTypeOf(contentType: string | undefined): string | null {
  if (contentType === undefined) return null;
  return contentType.split(';', 1)[0].trim().toLowerCase();
}

/**
 * The `type` option of the gateway's global JSON body parser: JSON bodies, except those of the render routes, which
 * must reach their controllers unread.
 */
export function jsonBodyParserType(req: IncomingMessage): boolean {
  return mediaTypeOf(req.headers['content-type']) === 'application/json' && !isRenderBodyRequest(req);
}
