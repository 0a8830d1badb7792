import { BlobStoreUnavailableError } from '@docrender/storage';
import { throwIfAbandoned } from './transient-failure.error';

/** The first wait after the blob store failed a request; it doubles up to MAX_DELAY_MS. */
const FIRST_DELAY_MS = 250;
/** The longest wait between two tries: a document resumes within this long of the store coming back. */
const MAX_DELAY_MS = 2_000;

/**
 * Past the data read a document still has to be printed: with less of its budget left than this after the next wait,
 * it could not finish even if the store came back then (a print on a free page takes about this long or more).
 */
export const PRINT_RESERVE_MS = 1_000;

/**
 * The blob store cannot serve the document within its budget: it stayed unavailable for as long as waiting could
 * still have helped, or it refused the request outright. The document ends without a PDF.
 */
export class StorageOutageError extends Error {
  constructor(what: string, cause: unknown, why: 'budget' | 'refused' | { outageMs: number }) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      why === 'refused'
        ? `${what}: the blob store refused the request, which waiting does not change (${reason})`
        : why === 'budget'
          ? `${what}: the blob store stayed unreachable for as long as the render budget allowed (${reason})`
          : `${what}: the blob store stayed unreachable for ${(why.outageMs / 1000).toFixed(1)} s, longer than a request waits for it (${reason})`,
      { cause },
    );
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
 * 250 ms doubling to 2 s, for as long as that can still help; then StorageOutageError, as soon as the outcome is
 * certain (issue 31): when the store refused the request (BlobStoreUnavailableError.refused); when what is left of
 * the document's `deadline` after the next wait could not cover `reserveMs`, the work that must follow the operation
 * (PRINT_RESERVE_MS after the data read; 0 after storing the PDF); or, given `outageWaitMs` (a caller holding a
 * client's connection: RenderDocumentCommand.storageOutageWaitMs), when the next wait would end more than that long
 * after the first failure: an outage that outlasts a blip is answered then, not at the budget's end (decision 0041).
 * Any other error is thrown at once. A delivery abandoned meanwhile (its message went back to the queue) stops the wait.
 */
export async function waitOutStorage<T>(
  what: string,
  operation: () => Promise<T>,
  deadline: number,
  options: {
    abandoned?: AbortSignal;
    messageName: string;
    reserveMs?: number;
    outageWaitMs?: number;
    onWait?: (error: BlobStoreUnavailableError, delayMs: number) => void;
  },
): Promise<T> {
  let delay = FIRST_DELAY_MS;
  let firstFailure: number | null = null;
  for (;;) {
    try {
      return await operation();
    } catch (error) {
      if (!(error instanceof BlobStoreUnavailableError)) throw error;
      if (error.refused) throw new StorageOutageError(what, error, 'refused');
      const now = Date.now();
      firstFailure ??= now;
      if (deadline - now <= delay + (options.reserveMs ?? 0)) throw new StorageOutageError(what, error, 'budget');
      if (options.outageWaitMs !== undefined && now + delay - firstFailure > options.outageWaitMs) {
        throw new StorageOutageError(what, error, { outageMs: now - firstFailure });
      }
      options.onWait?.(error, delay);
      await sleep(delay, options.abandoned);
      throwIfAbandoned(options.abandoned, options.messageName);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
