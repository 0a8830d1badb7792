import { DependencyOutageError } from '@docrender/contracts';
import type { Readable } from 'node:stream';

export type BlobInfo = { key: string; sizeBytes: number; contentType: string };

/** The most blobs one `list` call answers (an S3 ListObjectsV2 answer's most): a request's cost is its page's, never the prefix's. */
export const MAX_BLOB_LIST_LIMIT = 1000;

/** Which page of a prefix `list` answers: at most `limit` (1 to MAX_BLOB_LIST_LIMIT) blobs whose keys sort after `after`. */
export type BlobListPage = { limit: number; after?: string };

/** A page of blobs in key order; `truncated` when the prefix holds more after the last one (its key is the next page's `after`). */
export type BlobListing = { blobs: BlobInfo[]; truncated: boolean };

/** Refuses a page size outside 1 to MAX_BLOB_LIST_LIMIT (a caller's mistake: no adapter lists a prefix whole). */
export function assertListLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_BLOB_LIST_LIMIT) throw new RangeError(`a blob listing's limit must be an integer from 1 to ${MAX_BLOB_LIST_LIMIT}, not ${limit}`);
}

/**
 * The port for blob storage (PDFs, preview images, font files, large job inputs).
 * Adapters: MinIO/S3 (`minio` client) and filesystem (one-process mode); MemoryBlobStore for unit tests.
 */
export interface BlobStore {
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<Buffer>;
  getStream(key: string): Promise<Readable>;
  /** null when the key does not exist. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Deleting a key that does not exist is not an error. */
  delete(key: string): Promise<void>;
  /**
   * The first `page.limit` blobs whose keys start with `<prefix>/` (at any depth) and sort after `page.after` (any
   * string; from the first when absent), in key order; none is no error. Bounded by the page, not by the prefix: an
   * adapter reads no more of the listing than the page needs and stats only the page's blobs. A blob deleted while
   * the page is read may be left out of it.
   */
  list(prefix: string, page: BlobListPage): Promise<BlobListing>;
  /** Resolves when the store answers (used by readiness probes); rejects with a reason otherwise. */
  ping(): Promise<void>;
}

export const BLOB_STORE = Symbol('BlobStore');

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob not found: ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

/**
 * S3 error codes by which the store refuses a request for a reason that waiting does not change (credentials,
 * permissions, a missing bucket): an operator has to act. Anything else it fails with may pass (5xx, SlowDown, a
 * reset connection, an answer that is not S3).
 */
const REFUSAL_CODES = new Set([
  'AccessDenied',
  'AccountProblem',
  'AllAccessDisabled',
  'ExpiredToken',
  'InvalidAccessKeyId',
  'InvalidBucketName',
  'InvalidToken',
  'NoSuchBucket',
  'SignatureDoesNotMatch',
]);

/**
 * The blob store did not serve a request: unreachable, timed out, answered with a server error or with something
 * that is not an S3 answer. An outage of a dependency (`blob storage`), not a fault of the request: retry later.
 * `refused` says the store answered with a definite refusal (REFUSAL_CODES): still the store's fault, but one that
 * waiting within a request's budget cannot outlast, so a caller that waits stops at once (issue 31).
 */
export class BlobStoreUnavailableError extends DependencyOutageError {
  readonly refused: boolean;

  constructor(operation: string, key: string, cause: unknown) {
    super('blob storage', `the blob store did not serve ${operation} ${key}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'BlobStoreUnavailableError';
    const code = (cause as { code?: unknown } | null)?.code;
    this.refused = typeof code === 'string' && REFUSAL_CODES.has(code);
  }
}
