import { BlobStoreUnavailableError } from '@docrender/storage';
import { StorageOutageError, waitOutStorage } from './storage-wait';

const unreachable = () => new BlobStoreUnavailableError('put', 'organisations/o/documents/d.pdf', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' }));
const refused = () => new BlobStoreUnavailableError('put', 'organisations/o/documents/d.pdf', Object.assign(new Error('Access Denied.'), { code: 'AccessDenied' }));

/** An operation that fails with `failure()` the first `failures` times, then answers 'stored'; it counts its tries. */
function flaky(failures: number, failure: () => Error) {
  const calls = { count: 0 };
  const operation = async () => {
    calls.count++;
    if (calls.count <= failures) throw failure();
    return 'stored';
  };
  return { operation, calls };
}

const options = { messageName: 'render.document' };

describe('waitOutStorage: the render service waits out a blob store outage only while that can still help (decision 0010, issue 31 item 6)', () => {
  it('an outage shorter than the budget is waited out: the operation is tried again and succeeds', async () => {
    const { operation, calls } = flaky(2, unreachable);
    await expect(waitOutStorage('storing the PDF', operation, Date.now() + 60_000, options)).resolves.toBe('stored');
    expect(calls.count).toBe(3);
  });

  it('a definite refusal of the store (AccessDenied) ends the wait at once: one try, no backoff, whatever budget is left', async () => {
    const { operation, calls } = flaky(Infinity, refused);
    const waits: number[] = [];
    const failure = waitOutStorage('storing the PDF', operation, Date.now() + 60_000, { ...options, onWait: (_, delayMs) => waits.push(delayMs) });
    await expect(failure).rejects.toBeInstanceOf(StorageOutageError);
    await expect(failure).rejects.toThrow(/refused the request, which waiting does not change/);
    expect([calls.count, waits]).toEqual([1, []]);
  });

  it('the wait stops as soon as the budget left after the next backoff cannot cover the work that must follow (a print after the data read)', async () => {
    const { operation, calls } = flaky(Infinity, unreachable);
    const waits: number[] = [];
    // 1.2 s left: the first backoff (250 ms) plus the print reserve (1 s) would end past the deadline.
    const failure = waitOutStorage('reading the document data', operation, Date.now() + 1_200, { ...options, reserveMs: 1_000, onWait: (_, delayMs) => waits.push(delayMs) });
    await expect(failure).rejects.toThrow(/stayed unreachable for as long as the render budget allowed/);
    expect([calls.count, waits]).toEqual([1, []]);
  });

  it('without work to follow the same budget is waited out (storing the PDF is the last step)', async () => {
    const { operation, calls } = flaky(Infinity, unreachable);
    const waits: number[] = [];
    const failure = waitOutStorage('storing the PDF', operation, Date.now() + 1_200, { ...options, onWait: (_, delayMs) => waits.push(delayMs) });
    await expect(failure).rejects.toBeInstanceOf(StorageOutageError);
    expect(waits[0]).toBe(250);
    expect(calls.count).toBeGreaterThan(1);
  });

  it('issue 31 item 6: with outageWaitMs (a sync render) an outage that outlasts it ends the wait then, not at the budget\'s end', async () => {
    const { operation, calls } = flaky(Infinity, unreachable);
    const waits: number[] = [];
    const failure = waitOutStorage('reading the document data', operation, Date.now() + 60_000, { ...options, outageWaitMs: 1_000, onWait: (_, delayMs) => waits.push(delayMs) });
    await expect(failure).rejects.toThrow(/stayed unreachable for \d+\.\d s, longer than a request waits for it/);
    // it waited, but never past the outage wait: no backoff would have ended beyond it
    expect(waits[0]).toBe(250);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeLessThanOrEqual(1_000);
    expect(calls.count).toBe(waits.length + 1);
  });

  it('an outage shorter than outageWaitMs is still waited out', async () => {
    const { operation, calls } = flaky(2, unreachable);
    await expect(waitOutStorage('storing the PDF', operation, Date.now() + 60_000, { ...options, outageWaitMs: 5_000 })).resolves.toBe('stored');
    expect(calls.count).toBe(3);
  });

  it('any other error is not an outage and is thrown at once', async () => {
    const { operation, calls } = flaky(Infinity, () => new TypeError('bad key'));
    await expect(waitOutStorage('storing the PDF', operation, Date.now() + 60_000, options)).rejects.toBeInstanceOf(TypeError);
    expect(calls.count).toBe(1);
  });
});
