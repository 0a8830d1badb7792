import { createDataSource, DEFAULT_POOL_IDLE_MS } from './data-source';

type PoolOptions = { max: number; idleTimeoutMillis: number };
const poolOf = (options: Parameters<typeof createDataSource>[1]): PoolOptions =>
  (createDataSource('postgres://nobody@127.0.0.1:1/none', options).options as { extra: PoolOptions }).extra;

describe('createDataSource: the pool (DB_POOL_SIZE, DB_POOL_IDLE_MS)', () => {
  it('keeps idle connections for 5 minutes by default, not pg-pool’s 10 s (issue 23: a bursty process reopened backends between bursts)', () => {
    expect(DEFAULT_POOL_IDLE_MS).toBe(300_000);
    expect(poolOf({})).toEqual({ max: 10, idleTimeoutMillis: 300_000 });
  });

  it('passes the configured size and idle time to the pool; 0 keeps idle connections until the pool ends', () => {
    expect(poolOf({ poolSize: 4, poolIdleMs: 0 })).toEqual({ max: 4, idleTimeoutMillis: 0 });
    expect(poolOf({ poolIdleMs: 15_000 })).toEqual({ max: 10, idleTimeoutMillis: 15_000 });
  });
});
