import type { HttpCall, HttpTransport, RequestOptions } from '../http/http-transport';

/** What every resource of the client shares: the transport and the default time limits. */
export type ClientContext = {
  transport: HttpTransport;
  /** Default time limit of reads, the PATCH and downloads (ms). */
  readTimeoutMs: number;
  /** Default time limit of renders, validation and enqueue (ms). */
  renderTimeoutMs: number;
};

/** The time limit of a call: the call's own, else the client's default for its kind. */
export function timeoutOf(options: RequestOptions | undefined, fallbackMs: number): number {
  return options?.timeoutMs ?? fallbackMs;
}

/** A path segment from a caller-supplied id or number. */
export function segment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/**
 * A JSON read: a GET, retried on transient failures, under the client's read time limit unless the call sets its own;
 * `read` decodes the answer.
 */
export function getJson<T>(
  context: ClientContext,
  call: Pick<HttpCall, 'path' | 'query' | 'anonymous' | 'passStatuses'>,
  options: RequestOptions,
  read: (response: Response, request: string) => Promise<T>,
): Promise<T> {
  return context.transport.send(
    { method: 'GET', ...call, accept: 'application/json', retryable: true, timeoutMs: timeoutOf(options, context.readTimeoutMs), signal: options.signal },
    read,
  );
}
