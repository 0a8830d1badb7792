import type { Logger } from '@docrender/observability';
import type { ApiKeyRepository } from '@docrender/persistence';
import { ApiKeyUseRecorder, LAST_USE_INTERVAL_MS } from './api-key-use.recorder';

function recorder(recordUse: (id: string, at: Date) => Promise<boolean>) {
  let now = 1_000_000;
  const warnings: unknown[] = [];
  const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Logger;
  const r = new ApiKeyUseRecorder({ recordUse } as unknown as ApiKeyRepository, logger).withClock(() => now);
  return { r, warnings, advance: (ms: number) => (now += ms) };
}

describe("ApiKeyUseRecorder (issue 35 item 4: the keys' last use, recorded cheaply)", () => {
  it('writes a key’s use at most once a minute per key', async () => {
    const writes: Array<[string, number]> = [];
    const { r, advance } = recorder(async (id, at) => (writes.push([id, at.getTime()]), true));
    await r.used('a');
    expect(r.used('a')).toBeNull();
    await r.used('b');
    advance(LAST_USE_INTERVAL_MS - 1);
    expect(r.used('a')).toBeNull();
    advance(1);
    await r.used('a');
    expect(writes).toEqual([
      ['a', 1_000_000],
      ['b', 1_000_000],
      ['a', 1_000_000 + LAST_USE_INTERVAL_MS],
    ]);
  });

  it('never fails: a failed write is logged, and the next use tries again', async () => {
    let fail = true;
    const writes: string[] = [];
    const { r, warnings } = recorder(async (id) => {
      if (fail) throw new Error('database gone');
      writes.push(id);
      return true;
    });
    await expect(r.used('a')).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
    fail = false;
    await r.used('a');
    expect(writes).toEqual(['a']);
  });
});
