import { JobState, type JobStatusDto } from '@docrender/client';
import type { CommandDefinition } from '../cli/command';
import { EXIT_FAILED, EXIT_OK } from '../cli/cli-io';
import { integerOption, positional } from '../cli/option-values';
import { keyValues } from '../output/table';

const DEFAULT_POLL_INTERVAL_MS = 2_000;

/**
 * `jobs wait <jobId>`: resumes waiting on an asynchronous job (one enqueued by `render --async`, a script or the SDK),
 * polling its status with a progress bar and an estimate of the time left, until it leaves `pending`. Waiting never
 * changes the job (spec 3.1 rule 4): interrupting this command leaves it running, and it may be waited on again.
 */
export const jobsWaitCommand: CommandDefinition = {
  words: ['jobs', 'wait'],
  summary: 'Wait for an asynchronous job to end (again, e.g. after render --async was interrupted); exits 1 unless every document rendered.',
  arguments: '<jobId>',
  help: [['--poll-interval <ms>', `time between job status polls (default ${DEFAULT_POLL_INTERVAL_MS})`]],
  options: { 'poll-interval': { type: 'string' } },
  async run({ output, positionals, values, client }) {
    const jobId = positional(positionals, 0, 'jobId');
    let bar: ReturnType<typeof output.progress> | undefined;
    const status = await client().jobs.wait(jobId, {
      pollIntervalMs: integerOption(values, 'poll-interval', 100) ?? DEFAULT_POLL_INTERVAL_MS,
      onStatus: (polled) => {
        bar ??= output.progress('job', polled.requestedCount, 'documents');
        bar?.update(polled.state === JobState.Pending ? polled.renderedCount : polled.renderedCount + polled.missingCount);
      },
    });
    bar?.finish();
    output.result(status);
    output.line(keyValues(statusLines(status)));
    return status.state === JobState.Completed && status.missingCount === 0 ? EXIT_OK : EXIT_FAILED;
  },
};

function statusLines(status: JobStatusDto): [string, string][] {
  const lines: [string, string][] = [
    ['job', status.jobId],
    ['state', status.status === null ? status.state : `${status.state} (${status.status})`],
    ['rendered', `${status.renderedCount} of ${status.requestedCount}`],
    ['missing', String(status.missingCount)],
    ['issues', String(status.issues.length)],
  ];
  if (status.failureReason !== null) lines.push(['failure', status.failureReason]);
  return lines;
}
