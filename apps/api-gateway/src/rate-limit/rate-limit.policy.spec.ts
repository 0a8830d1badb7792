import { RateLimitCategory } from '@docrender/contracts';
import { RateLimitPolicy } from './rate-limit.policy';

describe('RateLimitPolicy', () => {
  it('8: the spec limits per 60 s window at scale 1', () => {
    const policy = new RateLimitPolicy({ enabled: true, scale: 1, windowSeconds: 60 });
    expect(policy.limitOf(RateLimitCategory.Read)).toEqual({ limit: 600, windowSeconds: 60 });
    expect(policy.limitOf(RateLimitCategory.Write)).toEqual({ limit: 120, windowSeconds: 60 });
    expect(policy.limitOf(RateLimitCategory.Render)).toEqual({ limit: 300, windowSeconds: 60 });
  });

  it('RATE_LIMIT_SCALE rounds down and never goes below one request', () => {
    const policy = new RateLimitPolicy({ enabled: true, scale: 0.01, windowSeconds: 5 });
    expect(policy.limitOf(RateLimitCategory.Read)).toEqual({ limit: 6, windowSeconds: 5 });
    expect(policy.limitOf(RateLimitCategory.Write)).toEqual({ limit: 1, windowSeconds: 5 });
    expect(policy.limitOf(RateLimitCategory.Render)).toEqual({ limit: 3, windowSeconds: 5 });
    expect(new RateLimitPolicy({ enabled: true, scale: 0.0001, windowSeconds: 60 }).limitOf(RateLimitCategory.Write).limit).toBe(1);
  });
});
