/**
 * The one bounded-concurrency helper (job documents, sync batch documents, job inputs). Calls `work` for every item
 * with at most `concurrency` calls in flight, in order of the items. When a call fails,
 * no further item is started; the calls in flight are awaited and the first error is thrown.
 */
export async function mapWithConcurrency<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (failure === null && next < items.length) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
