import type { JobStatusDto } from '@docrender/contracts';
import { JobWaitTimeoutError } from '../errors/job-wait.error';
import { waitForJob } from './job-waiter';

const status = (state: string, renderedCount = 0): JobStatusDto =>
  ({ jobId: 'j', state, status: null, renderedCount, requestedCount: 3, missingCount: 3 - renderedCount, issues: [], startedAt: '', completedAt: null, failureReason: null }) as unknown as JobStatusDto;

/** A poll answering the given states in turn (the last one repeatedly). */
function polls(states: string[]) {
  let n = 0;
  const poll = jest.fn(async () => status(states[Math.min(n, states.length - 1)], n++));
  return poll;
}

describe('job waiter (spec 4.6, 3.1, 9.4)', () => {
  it('4.6: polls until the state is no longer pending and reports every status', async () => {
    const poll = polls(['pending', 'pending', 'completed']);
    const seen: string[] = [];
    const result = await waitForJob(poll, 'j', { pollIntervalMs: 1, onStatus: (s) => seen.push(s.state) });
    expect(result.state).toBe('completed');
    expect(seen).toEqual(['pending', 'pending', 'completed']);
    expect(poll).toHaveBeenCalledTimes(3);
  });

  it('9.4: an unrecognised state is terminal, so a newer service cannot trap the loop', async () => {
    const poll = polls(['pending', 'archived']);
    expect((await waitForJob(poll, 'j', { pollIntervalMs: 1 })).state).toBe('archived');
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('3.1 rule 4: a timeout stops the polling with JobWaitTimeoutError carrying the last status; nothing else is sent', async () => {
    const poll = polls(['pending']);
    const error = await waitForJob(poll, 'j', { pollIntervalMs: 20, timeoutMs: 70 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobWaitTimeoutError);
    expect((error as JobWaitTimeoutError).lastStatus?.state).toBe('pending');
    const calls = poll.mock.calls.length;
    await new Promise((r) => setTimeout(r, 60));
    expect(poll).toHaveBeenCalledTimes(calls);
  });

  it('3.1 rule 4: aborting rejects with the signal’s reason and stops polling', async () => {
    const poll = polls(['pending']);
    const controller = new AbortController();
    const waiting = waitForJob(poll, 'j', { pollIntervalMs: 10, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user stopped')), 35);
    await expect(waiting).rejects.toThrow('user stopped');
    const calls = poll.mock.calls.length;
    await new Promise((r) => setTimeout(r, 40));
    expect(poll).toHaveBeenCalledTimes(calls);
  });
});
