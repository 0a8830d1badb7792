import type { ResourceLimits, Transferable, Worker } from 'node:worker_threads';
import { counter, gauge } from '@docrender/observability';
import { startModuleWorker } from './module-worker';
import type { WorkerAnswer, WorkerMessage } from './worker-requests';

/** The pool is closed: no request is taken, and those waiting or running when it closed end with this. */
export class WorkerPoolClosedError extends Error {
  constructor(pool: string) {
    super(`the ${pool} worker pool is closed`);
    this.name = 'WorkerPoolClosedError';
  }
}

/** The caller's signal ended the request: it was taken out of the queue, or its worker was terminated mid-task. */
export class WorkerTaskAbortedError extends Error {
  constructor(
    pool: string,
    readonly reason: unknown,
  ) {
    super(`the ${pool} worker task was stopped: ${reason instanceof Error ? reason.message : String(reason)}`);
    this.name = 'WorkerTaskAbortedError';
  }
}

/** The worker running the request reached its resource limits (heap) and was ended; the pool replaced it. */
export class WorkerOutOfMemoryError extends Error {
  constructor(
    pool: string,
    readonly heapMb: number | undefined,
  ) {
    super(`the ${pool} worker ran out of memory${heapMb === undefined ? '' : ` (its heap is limited to ${heapMb} MB)`}`);
    this.name = 'WorkerOutOfMemoryError';
  }
}

/** The request's handler threw (the message names the error), or its worker ended for another reason. */
export class WorkerTaskFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerTaskFailedError';
  }
}

const stopped = counter(
  'docrender_worker_tasks_stopped_total',
  'Worker-thread tasks ended by terminating their worker, by pool and reason (deadline: the caller stopped it; memory: the worker reached its heap limit).',
  ['pool', 'reason'],
);

const retired = counter(
  'docrender_worker_threads_retired_total',
  'Worker threads replaced because their heap had grown past the pool\'s bound (retireAfterHeapGrowthMb) and they then stayed idle (retireIdleMs): the memory a large request made a thread keep goes back to the system.',
  ['pool'],
);

/** The pools open in this process, read at each scrape. */
const openPools = new Set<{ name: string; running: number; waiting: number }>();

gauge(
  'docrender_worker_tasks_running',
  'Worker-thread tasks running now, by pool: at the pool size (e.g. RENDER_COMPILE_THREADS) further tasks wait.',
  ['pool'],
  function collect() {
    this.reset();
    for (const pool of openPools) this.inc({ pool: pool.name }, pool.running);
  },
);
gauge('docrender_worker_tasks_waiting', 'Worker-thread tasks waiting for a free thread, by pool.', ['pool'], function collect() {
  this.reset();
  for (const pool of openPools) this.inc({ pool: pool.name }, pool.waiting);
});

/** WorkerPoolOptions.retireAfterHeapGrowthMb when a pool does not set it. */
const DEFAULT_RETIRE_AFTER_HEAP_GROWTH_MB = 64;
/** WorkerPoolOptions.retireIdleMs when a pool does not set it. */
const DEFAULT_RETIRE_IDLE_MS = 10_000;

export type WorkerPoolOptions = {
  /** The worker module: an absolute path without extension (see startModuleWorker). */
  entry: string;
  /** Names the threads and the pool in errors and metrics. */
  name: string;
  /** Worker threads at most. */
  size: number;
  /** V8 limits of each worker (maxOldGenerationSizeMb above all): one request cannot take the memory of the others. */
  resourceLimits?: ResourceLimits;
  /**
   * A worker whose heap has grown by more than this (MB) since it started serving is replaced once it has stayed idle
   * for `retireIdleMs`: V8 keeps the space a large request made a thread grow until that thread's own later
   * collections, so an idle pool would hold the peak of its largest requests. Ending the thread gives all of it back
   * at once. Default 64 MB: a render-service compile thread grows by about 40 MB over its first invoice, which keeps it.
   */
  retireAfterHeapGrowthMb?: number;
  /**
   * How long a grown worker (retireAfterHeapGrowthMb) stays idle before it is replaced; a request in that time finds
   * it warm (its code optimised, its caches kept), so a stream of large documents does not pay a thread start and
   * a cold compile for each. Default 10 s: longer than most documents take to print after their compile (a
   * 10,000-row statement: 5 s on the faster 2-core machine of docs/performance.md), short enough that an idle service
   * gives the memory back soon after its last large document.
   */
  retireIdleMs?: number;
};

type Task<Request, Reply> = {
  request: Request;
  transfer: readonly Transferable[];
  signal: AbortSignal | undefined;
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
  settled: boolean;
  onAbort: () => void;
};

function settle<Request, Reply>(task: Task<Request, Reply>, outcome: { reply: Reply } | { error: Error }): void {
  if (task.settled) return;
  task.settled = true;
  task.signal?.removeEventListener('abort', task.onAbort);
  if ('reply' in outcome) task.resolve(outcome.reply);
  else task.reject(outcome.error);
}

class PooledWorker<Request, Reply> {
  private readonly worker: Worker;
  private current: Task<Request, Reply> | null = null;
  /** Being terminated (its task stopped, or the pool closing): takes no more tasks. */
  private retired = false;
  /** The worker's heap when it started serving (MB), before any request. */
  private startHeapMb = 0;
  /** Set while the worker, grown past retireAfterHeapGrowthMb, waits idle to be replaced (retireIdleMs). */
  private idleRetirement: NodeJS.Timeout | null = null;

  constructor(
    private readonly options: WorkerPoolOptions,
    onIdle: () => void,
    onExit: (worker: PooledWorker<Request, Reply>) => void,
  ) {
    const { retireAfterHeapGrowthMb = DEFAULT_RETIRE_AFTER_HEAP_GROWTH_MB, retireIdleMs = DEFAULT_RETIRE_IDLE_MS } = options;
    this.worker = startModuleWorker(options.entry, options.name, options.resourceLimits);
    this.worker.unref();
    this.worker.on('message', (answer: WorkerAnswer<Reply>) => {
      if ('ready' in answer) {
        this.startHeapMb = answer.heapMb;
        return;
      }
      const task = this.current;
      this.current = null;
      if (task) settle(task, 'reply' in answer ? { reply: answer.reply } : { error: new WorkerTaskFailedError(`${options.name} worker: ${answer.error}`) });
      if (this.retired) return;
      if (answer.heapMb - this.startHeapMb > retireAfterHeapGrowthMb) {
        // replaced if no request comes meanwhile; its replacement starts at once, not when this thread has wound down
        this.idleRetirement = setTimeout(() => {
          this.idleRetirement = null;
          if (this.retired || this.current !== null) return;
          retired.inc({ pool: options.name });
          void this.terminate();
          onExit(this);
        }, retireIdleMs);
        this.idleRetirement.unref();
      }
      onIdle();
    });
    this.worker.on('error', (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        if (this.current) stopped.inc({ pool: options.name, reason: 'memory' });
        this.fail(new WorkerOutOfMemoryError(options.name, options.resourceLimits?.maxOldGenerationSizeMb));
      } else {
        this.fail(new WorkerTaskFailedError(`${options.name} worker: ${error.message}`));
      }
    });
    this.worker.on('exit', (code) => {
      this.retired = true;
      this.stopIdleRetirement();
      this.fail(new WorkerTaskFailedError(`${options.name} worker exited with code ${code}`));
      onExit(this);
    });
  }

  get available(): boolean {
    return !this.retired && this.current === null;
  }

  get busy(): boolean {
    return this.current !== null;
  }

  run(task: Task<Request, Reply>): void {
    this.stopIdleRetirement();
    this.current = task;
    const message: WorkerMessage<Request> = { request: task.request };
    this.worker.postMessage(message, task.transfer);
  }

  /** Ends the worker if it runs `task`: the only way to stop code that holds its thread. Returns whether it did. */
  stop(task: Task<Request, Reply>): boolean {
    if (this.current !== task) return false;
    this.current = null;
    stopped.inc({ pool: this.options.name, reason: 'deadline' });
    void this.terminate();
    return true;
  }

  async terminate(): Promise<void> {
    this.retired = true;
    this.stopIdleRetirement();
    await this.worker.terminate();
  }

  /** Ends the worker, failing its request (if any) with `error`. */
  async close(error: Error): Promise<void> {
    this.retired = true;
    this.stopIdleRetirement();
    this.fail(error);
    await this.worker.terminate();
  }

  private stopIdleRetirement(): void {
    if (this.idleRetirement === null) return;
    clearTimeout(this.idleRetirement);
    this.idleRetirement = null;
  }

  private fail(error: Error): void {
    const task = this.current;
    this.current = null;
    if (task) settle(task, { error });
  }
}

/**
 * Up to `size` worker threads running the module `entry` (see startModuleWorker), one request at a time each; more
 * requests wait in order. Workers start on first use, or all at once with `start()` (a warm pool: no request waits for
 * a thread to start). A request's `signal` stops it: a waiting one leaves the queue, a running one's worker is
 * terminated — the only way to stop code that holds a thread — and replaced; either way the request rejects with
 * WorkerTaskAbortedError. A worker that reaches its resourceLimits rejects its request with WorkerOutOfMemoryError and
 * is replaced, and so is one whose heap grew by more than retireAfterHeapGrowthMb by the end of a request, once it
 * has stayed idle for retireIdleMs. Requests
 * travel by structured clone: pass large bytes as a SharedArrayBuffer, which is shared, not copied, or list
 * ArrayBuffers in `transfer`.
 */
export class WorkerPool<Request, Reply> {
  private readonly workers: PooledWorker<Request, Reply>[] = [];
  private readonly queue: Task<Request, Reply>[] = [];
  private closed = false;
  /** Workers kept running once started (start()): a stopped or dead one is replaced at once. */
  private warm = 0;

  constructor(private readonly options: WorkerPoolOptions) {
    openPools.add(this);
  }

  get name(): string {
    return this.options.name;
  }

  get size(): number {
    return this.options.size;
  }

  /** Tasks a thread is running now (`docrender_worker_tasks_running`). */
  get running(): number {
    return this.workers.filter((w) => w.busy).length;
  }

  /** Tasks waiting for a free thread (`docrender_worker_tasks_waiting`). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Starts every worker now rather than on first use. */
  start(): void {
    this.warm = this.options.size;
    this.fill();
  }

  run(request: Request, options: { signal?: AbortSignal; transfer?: readonly Transferable[] } = {}): Promise<Reply> {
    const { signal, transfer = [] } = options;
    if (this.closed) return Promise.reject(new WorkerPoolClosedError(this.options.name));
    if (signal?.aborted === true) return Promise.reject(new WorkerTaskAbortedError(this.options.name, signal.reason));
    return new Promise<Reply>((resolve, reject) => {
      const task: Task<Request, Reply> = { request, transfer, signal, resolve, reject, settled: false, onAbort: () => this.abort(task) };
      signal?.addEventListener('abort', task.onAbort, { once: true });
      this.queue.push(task);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    openPools.delete(this);
    for (const task of this.queue.splice(0)) settle(task, { error: new WorkerPoolClosedError(this.options.name) });
    await Promise.all(this.workers.splice(0).map((w) => w.close(new WorkerPoolClosedError(this.options.name))));
  }

  private abort(task: Task<Request, Reply>): void {
    if (task.settled) return;
    const waiting = this.queue.indexOf(task);
    if (waiting >= 0) this.queue.splice(waiting, 1);
    else {
      // the stopped worker makes way for its replacement at once, not when its thread has wound down
      const worker = this.workers.find((w) => w.stop(task));
      if (worker) this.remove(worker);
    }
    settle(task, { error: new WorkerTaskAbortedError(this.options.name, task.signal?.reason) });
  }

  private spawn(): PooledWorker<Request, Reply> {
    const worker = new PooledWorker<Request, Reply>(
      this.options,
      () => this.dispatch(),
      (exited) => this.remove(exited),
    );
    this.workers.push(worker);
    return worker;
  }

  private fill(): void {
    while (!this.closed && this.workers.length < this.warm) this.spawn();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.workers.find((w) => w.available);
      if (!worker && this.workers.length < this.options.size) worker = this.spawn();
      if (!worker) return;
      const task = this.queue.shift();
      if (task) worker.run(task);
    }
  }

  private remove(worker: PooledWorker<Request, Reply>): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    if (this.closed) return;
    this.fill();
    this.dispatch();
  }
}
