import { Limits } from '@docrender/contracts';

/**
 * Delivery attempts per logical callback, the first attempt included.
 *
 * Spec 6.3 rule 2 says "retried up to 5 times with exponential backoff of 2 s, 4 s, 8 s, 16 s", rule 4 and part 8 say
 * "abandoned after 5 failed attempts". Four backoff values separate exactly five attempts, so we read "retried up to
 * 5 times" as "tried up to 5 times": attempt 1, wait 2 s, attempt 2, wait 4 s, attempt 3, wait 8 s, attempt 4,
 * wait 16 s, attempt 5, then abandon. This honours the stated backoff list and "abandoned after 5 failed attempts"
 * literally; a sixth attempt would need a fifth backoff value the spec never names.
 */
export const WEBHOOK_MAX_ATTEMPTS: number = Limits.webhookMaxAttempts;

/**
 * Seconds to wait after attempt number `failedAttempt` (1-based) failed with a non-2xx answer, a timeout or an error,
 * before the next attempt: 2, 4, 8, 16 after attempts 1–4; `null` after attempt 5 (or later), meaning abandon.
 * @param scale multiplies every delay (1 in production; tests pass e.g. 0.001 to run the schedule in milliseconds)
 */
export function retryDelaySeconds(failedAttempt: number, scale = 1): number | null {
  if (!Number.isInteger(failedAttempt) || failedAttempt < 1) {
    throw new RangeError(`failedAttempt must be a whole number >= 1, got ${failedAttempt}`);
  }
  if (!Number.isFinite(scale) || scale < 0) throw new RangeError(`scale must be a non-negative number, got ${scale}`);
  if (failedAttempt >= WEBHOOK_MAX_ATTEMPTS) return null;
  return Limits.webhookBackoffSeconds[failedAttempt - 1] * scale;
}
