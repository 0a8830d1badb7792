import type { LookupAddress, LookupOptions } from 'node:dns';
import http, { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { inSpan, SpanKind, type Attributes } from '@docrender/observability';
import { EgressFailedError, EgressFailure } from './egress.error';
import type { PinnedConnections, PinnedRequestOptions } from './pinned-connections';
import { CheckedUrl, checkUrl, EgressPolicy, hostOf, originOf } from './url-check';

export type GuardedFetchOptions = {
  policy: EgressPolicy;
  /** Deadline for the whole exchange: DNS lookup, connect, TLS, request, response headers and body. */
  timeoutMs: number;
  /** Largest accepted response body; more aborts the request. */
  maxBytes: number;
  /** Default GET. */
  method?: string;
  headers?: Record<string, string>;
  /** Sent with a Content-Length. */
  body?: string | Buffer;
  /** TLS trust anchors replacing Node's bundled CA list (a private PKI, tests). The certificate is always verified. */
  ca?: string | Buffer | (string | Buffer)[];
  /** Kept-alive connections to reuse (pooled by destination and checked addresses); default a new connection each time. */
  connections?: PinnedConnections;
};

export type GuardedResponse = {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
};

/**
 * One HTTP(S) request to a destination that passed `checkUrl`, connecting ONLY to the addresses that were checked:
 * the socket's host-name lookup is replaced by the checked list, so a DNS answer that changes between check and
 * connect (DNS rebinding) cannot redirect the request. The URL's host name is kept for the Host header, TLS SNI and
 * certificate verification. Redirects are never followed: a 3xx comes back as is. No decompression, no proxy. A
 * connection is reused only through `options.connections`, and only for the same origin and checked addresses; a
 * request that finds its reused connection closed by the server before any answer is sent once more on a new one.
 * @throws EgressRefusedError the policy refuses the destination (nothing is sent)
 * @throws EgressFailedError DnsLookupFailed, ConnectionFailed, Timeout or ResponseTooLarge
 */
export function guardedFetch(url: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
  // A client span (no trace headers go out: the destination is someone else's). Its host only: a URL's path and
  // query may carry a receiver's token.
  const method = options.method ?? 'GET';
  const attributes = (): Attributes => ({ 'http.request.method': method, 'server.address': safeHost(url) });
  return inSpan(method, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    const response = await fetchChecked(url, options);
    span?.setAttribute('http.response.status_code', response.status);
    return response;
  });
}

async function fetchChecked(url: string | URL, options: GuardedFetchOptions): Promise<GuardedResponse> {
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) throw new RangeError(`timeoutMs must be > 0, got ${options.timeoutMs}`);
  if (!Number.isInteger(options.maxBytes) || options.maxBytes < 0) throw new RangeError(`maxBytes must be a whole number >= 0, got ${options.maxBytes}`);

  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const target = typeof url === 'string' ? safeOrigin(url) : originOf(url);
      reject(new EgressFailedError(EgressFailure.Timeout, target, `no complete response within ${options.timeoutMs} ms`));
      abort.abort();
    }, options.timeoutMs);
  });
  try {
    const exchange = checkUrl(url, options.policy).then((checked) => {
      if (abort.signal.aborted) throw new EgressFailedError(EgressFailure.Timeout, originOf(checked.url), 'deadline passed during the DNS lookup');
      return send(checked, options, abort.signal);
    });
    return await Promise.race([exchange, timedOut]);
  } catch (error) {
    // Whatever failed, nothing of the exchange goes on. (A complete exchange has nothing left to stop: its response
    // was read to the end.)
    abort.abort();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Error codes of a kept-alive connection the server closed while it was idle (the request never reached it). */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

async function send(checked: CheckedUrl, options: GuardedFetchOptions, signal: AbortSignal): Promise<GuardedResponse> {
  const pool = options.connections?.agentFor(checked.url.protocol);
  if (pool === undefined) return exchange(checked, options, signal, false);
  try {
    return await exchange(checked, options, signal, pool);
  } catch (error) {
    if (!(error instanceof StaleConnection) || signal.aborted) throw error;
    return exchange(checked, options, signal, false);
  }
}

/** A request written to a reused connection that the server had closed (no answer came): safe to send again. */
class StaleConnection extends EgressFailedError {}

function exchange(checked: CheckedUrl, options: GuardedFetchOptions, signal: AbortSignal, agent: http.Agent | false): Promise<GuardedResponse> {
  const { url } = checked;
  const target = originOf(url);
  return new Promise<GuardedResponse>((resolve, reject) => {
    const failed = (reason: EgressFailure, detail: string, cause?: unknown) => reject(new EgressFailedError(reason, target, detail, { cause }));
    const requestOptions: PinnedRequestOptions = {
      protocol: url.protocol,
      hostname: hostOf(url),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: options.method ?? 'GET',
      headers: options.headers,
      lookup: pinnedLookup(checked.addresses),
      // The pool of kept-alive connections is keyed on the checked addresses (see PinnedConnections).
      pinnedAddresses: checked.addresses.join(','),
      agent,
      ca: options.ca,
      signal,
    };
    let answered = false;
    const request = (url.protocol === 'https:' ? https : http).request(requestOptions, (response) => {
      answered = true;
      const declared = Number(response.headers['content-length']);
      const hasBody = request.method !== 'HEAD';
      if (hasBody && Number.isFinite(declared) && declared > options.maxBytes) {
        failed(EgressFailure.ResponseTooLarge, `Content-Length ${declared} exceeds the limit of ${options.maxBytes} bytes`);
        request.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let received = 0;
      response.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received > options.maxBytes) {
          failed(EgressFailure.ResponseTooLarge, `body exceeds the limit of ${options.maxBytes} bytes`);
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', (error) => failed(EgressFailure.ConnectionFailed, `response interrupted: ${error.message}`, error));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (request.reusedSocket && !answered && STALE_CONNECTION.has(error.code ?? '')) {
        reject(new StaleConnection(EgressFailure.ConnectionFailed, target, error.message, { cause: error }));
        return;
      }
      failed(EgressFailure.ConnectionFailed, error.message, error);
    });
    request.end(options.body);
  });
}

/** A `lookup` for the socket that answers with the checked addresses only (never asks DNS again). */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const entries: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return (_hostname: string, options: LookupOptions, callback) => {
    const family = requestedFamily(options.family);
    const usable = family === 0 ? entries : entries.filter((entry) => entry.family === family);
    if (usable.length === 0) {
      callback(Object.assign(new Error(`no checked IPv${family} address`), { code: 'ENOTFOUND' }), []);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0].address, usable[0].family);
    }
  };
}

function requestedFamily(family: LookupOptions['family']): 0 | 4 | 6 {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return 0;
}

function safeOrigin(url: string): string {
  try {
    return originOf(new URL(url));
  } catch {
    return '(invalid URL)';
  }
}

function safeHost(url: string | URL): string {
  try {
    return (typeof url === 'string' ? new URL(url) : url).hostname;
  } catch {
    return '(invalid URL)';
  }
}
