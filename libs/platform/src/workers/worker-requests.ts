import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';

/** What the pool posts to a worker: one request. */
export type WorkerMessage<Request> = { request: Request };
/**
 * What a worker posts back: its handler's reply, or the error it threw (as text: errors do not cross threads), and the
 * size of the worker's heap (MB) after the request — or, once, when it starts serving (`ready`) — by which the pool
 * retires a thread that grew (retireAfterHeapGrowthMb).
 */
export type WorkerAnswer<Reply> = ({ reply: Reply } | { error: string } | { ready: true }) & { heapMb: number };

/**
 * The worker side of a WorkerPool (libs/platform): answers each request with `handle`'s result, or with the error it
 * threw. One request at a time: the pool sends the next only after the answer. A worker module imports this entry
 * (`@docrender/platform/workers`), not `@docrender/platform`, so the worker does not load NestJS and the rest of the
 * platform.
 */
export function serveWorkerRequests<Request, Reply>(handle: (request: Request) => Reply | Promise<Reply>): void {
  if (parentPort === null) throw new Error('serveWorkerRequests runs in a worker thread only');
  const port = parentPort;
  const heapMb = (): number => getHeapStatistics().total_heap_size / 2 ** 20;
  // the heap the worker starts serving with: its modules loaded, no request taken
  port.postMessage({ ready: true, heapMb: heapMb() } satisfies WorkerAnswer<Reply>);
  port.on('message', (message: WorkerMessage<Request>) => {
    const answer = (async (): Promise<{ reply: Reply } | { error: string }> => {
      try {
        return { reply: await handle(message.request) };
      } catch (error) {
        return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
      }
    })();
    void answer.then((a) => port.postMessage({ ...a, heapMb: heapMb() } satisfies WorkerAnswer<Reply>));
  });
}
export { bufferOf, type SharedBytes } from './shared-bytes';
