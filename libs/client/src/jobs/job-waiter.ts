import type { JobStatusDto } from '@docrender/contracts';
import { JobWaitTimeoutError } from '../errors/job-wait.error';
import { sleep } from '../http/http-transport';
import { JobState } from '@docrender/contracts/values';

/** The polling interval spec 4.6 calls adequate. */
export const DEFAULT_POLL_INTERVAL_MS = 2_000;

export type WaitOptions = {
  /** Time between polls. Default 2000 ms. */
  pollIntervalMs?: number;
  /** Give up after this long (JobWaitTimeoutError); default: wait as long as the job runs. */
  timeoutMs?: number;
  /** Stops waiting (rejects with the signal's reason); the job goes on. */
  signal?: AbortSignal;
  /** Called with every polled status, the terminal one included (e.g. to draw progress). */
  onStatus?: (status: JobStatusDto) => void;
};

/**
 * Polls `poll` until the job leaves `pending`. Any other state ends the wait, including one this SDK does not know,
 * so a newer service cannot trap the loop (spec 9.4). Nothing is sent to the service besides the polls: waiting,
 * timing out or aborting never cancels the job (spec 3.1 rule 4).
 */
export async function waitForJob(poll: (signal: AbortSignal) => Promise<JobStatusDto>, jobId: string, options: WaitOptions = {}): Promise<JobStatusDto> {
  const interval = Math.max(0, options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS);
  const stop = new AbortController();
  let deadlinePassed = false;
  const deadline =
    options.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          deadlinePassed = true;
          stop.abort();
        }, options.timeoutMs);
  const forwardAbort = (): void => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', forwardAbort, { once: true });
  let last: JobStatusDto | null = null;
  try {
    options.signal?.throwIfAborted();
    for (;;) {
      last = await poll(stop.signal);
      options.onStatus?.(last);
      if (last.state !== JobState.Pending) return last;
      await sleep(interval, stop.signal);
    }
  } catch (error) {
    if (deadlinePassed && !options.signal?.aborted) throw new JobWaitTimeoutError(jobId, options.timeoutMs ?? 0, last);
    throw error;
  } finally {
    clearTimeout(deadline);
    options.signal?.removeEventListener('abort', forwardAbort);
  }
}
