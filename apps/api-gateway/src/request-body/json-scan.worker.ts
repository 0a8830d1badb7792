import { serveWorkerRequests } from '@docrender/platform/workers';
import { scanJsonBody, type JsonBodyScan } from './json-body.scanner';

/** A body to scan: bytes in shared memory (not copied between threads). */
export type JsonScanRequest = { buffer: SharedArrayBuffer; offset: number; length: number; splitKeys: string[] };

serveWorkerRequests<JsonScanRequest, JsonBodyScan>((request) => scanJsonBody(new Uint8Array(request.buffer, request.offset, request.length), request.splitKeys));
