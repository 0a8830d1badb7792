import { ErrorCode } from './error-code';

/**
 * The one exception domain and application code throws for a rejection the spec names.
 * The gateway's exception filter maps `code` to the HTTP status through ERROR_HTTP_STATUS.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After for 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
