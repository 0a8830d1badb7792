import { parentPort, type Worker } from 'node:worker_threads';
import { startModuleWorker } from './module-worker';

type Message<Request> = { request: Request };
type Answer<Reply> = { reply: Reply } | { error: string };

/** The worker side: answers each request with `handle`'s result (or the error it threw). */
export function serveWorkerRequests<Request, Reply>(handle: (request: Request) => Reply): void {
  if (parentPort === null) throw new Error('serveWorkerRequests runs in a worker thread only');
  const port = parentPort;
  port.on('message', (message: Message<Request>) => {
    let answer: Answer<Reply>;
    try {
      answer = { reply: handle(message.request) };
    } catch (error) {
      answer = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    }
    port.postMessage(answer);
  });
}

type Task<Request, Reply> = { request: Request; resolve: (reply: Reply) => void; reject: (error: Error) => void };

class PooledWorker<Request, Reply> {
  private readonly worker: Worker;
  private current: Task<Request, Reply> | null = null;

  constructor(entry: string, name: string, onIdle: () => void, onExit: (worker: PooledWorker<Request, Reply>) => void) {
    this.worker = startModuleWorker(entry, name);
    this.worker.unref();
    this.worker.on('message', (answer: Answer<Reply>) => {
      const task = this.current;
      this.current = null;
      if (task) {
        if ('reply' in answer) task.resolve(answer.reply);
        else task.reject(new Error(`${name} worker: ${answer.error}`));
      }
      onIdle();
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      this.fail(new Error(`${name} worker exited with code ${code}`));
      onExit(this);
    });
  }

  get busy(): boolean {
    return this.current !== null;
  }

  run(task: Task<Request, Reply>): void {
    this.current = task;
    const message: Message<Request> = { request: task.request };
    this.worker.postMessage(message);
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }

  private fail(error: Error): void {
    const task = this.current;
    this.current = null;
    task?.reject(error);
  }
}

/**
 * Up to `size` worker threads running the module `entry` (see startModuleWorker), one request at a time each; more
 * requests wait in order. Workers start on first use; one that dies fails its request and is replaced when needed.
 * Requests travel by structured clone: pass large bytes as a SharedArrayBuffer, which is shared, not copied.
 */
export class WorkerPool<Request, Reply> {
  private readonly workers: PooledWorker<Request, Reply>[] = [];
  private readonly queue: Task<Request, Reply>[] = [];
  private closed = false;

  constructor(
    private readonly entry: string,
    private readonly name: string,
    private readonly size: number,
  ) {}

  run(request: Request): Promise<Reply> {
    if (this.closed) return Promise.reject(new Error(`the ${this.name} worker pool is closed`));
    return new Promise<Reply>((resolve, reject) => {
      this.queue.push({ request, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error(`the ${this.name} worker pool is closed`));
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.workers.find((w) => !w.busy);
      if (!worker && this.workers.length < this.size) {
        worker = new PooledWorker<Request, Reply>(
          this.entry,
          this.name,
          () => this.dispatch(),
          (exited) => this.remove(exited),
        );
        this.workers.push(worker);
      }
      if (!worker) return;
      const task = this.queue.shift();
      if (task) worker.run(task);
    }
  }

  private remove(worker: PooledWorker<Request, Reply>): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    if (!this.closed) this.dispatch();
  }
}
