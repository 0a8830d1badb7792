import path from 'node:path';
import { toSharedBuffer, WorkerPool } from '@docrender/platform';
import { scanJsonBody, type JsonBodyScan } from './json-body.scanner';
import type { JsonScanRequest } from './json-scan.worker';

/** Bodies up to this size are scanned on the event loop: well under a millisecond, less than a worker round trip. */
export const SCAN_ON_EVENT_LOOP_MAX_BYTES = 64 * 1024;

/**
 * Scans render bodies (JSON syntax, document sizes, nesting depth) on worker threads (json-scan.worker.ts), so a
 * 50 MB document does not hold up the event loop and with it every other request. Small bodies are scanned in place.
 */
export class JsonScanPool {
  private readonly workers: WorkerPool<JsonScanRequest, JsonBodyScan>;

  constructor(size: number) {
    this.workers = new WorkerPool({ entry: path.join(__dirname, 'json-scan.worker'), name: 'json-scan', size });
  }

  scan(body: Buffer, splitKeys: readonly string[]): Promise<JsonBodyScan> {
    if (body.byteLength <= SCAN_ON_EVENT_LOOP_MAX_BYTES) return Promise.resolve(scanJsonBody(body, splitKeys));
    const shared = toSharedBuffer(body);
    return this.workers.run({ buffer: shared.buffer as SharedArrayBuffer, offset: shared.byteOffset, length: shared.byteLength, splitKeys: [...splitKeys] });
  }

  close(): Promise<void> {
    return this.workers.close();
  }
}
