import { BlobStoreUnavailableError } from '@docrender/storage';
import { throwIfAbandoned } from './transient-failure.error';

/** The first wait after the blob store failed a request; it doubles up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 250;
/** The longest wait between two tries: a document resumes within this long of the store coming back. */
const MAX_DELAY_MS = 2_000;

/** The blob store stayed unavailable until the document's deadline: the document ends without a PDF. */
export class StorageOutageError extends Error {
  constructor(what: string, cause: unknown) {
    super(`${what}: the blob store stayed unreachable until the render budget ran out (${cause instanceof Error ? cause.message : String(cause)})`, {
      cause,
    });
    this.name = 'StorageOutageError';
  }
}

const sleep = (ms: number, abandoned?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      abandoned?.removeEventListener('abort', done);
      resolve();
    }
    abandoned?.addEventListener('abort', done, { once: true });
  });

/**
 * Runs a blob store operation, waiting out an outage of the store (BlobStoreUnavailableError) with backoff from
 * 250 ms doubling to 2 s, for as long as the document's `deadline` allows; then StorageOutageError. Any other error
 * is thrown at once. A delivery abandoned meanwhile (its message went back to the queue) stops the wait.
 */
export async function waitOutStorage<T>(
  what: string,
  operation: () => Promise<T>,
  deadline: number,
  options: { abandoned?: AbortSignal; messageName: string; onWait?: (error: BlobStoreUnavailableError, delayMs: number) => void },
): Promise<T> {
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof BlobStoreUnavailableError)) throw error;
      if (deadline - Date.now() <= delay) throw new StorageOutageError(what, error);
      options.onWait?.(error, delay);
      await sleep(delay, options.abandoned);
      throwIfAbandoned(options.abandoned, options.messageName);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
