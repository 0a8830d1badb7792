import { SIGN_IN_WINDOW_MS, SignInLimiter } from './sign-in-limiter';

describe('SignInLimiter (issue 35 item 1: sign-in rate-limited)', () => {
  it('refuses an address after its failures until the window passes, and a client after five times as many', () => {
    let now = 1_000_000;
    const limiter = new SignInLimiter(2, () => now);
    limiter.recordFailure('Ana@x.test', '10.0.0.1');
    expect(limiter.retryAfterSeconds('ana@x.test', '10.0.0.1')).toBe(0);
    limiter.recordFailure('ana@x.test', '10.0.0.1');
    expect(limiter.retryAfterSeconds('ANA@x.test', '10.0.0.2')).toBe(SIGN_IN_WINDOW_MS / 1000);
    now += SIGN_IN_WINDOW_MS;
    expect(limiter.retryAfterSeconds('ana@x.test', '10.0.0.1')).toBe(0);
    for (let i = 0; i < 10; i++) limiter.recordFailure(`user${i}@x.test`, '10.0.0.9');
    expect(limiter.retryAfterSeconds('someone@x.test', '10.0.0.9')).toBeGreaterThan(0);
  });

  it('a success forgets the address failures', () => {
    const limiter = new SignInLimiter(1, () => 0);
    limiter.recordFailure('b@x.test', 'c');
    limiter.recordSuccess('b@x.test');
    expect(limiter.retryAfterSeconds('b@x.test', 'other')).toBe(0);
  });
});
