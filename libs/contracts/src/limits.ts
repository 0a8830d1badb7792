/** Limits of spec part 8. Per-document limits do not scale or relax with batch size. */
export const Limits = {
  /** 50 MB of JSON per document (413 PayloadTooLarge). */
  maxDocumentBytes: 50 * 1024 * 1024,
  /** JSON nesting depth per document (DangerousContent issue at HTTP 200). */
  maxNestingDepth: 32,
  /** Render time per document, milliseconds (RenderTimeout). */
  renderBudgetMs: 60_000,
  /** Batch size of a test key (400 ValidationError). */
  testKeyBatchCap: 10,
  /** Listing page size. */
  defaultTake: 25,
  minTake: 1,
  maxTake: 200,
  /** Issues stored and returned per async job; counts stay exact. */
  jobIssuesStored: 100,
  /** Signed viewUrl validity. */
  viewUrlTtlSeconds: 7 * 24 * 60 * 60,
  /**
   * Webhook delivery: attempts in all (the first plus the retries between which the four backoff delays fall:
   * spec 6.3 "abandoned after 5 failed attempts"), the backoff, per-attempt timeout, in-flight default.
   */
  webhookMaxAttempts: 5,
  webhookBackoffSeconds: [2, 4, 8, 16] as readonly number[],
  webhookAttemptTimeoutMs: 30_000,
  webhookInFlight: 16,
  /** Secret rotation grace. */
  secretRotationGraceHours: 24,
} as const;

/** Rate-limit categories of spec part 8: requests per sliding 60-second window, per organisation. */
export enum RateLimitCategory {
  Read = 'read',
  Write = 'write',
  Render = 'render',
}

export const RATE_LIMIT_PER_WINDOW: Record<RateLimitCategory, number> = {
  [RateLimitCategory.Read]: 600,
  [RateLimitCategory.Write]: 120,
  [RateLimitCategory.Render]: 300,
};

export const RATE_LIMIT_WINDOW_SECONDS = 60;
