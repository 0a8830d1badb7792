import type { DataSource } from 'typeorm';

/**
 * Runs `work` while one session of this process holds the PostgreSQL advisory lock `key`, so that one replica at a
 * time does a periodic pass (the retention sweep, the callback reaper). Resolves `{ value }` with what `work` returned,
 * or null without running it when another session holds the lock. The lock is released and the session returned to
 * the pool whatever `work` does; its errors propagate.
 */
export async function runExclusivePass<T>(dataSource: DataSource, key: number, work: () => Promise<T>): Promise<{ value: T } | null> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as { locked: boolean }[];
    if (!locked) return null;
    try {
      return { value: await work() };
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [key]);
    }
  } finally {
    await runner.release();
  }
}
