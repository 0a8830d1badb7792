import { ApiError, RateLimitError, ServerError } from '../errors/api.error';
import { ConnectionError } from '../errors/transport.error';

/** How reads are retried on transient failures. Writes (renders, enqueue, PATCH) are never retried. */
export type RetryOptions = {
  /** Retries after the first attempt; 0 switches retrying off. Default 3. */
  maxRetries?: number;
  /** Backoff before the first retry; doubles per retry, jittered. Default 500 ms. */
  baseDelayMs?: number;
  /** Upper bound of one backoff. Default 8000 ms. */
  maxDelayMs?: number;
  /** A 429 whose Retry-After asks for longer than this is not retried but thrown. Default 60 000 ms. */
  maxRetryAfterMs?: number;
  /** Called before each retry's wait, e.g. to log it. */
  onRetry?: (retry: RetryNotice) => void;
  /** Uniform random number in [0, 1) for the jitter; Math.random by default. */
  random?: () => number;
};

export type RetryNotice = {
  /** `GET /v1/…` */
  request: string;
  /** The attempt that failed, 1 for the first. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The failure: a ConnectionError, a RateLimitError, a ServerError with status 502, 503 or 504, or a 500 ExternalServiceError. */
  error: Error;
};

export type ResolvedRetryOptions = Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;

export const DEFAULT_RETRY: ResolvedRetryOptions = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  random: Math.random,
};

/** Gateway statuses that say "try again" without the request having been processed (spec 7.5). */
const TRANSIENT_STATUSES = new Set([502, 503, 504]);

/** 500 ExternalServiceError: a dependency of the service (database, blob store, broker, render service) is down. */
const OUTAGE_CODE = 'ExternalServiceError';

function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError || error instanceof RateLimitError) return true;
  if (!(error instanceof ApiError)) return false;
  return TRANSIENT_STATUSES.has(error.status) || (error.status === 500 && error.code === OUTAGE_CODE);
}

/**
 * The wait before retrying a read whose attempt number `attempt` (1-based) failed with `error`, or null when it must
 * not be retried: not transient, retries used up, or a Retry-After beyond `maxRetryAfterMs`.
 * Transient: connection failures, 429 (waits Retry-After plus up to 10 % jitter when the answer gives one), 502/503/504,
 * and 500 ExternalServiceError (a dependency outage, spec 7.2).
 * Backoff: "equal jitter", between half and all of min(maxDelayMs, baseDelayMs · 2^(attempt−1)); a 5xx with a
 * Retry-After waits at least that long.
 */
export function retryDelayMs(error: unknown, attempt: number, options: ResolvedRetryOptions): number | null {
  if (attempt > options.maxRetries) return null;
  if (error instanceof RateLimitError && error.retryAfterSeconds !== null) {
    const wait = error.retryAfterSeconds * 1000;
    if (wait > options.maxRetryAfterMs) return null;
    return Math.round(wait + options.random() * Math.max(wait * 0.1, 100));
  }
  if (!isTransient(error)) return null;
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const backoff = Math.round(ceiling / 2 + options.random() * (ceiling / 2));
  const asked = error instanceof ServerError && error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : 0;
  if (asked > options.maxRetryAfterMs) return null;
  return Math.max(backoff, asked);
}

/**
 * Retry-After (RFC 9110): whole seconds, or an HTTP date. Returns seconds (≥ 0), or null when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: Date = new Date()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
