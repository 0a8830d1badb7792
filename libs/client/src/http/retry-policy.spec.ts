import { ApiError, BadRequestError, RateLimitError, ServerError, type ApiErrorDetails } from '../errors/api.error';
import { ConnectionError, ResponseDecodeError, TimeoutError } from '../errors/transport.error';
import { DEFAULT_RETRY, parseRetryAfter, retryDelayMs, type ResolvedRetryOptions } from './retry-policy';

const details = (status: number): ApiErrorDetails => ({ status, code: null, serviceMessage: '', errorId: null, request: 'GET /v1/x', body: '' });
const options = (random: number, overrides: Partial<ResolvedRetryOptions> = {}): ResolvedRetryOptions => ({ ...DEFAULT_RETRY, random: () => random, ...overrides });

describe('retry policy of reads (spec 7.5)', () => {
  it('7.5: connection failures, 429 and 502/503/504 are transient; other failures are not retried', () => {
    const transient = [new ConnectionError('GET /v1/x', new Error('ECONNREFUSED')), new RateLimitError(details(429), null), new ServerError(details(502)), new ServerError(details(503)), new ServerError(details(504))];
    for (const error of transient) expect(retryDelayMs(error, 1, options(0.5))).not.toBeNull();
    const permanent = [new ServerError(details(500)), new BadRequestError(details(400)), new ApiError(details(410)), new TimeoutError('GET /v1/x', 10), new ResponseDecodeError('GET /v1/x', 200, null, 'x'), new Error('x')];
    for (const error of permanent) expect(retryDelayMs(error, 1, options(0.5))).toBeNull();
  });

  it('7.5 and issue 18 item 6: 500 ExternalServiceError (an outage) is retried like 503, waiting at least its Retry-After; 500 InternalError is not', () => {
    const outage = new ServerError({ ...details(500), code: 'ExternalServiceError' }, 5);
    expect(retryDelayMs(outage, 1, options(0.5))).toBe(5_000);
    expect(retryDelayMs(new ServerError({ ...details(500), code: 'ExternalServiceError' }), 1, options(0))).toBe(250);
    expect(retryDelayMs(new ServerError(details(503), 2), 1, options(0))).toBe(2_000);
    expect(retryDelayMs(new ServerError({ ...details(500), code: 'InternalError' }, 5), 1, options(0.5))).toBeNull();
    expect(retryDelayMs(new ServerError({ ...details(500), code: 'ExternalServiceError' }, 120), 1, options(0.5))).toBeNull();
  });

  it('backoff is jittered between half and all of base · 2^(attempt−1), capped at maxDelayMs', () => {
    const error = new ServerError(details(503));
    expect(retryDelayMs(error, 1, options(0))).toBe(250);
    expect(retryDelayMs(error, 1, options(0.999))).toBeCloseTo(500, -1);
    expect(retryDelayMs(error, 3, options(0))).toBe(1000);
    expect(retryDelayMs(error, 3, options(0.999))).toBeCloseTo(2000, -1);
    expect(retryDelayMs(error, 3, options(0.999, { maxDelayMs: 1200, maxRetries: 10 }))).toBeCloseTo(1200, -1);
  });

  it('stops after maxRetries retries', () => {
    const error = new ServerError(details(503));
    expect(retryDelayMs(error, 3, options(0.5))).not.toBeNull();
    expect(retryDelayMs(error, 4, options(0.5))).toBeNull();
    expect(retryDelayMs(error, 1, options(0.5, { maxRetries: 0 }))).toBeNull();
  });

  it('8: a 429 waits its Retry-After (plus at most 10 % jitter), and one beyond maxRetryAfterMs is not retried', () => {
    expect(retryDelayMs(new RateLimitError(details(429), 4), 1, options(0))).toBe(4000);
    expect(retryDelayMs(new RateLimitError(details(429), 4), 1, options(0.999))).toBeLessThanOrEqual(4400);
    expect(retryDelayMs(new RateLimitError(details(429), 0), 1, options(0.999))).toBeLessThanOrEqual(100);
    expect(retryDelayMs(new RateLimitError(details(429), 61), 1, options(0))).toBeNull();
    expect(retryDelayMs(new RateLimitError(details(429), 61), 1, options(0, { maxRetryAfterMs: 120_000 }))).toBe(61_000);
  });

  it('Retry-After is whole seconds or an HTTP date', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('17', now)).toBe(17);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});
