import type { JobStatusDto } from '@docrender/contracts';
import { DocrenderError } from './docrender.error';

/** `jobs.wait` gave up after its `timeoutMs`; the job itself goes on (waiting never cancels anything server-side). */
export class JobWaitTimeoutError extends DocrenderError {
  constructor(
    readonly jobId: string,
    readonly timeoutMs: number,
    /** The last status polled, or null when no poll answered. */
    readonly lastStatus: JobStatusDto | null,
  ) {
    super(`job ${jobId} still ${lastStatus?.state ?? 'unknown'} after ${timeoutMs} ms of waiting; it was not cancelled`);
  }
}
