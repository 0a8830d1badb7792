import path from 'node:path';
import { metricsRegistry } from '@docrender/observability';
import type { TestRequest } from './test/test-pool.worker';
import { WorkerOutOfMemoryError, WorkerPool, WorkerPoolClosedError, WorkerTaskAbortedError, WorkerTaskFailedError } from './worker-pool';

const entry = path.join(__dirname, 'test', 'test-pool.worker');

describe('WorkerPool (real worker threads)', () => {
  const pools: WorkerPool<TestRequest, string | number>[] = [];
  const pool = (size: number, heapMb?: number): WorkerPool<TestRequest, string | number> => {
    const created = new WorkerPool<TestRequest, string | number>({ entry, name: 'test', size, ...(heapMb ? { resourceLimits: { maxOldGenerationSizeMb: heapMb } } : {}) });
    pools.push(created);
    return created;
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.close()));
  });

  it('issue 31 item 1: requests beyond the pool size wait and are answered in the order they came', async () => {
    const workers = pool(1);
    const answered: string[] = [];
    await Promise.all(['a', 'b', 'c', 'd'].map((value) => workers.run({ kind: 'echo', value }).then((reply) => answered.push(String(reply)))));
    expect(answered).toEqual(['a', 'b', 'c', 'd']);
  });

  it('issue 31 item 1: a request running at its deadline is stopped by terminating its thread, which is replaced; the next request is answered', async () => {
    const workers = pool(1);
    workers.start();
    const before = await workers.run({ kind: 'thread' });
    const stop = new AbortController();
    const spinning = workers.run({ kind: 'spin' }, { signal: stop.signal });
    // waits behind the spinning request, then runs on the replacement thread
    const next = workers.run({ kind: 'thread' });
    stop.abort(new Error('the deadline passed'));
    await expect(spinning).rejects.toBeInstanceOf(WorkerTaskAbortedError);
    await expect(spinning).rejects.toThrow('the deadline passed');
    const after = await next;
    expect(after).not.toBe(before);
    await expect(workers.run({ kind: 'echo', value: 'still serving' })).resolves.toBe('still serving');
  });

  it('issue 31 item 1: docrender_worker_tasks_running and _waiting show a pool\'s busy threads and its queue', async () => {
    const workers = new WorkerPool<TestRequest, string | number>({ entry, name: 'gauged', size: 1 });
    pools.push(workers);
    const sample = async (metric: string): Promise<number | undefined> =>
      (await metricsRegistry.getSingleMetric(metric)?.get())?.values.find((v) => v.labels.pool === 'gauged')?.value;
    const stop = new AbortController();
    const spinning = workers.run({ kind: 'spin' }, { signal: stop.signal });
    const waiting = workers.run({ kind: 'echo', value: 'next' });
    expect([await sample('docrender_worker_tasks_running'), await sample('docrender_worker_tasks_waiting')]).toEqual([1, 1]);
    stop.abort(new Error('the deadline passed'));
    await expect(spinning).rejects.toBeInstanceOf(WorkerTaskAbortedError);
    await expect(waiting).resolves.toBe('next');
    expect([await sample('docrender_worker_tasks_running'), await sample('docrender_worker_tasks_waiting')]).toEqual([0, 0]);
  });

  it('issue 31 item 1: a waiting request whose signal aborts leaves the queue without stopping the running one', async () => {
    const workers = pool(1);
    const first = workers.run({ kind: 'thread' });
    const stop = new AbortController();
    const waiting = workers.run({ kind: 'echo', value: 'never' }, { signal: stop.signal });
    stop.abort(new Error('gone'));
    await expect(waiting).rejects.toBeInstanceOf(WorkerTaskAbortedError);
    const thread = await first;
    await expect(workers.run({ kind: 'thread' })).resolves.toBe(thread);
    const aborted = new AbortController();
    aborted.abort(new Error('before it was sent'));
    await expect(workers.run({ kind: 'echo', value: 'x' }, { signal: aborted.signal })).rejects.toBeInstanceOf(WorkerTaskAbortedError);
  });

  it('issue 31 item 1: a thread that reaches its heap limit fails its request with WorkerOutOfMemoryError and is replaced', async () => {
    const workers = pool(1, 32);
    await expect(workers.run({ kind: 'grow' })).rejects.toBeInstanceOf(WorkerOutOfMemoryError);
    await expect(workers.run({ kind: 'echo', value: 'after' })).resolves.toBe('after');
  });

  it('issue 31 item 7, issue 32: a thread whose heap grew past retireAfterHeapGrowthMb is replaced once idle for retireIdleMs; while requests follow it keeps serving, warm; one that did not grow stays', async () => {
    const retiredCount = async (name: string): Promise<number> =>
      (await metricsRegistry.getSingleMetric('docrender_worker_threads_retired_total')?.get())?.values.find((v) => v.labels.pool === name)?.value ?? 0;
    // idle at once (retireIdleMs 0): a grown thread is replaced at the first turn of the timers without a request
    const idle = new WorkerPool<TestRequest, string | number>({ entry, name: 'retiring-idle', size: 1, retireAfterHeapGrowthMb: 64, retireIdleMs: 0 });
    pools.push(idle);
    const small = await idle.run({ kind: 'keep', mb: 1 });
    // a timer set later than a 0 ms one fires after it: a retirement of the small thread would have happened by then
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(idle.run({ kind: 'thread' })).resolves.toBe(small);
    const large = await idle.run({ kind: 'keep', mb: 150 });
    expect(large).toBe(small);
    while ((await retiredCount('retiring-idle')) < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(idle.run({ kind: 'thread' })).resolves.not.toBe(large);
    expect(await retiredCount('retiring-idle')).toBe(1);

    // requests that follow one another (a stream of large documents) keep the grown thread: no thread start, no cold code
    const busy = new WorkerPool<TestRequest, string | number>({ entry, name: 'retiring-busy', size: 1, retireAfterHeapGrowthMb: 64, retireIdleMs: 600_000 });
    pools.push(busy);
    const grown = await busy.run({ kind: 'keep', mb: 150 });
    await expect(busy.run({ kind: 'keep', mb: 150 })).resolves.toBe(grown);
    await expect(busy.run({ kind: 'thread' })).resolves.toBe(grown);
    expect(await retiredCount('retiring-busy')).toBe(0);
  });

  it('an error thrown by the handler fails that request only', async () => {
    const workers = pool(1);
    await expect(workers.run({ kind: 'throw', message: 'bad request' })).rejects.toThrow(WorkerTaskFailedError);
    await expect(workers.run({ kind: 'throw', message: 'bad request' })).rejects.toThrow('Error: bad request');
    await expect(workers.run({ kind: 'echo', value: 'fine' })).resolves.toBe('fine');
  });

  it('a closed pool fails the requests it holds and takes no more', async () => {
    const workers = pool(1);
    const running = expect(workers.run({ kind: 'spin' })).rejects.toBeInstanceOf(WorkerPoolClosedError);
    const waiting = expect(workers.run({ kind: 'echo', value: 'late' })).rejects.toBeInstanceOf(WorkerPoolClosedError);
    await workers.close();
    await Promise.all([running, waiting]);
    await expect(workers.run({ kind: 'echo', value: 'x' })).rejects.toBeInstanceOf(WorkerPoolClosedError);
  });
});
