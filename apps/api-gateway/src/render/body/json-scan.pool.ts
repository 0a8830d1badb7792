import { Worker } from 'node:worker_threads';
import { scanJsonBody, type JsonBodyScan } from './json-body.scanner';

/** Bodies up to this size are scanned on the event loop: well under a millisecond, less than a worker round trip. */
export const SCAN_ON_EVENT_LOOP_MAX_BYTES = 64 * 1024;

type ScanTask = {
  body: Buffer;
  splitKeys: readonly string[];
  resolve: (scan: JsonBodyScan) => void;
  reject: (error: Error) => void;
};

type ScanRequest = { buffer: SharedArrayBuffer; offset: number; length: number; splitKeys: readonly string[] };
type ScanReply = { scan: JsonBodyScan };

/**
 * The worker's program: scanJsonBody from its own source text (it is self-contained), answering one request at a time.
 * Built from the function's source so that the same code runs from the compiled output and under the test runner.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const scanJsonBody = ${scanJsonBody.toString()};
parentPort.on('message', (request) => {
  const bytes = new Uint8Array(request.buffer, request.offset, request.length);
  parentPort.postMessage({ scan: scanJsonBody(bytes, request.splitKeys) });
});
`;

/** A body in memory other threads can read without a copy. */
export function toSharedBuffer(body: Buffer): Buffer {
  if (body.buffer instanceof SharedArrayBuffer) return body;
  const shared = Buffer.from(new SharedArrayBuffer(body.byteLength));
  body.copy(shared);
  return shared;
}

class ScanWorker {
  private readonly worker: Worker;
  private current: ScanTask | null = null;

  constructor(private readonly onIdle: (worker: ScanWorker) => void, private readonly onExit: (worker: ScanWorker) => void) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, name: 'json-scan' });
    this.worker.unref();
    this.worker.on('message', (reply: ScanReply) => {
      const task = this.current;
      this.current = null;
      task?.resolve(reply.scan);
      this.onIdle(this);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      this.fail(new Error(`JSON scan worker exited with code ${code}`));
      this.onExit(this);
    });
  }

  get busy(): boolean {
    return this.current !== null;
  }

  run(task: ScanTask): void {
    this.current = task;
    const shared = toSharedBuffer(task.body);
    const request: ScanRequest = { buffer: shared.buffer as SharedArrayBuffer, offset: shared.byteOffset, length: shared.byteLength, splitKeys: task.splitKeys };
    this.worker.postMessage(request);
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
 * Scans render bodies (JSON syntax, document sizes, nesting depth) on worker threads, so a 50 MB document does not
 * hold up the event loop and with it every other request. Small bodies are scanned in place. Workers start on first
 * use; one that dies fails its task and is replaced by the next task that needs it.
 */
export class JsonScanPool {
  private readonly workers: ScanWorker[] = [];
  private readonly queue: ScanTask[] = [];
  private closed = false;

  constructor(private readonly size: number) {}

  scan(body: Buffer, splitKeys: readonly string[]): Promise<JsonBodyScan> {
    if (this.closed) return Promise.reject(new Error('the JSON scan pool is closed'));
    if (body.byteLength <= SCAN_ON_EVENT_LOOP_MAX_BYTES) return Promise.resolve(scanJsonBody(body, splitKeys));
    return new Promise<JsonBodyScan>((resolve, reject) => {
      this.queue.push({ body, splitKeys, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('the JSON scan pool is closed'));
    await Promise.all(this.workers.splice(0).map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.workers.find((w) => !w.busy);
      if (!worker && this.workers.length < this.size) {
        worker = new ScanWorker(
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

  private remove(worker: ScanWorker): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    if (!this.closed) this.dispatch();
  }
}
