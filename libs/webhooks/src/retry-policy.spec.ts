import { Limits } from '@docrender/contracts';
import { retryDelaySeconds, WEBHOOK_MAX_ATTEMPTS } from './retry-policy';

/** Runs the schedule for an endpoint that always fails: the waits between attempts, and how many attempts happen. */
function scheduleForAlwaysFailing(scale?: number): { attempts: number; waits: number[] } {
  const waits: number[] = [];
  let attempt = 1;
  for (;;) {
    const delay = retryDelaySeconds(attempt, scale);
    if (delay === null) return { attempts: attempt, waits };
    waits.push(delay);
    attempt++;
  }
}

describe('retry policy', () => {
  it('6.3 rule 2: exponential backoff of 2 s, 4 s, 8 s, 16 s between attempts', () => {
    expect([1, 2, 3, 4].map((a) => retryDelaySeconds(a))).toEqual([2, 4, 8, 16]);
    expect(Limits.webhookBackoffSeconds).toEqual([2, 4, 8, 16]);
  });

  it('6.3 rule 4 / part 8: a callback is abandoned after 5 failed attempts', () => {
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(5);
    expect(scheduleForAlwaysFailing()).toEqual({ attempts: 5, waits: [2, 4, 8, 16] });
    expect(retryDelaySeconds(5)).toBeNull();
    expect(retryDelaySeconds(6)).toBeNull();
  });

  it('the scale factor shrinks every delay (tests run the schedule in milliseconds)', () => {
    expect(scheduleForAlwaysFailing(0.001)).toEqual({ attempts: 5, waits: [0.002, 0.004, 0.008, 0.016] });
    expect(retryDelaySeconds(2, 0)).toBe(0);
  });

  it('refuses attempt numbers below 1, fractions and a negative scale', () => {
    expect(() => retryDelaySeconds(0)).toThrow(RangeError);
    expect(() => retryDelaySeconds(1.5)).toThrow(RangeError);
    expect(() => retryDelaySeconds(1, -1)).toThrow(RangeError);
  });
});
