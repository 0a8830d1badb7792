import { mapWithConcurrency } from './map-with-concurrency';

describe('mapWithConcurrency', () => {
  it('3.1: renders every document, never more than the concurrency at once', async () => {
    let inFlight = 0;
    let peak = 0;
    const done: number[] = [];
    await mapWithConcurrency([0, 1, 2, 3, 4, 5, 6], 3, async (i) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5 + (i % 3)));
      done.push(i);
      inFlight--;
    });
    expect(done.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(peak).toBe(3);
  });

  it('stops starting items after a failure, waits for those in flight and throws the first error', async () => {
    const started: number[] = [];
    let finished = 0;
    const run = mapWithConcurrency([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i);
      if (i === 1) throw new Error('boom');
      await new Promise((resolve) => setTimeout(resolve, 10));
      finished++;
    });
    await expect(run).rejects.toThrow('boom');
    expect(started).toEqual([0, 1]);
    expect(finished).toBe(1);
  });

  it('does nothing for no items', async () => {
    await expect(mapWithConcurrency([], 4, async () => undefined)).resolves.toBeUndefined();
  });
});
