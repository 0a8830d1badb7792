import type { HttpTransport, RequestOptions } from '../http/http-transport';

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
