import { scanJsonBody } from './json-body.scanner';
import { toSharedBuffer } from '@docrender/platform';
import { countEventLoopTurns } from '@docrender/testing';
import { JsonScanPool, SCAN_ON_EVENT_LOOP_MAX_BYTES } from './json-scan.pool';

/** A body of about `bytes` bytes: a documents array of objects holding long strings. */
function largeBody(bytes: number): Buffer {
  const document = JSON.stringify({ text: 'x'.repeat(64 * 1024), nested: { list: [1, 2, { deeper: [true, null] }] } });
  const count = Math.ceil(bytes / document.length);
  return Buffer.from(`{"documents":[${new Array<string>(count).fill(document).join(',')}],"includeDocument":false}`);
}

describe('JsonScanPool', () => {
  let pool: JsonScanPool;
  beforeEach(() => {
    pool = new JsonScanPool(2);
  });
  afterEach(async () => {
    await pool.close();
  });

  it('gives the same scan on a worker thread as in place', async () => {
    const body = largeBody(2 * 1024 * 1024);
    expect(body.byteLength).toBeGreaterThan(SCAN_ON_EVENT_LOOP_MAX_BYTES);
    await expect(pool.scan(body, ['documents'])).resolves.toEqual(scanJsonBody(body, ['documents']));
  });

  it('reports syntax errors from the worker', async () => {
    const body = Buffer.concat([largeBody(256 * 1024), Buffer.from('x')]);
    const scan = await pool.scan(body, ['documents']);
    expect(scan).toMatchObject({ valid: false, offset: body.byteLength - 1 });
  });

  it('8: the event loop keeps turning while a 50 MB body is scanned', async () => {
    const body = toSharedBuffer(largeBody(50 * 1024 * 1024));
    const { result: scan, turns } = await countEventLoopTurns(() => pool.scan(body, ['documents']));
    expect(scan.valid).toBe(true);
    expect(turns).toBeGreaterThan(1);
  });

  it('scans several bodies at once, more than it has workers', async () => {
    const bodies = [1, 2, 3, 4, 5].map((n) => largeBody(n * 100 * 1024));
    const scans = await Promise.all(bodies.map((b) => pool.scan(b, ['documents'])));
    expect(scans).toEqual(bodies.map((b) => scanJsonBody(b, ['documents'])));
  });

  it('refuses work once closed, and fails what was still queued', async () => {
    const single = new JsonScanPool(1);
    const first = single.scan(largeBody(8 * 1024 * 1024), ['documents']);
    const queued = single.scan(largeBody(128 * 1024), ['documents']);
    const closing = single.close();
    await expect(queued).rejects.toThrow('closed');
    await expect(first).rejects.toThrow('closed');
    await closing;
    await expect(single.scan(largeBody(128 * 1024), ['documents'])).rejects.toThrow('closed');
  });
});
