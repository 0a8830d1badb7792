import { ApiError, RateLimitError } from '../errors/api.error';
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
  /** The failure: a ConnectionError, a RateLimitError or a ServerError with status 502, 503 or 504. */
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

/**
 * The wait before retrying a read whose attempt number `attempt` (1-based) failed with `error`, or null when it must
 * not be retried: not transient, retries used up, or a Retry-After beyond `maxRetryAfterMs`.
 * Transient: connection failures, 429 (waits Retry-After plus up to 10 % jitter when the answer gives one), 502/503/504.
 * Backoff: "equal jitter", between half and all of min(maxDelayMs, baseDelayMs · 2^(attempt−1)).
 */
export function retryDelayMs(error: unknown, attempt: number, options: ResolvedRetryOptions): number | null {
  if (attempt > options.maxRetries) return null;
  if (error instanceof RateLimitError && error.retryAfterSeconds !== null) {
    const wait = error.retryAfterSeconds * 1000;
    if (wait > options.maxRetryAfterMs) return null;
    return Math.round(wait + options.random() * Math.max(wait * 0.1, 100));
  }
  const transient = error instanceof ConnectionError || error instanceof RateLimitError || (error instanceof ApiError && TRANSIENT_STATUSES.has(error.status));
  if (!transient) return null;
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + options.random() * (ceiling / 2));
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
