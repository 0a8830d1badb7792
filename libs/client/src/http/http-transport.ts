import { DocrenderError } from '../errors/docrender.error';
import { ConnectionError, TimeoutError } from '../errors/transport.error';
import { apiErrorOf } from './error-mapping';
import { retryDelayMs, type ResolvedRetryOptions } from './retry-policy';

/** Per-call options every SDK method accepts. */
export type RequestOptions = {
  /** Aborts the call (and a retry's wait); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time limit of each attempt, from sending until the whole answer is read; overrides the client's default. */
  timeoutMs?: number;
};

export type HttpMethod = 'GET' | 'POST' | 'PATCH';

/** One HTTP call as the resources describe it. */
export type HttpCall = {
  method: HttpMethod;
  /** Path under the base URL, starting with `/v1/`. */
  path: string;
  query?: URLSearchParams;
  /** JSON request body. */
  json?: unknown;
  accept: 'application/json' | 'application/pdf';
  /** The two probes need no key. */
  anonymous?: boolean;
  /**
   * True for calls without side effects (GETs, validate): retried on transient failures. False for writes (renders,
   * enqueue, PATCH): never retried, because the service has no idempotency keys (spec 7.5).
   */
  retryable: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Error statuses handed to `read` instead of thrown (the status probe's 503). */
  passStatuses?: readonly number[];
  /** A streamed answer: the time limit ends when the headers arrive; the caller's signal still aborts the stream. */
  streaming?: boolean;
};

/**
 * Thrown by a `read` callback for a failure on the caller's side (the file system of a download), which the transport
 * passes on as the wrapped error: it is neither a connection failure nor retried.
 */
export class CallerSideFailure {
  constructor(readonly error: unknown) {}
}

export type TransportSettings = {
  /** Base URL without the `/v1` segment and without a trailing slash. */
  baseUrl: string;
  /** Read on every attempt, so switching the key takes effect on the next request. */
  apiKey: () => string;
  userAgent: string;
  fetch: typeof fetch;
  retry: ResolvedRetryOptions;
};

/**
 * Sends the SDK's HTTP calls: the bearer key, time limits, the mapping of error answers to typed exceptions, and the
 * retry of reads on transient failures (connection errors, 429 honouring Retry-After, 502/503/504) with jittered backoff.
 */
export class HttpTransport {
  constructor(private readonly settings: TransportSettings) {}

  /**
   * Performs `call` and hands a success answer (or a status in `passStatuses`) to `read`, whose result it returns.
   * @throws ApiError (by status) for an error answer, TimeoutError, ConnectionError, ResponseDecodeError from `read`,
   *   or the signal's reason when the caller aborted
   */
  async send<T>(call: HttpCall, read: (response: Response, request: string) => Promise<T>): Promise<T> {
    const request = `${call.method} ${call.path}`;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(call, request, read);
      } catch (error) {
        if (call.signal?.aborted || !call.retryable) throw error;
        const delayMs = retryDelayMs(error, attempt, this.settings.retry);
        if (delayMs === null) throw error;
        this.settings.retry.onRetry?.({ request, attempt, delayMs, error: error as Error });
        await sleep(delayMs, call.signal);
      }
    }
  }

  private async attempt<T>(call: HttpCall, request: string, read: (response: Response, request: string) => Promise<T>): Promise<T> {
    call.signal?.throwIfAborted();
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, call.timeoutMs);
    const forwardAbort = (): void => controller.abort(call.signal?.reason);
    call.signal?.addEventListener('abort', forwardAbort, { once: true });
    let streamHandedOut = false;
    const failure = (error: unknown): unknown => {
      if (error instanceof CallerSideFailure) return error.error;
      if (call.signal?.aborted) return call.signal.reason;
      if (timedOut) return new TimeoutError(request, call.timeoutMs);
      if (error instanceof DocrenderError) return error;
      return new ConnectionError(request, error);
    };
    try {
      let response: Response;
      try {
        response = await this.settings.fetch(this.url(call), {
          method: call.method,
          headers: this.headers(call),
          body: call.json === undefined ? undefined : JSON.stringify(call.json),
          signal: controller.signal,
        });
      } catch (error) {
        throw failure(error);
      }
      if (call.streaming) clearTimeout(timer);
      try {
        if (!response.ok && !call.passStatuses?.includes(response.status)) throw await apiErrorOf(response, request);
        const value = await read(response, request);
        streamHandedOut = call.streaming === true;
        return value;
      } catch (error) {
        if (!response.bodyUsed) await response.body?.cancel().catch(() => undefined);
        throw failure(error);
      }
    } finally {
      clearTimeout(timer);
      // A handed-out stream keeps listening, so that the caller's signal can still abort it.
      if (!streamHandedOut) call.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  private url(call: HttpCall): string {
    const query = call.query?.toString();
    return `${this.settings.baseUrl}${call.path}${query ? `?${query}` : ''}`;
  }

  private headers(call: HttpCall): Record<string, string> {
    const headers: Record<string, string> = { Accept: call.accept, 'User-Agent': this.settings.userAgent };
    if (!call.anonymous) headers.Authorization = `Bearer ${this.settings.apiKey()}`;
    if (call.json !== undefined) headers['Content-Type'] = 'application/json';
    return headers;
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
