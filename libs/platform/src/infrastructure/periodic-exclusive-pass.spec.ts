import { JsonLogger } from '@docrender/observability';
import type { ExclusivePasses } from '@docrender/persistence';
import { PeriodicExclusivePass, type PeriodicPassOptions } from './periodic-exclusive-pass';

const MESSAGES = { disabled: 'pass disabled', skipped: 'pass skipped', failed: 'pass failed' };
const LOCK_KEY = 42;

/** ExclusivePasses whose lock is free unless `held`; records the keys it was asked for. */
function fakePasses(held = false) {
  const keys: number[] = [];
  const passes = {
    run: async <T>(key: number, work: () => Promise<T>) => {
      keys.push(key);
      return held ? null : { value: await work() };
    },
  } as ExclusivePasses;
  return { passes, keys };
}

/** A logger at debug level whose lines the test reads (level, message and fields of each). */
function recordingLogger() {
  const lines: string[] = [];
  const logger = new JsonLogger('periodic-pass-spec', 'debug', {}, (line) => lines.push(line));
  return { logger, lines: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('PeriodicExclusivePass (one replica at a time runs a periodic pass)', () => {
  const passOf = (options: Partial<PeriodicPassOptions<string>> & Pick<PeriodicPassOptions<string>, 'work'>, held = false) => {
    const { passes, keys } = fakePasses(held);
    const { logger, lines } = recordingLogger();
    const pass = new PeriodicExclusivePass(passes, logger, { lockKey: LOCK_KEY, intervalMs: 1_000, messages: MESSAGES, ...options });
    return { pass, keys, lines };
  };

  afterEach(() => {
    jest.useRealTimers();
  });

  it('runs the work at `now` under its lock and returns what it returned', async () => {
    const now = new Date('2026-11-29T12:00:00Z');
    const seen: Date[] = [];
    const { pass, keys, lines } = passOf({ work: async (at) => (seen.push(at), 'done') });
    expect(await pass.run(now)).toBe('done');
    expect(seen).toEqual([now]);
    expect(keys).toEqual([LOCK_KEY]);
    expect(lines()).toEqual([]);
  });

  it('returns null without running the work when another replica holds the lock, and says so at debug level', async () => {
    const work = jest.fn(async () => 'done');
    const { pass, lines } = passOf({ work }, true);
    expect(await pass.run()).toBeNull();
    expect(work).not.toHaveBeenCalled();
    expect(lines()).toEqual([expect.objectContaining({ level: 'debug', message: MESSAGES.skipped })]);
  });

  it('returns null when the work fails, logging the error', async () => {
    const failure = new Error('storage away');
    const { pass, lines } = passOf({
      work: async () => {
        throw failure;
      },
    });
    expect(await pass.run()).toBeNull();
    expect(lines()).toEqual([expect.objectContaining({ level: 'error', message: MESSAGES.failed, errorMessage: failure.message })]);
  });

  it('with an interval of 0 starts no timer and logs that it is disabled', async () => {
    jest.useFakeTimers();
    const work = jest.fn(async () => 'done');
    const { pass, lines } = passOf({ work, intervalMs: 0 });
    pass.start();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(work).not.toHaveBeenCalled();
    expect(lines()).toEqual([expect.objectContaining({ level: 'info', message: MESSAGES.disabled })]);
    await pass.stop();
  });

  it('runs every interval, skips the rounds while a pass still runs, and stop waits for the pass in flight', async () => {
    jest.useFakeTimers();
    let finish: (() => void) | undefined;
    const work = jest.fn(() => new Promise<string>((resolve) => (finish = () => resolve('done'))));
    const { pass } = passOf({ work });
    pass.start();
    await jest.advanceTimersByTimeAsync(999);
    expect(work).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(work).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(work).toHaveBeenCalledTimes(1);
    finish?.();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(work).toHaveBeenCalledTimes(2);

    let stopped = false;
    const stopping = pass.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish?.();
    await stopping;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(work).toHaveBeenCalledTimes(2);
  });
});
