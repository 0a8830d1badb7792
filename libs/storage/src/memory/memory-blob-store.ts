import { Readable } from 'node:stream';
import { assertValidBlobKey } from '../blob-key';
import { assertListLimit, BlobNotFoundError, type BlobInfo, type BlobListing, type BlobListPage, type BlobStore } from '../blob-store';

/**
 * A BlobStore in memory, for unit tests (never configured by an app): it passes the same contract as the filesystem
 * and MinIO adapters (blob-store.behaviour.ts), keeps what it holds in `blobs`, and records the keys it read and
 * wrote. A test that needs a failure overrides the method that should fail.
 */
export class MemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, Buffer>();
  readonly contentTypes = new Map<string, string>();
  /** Keys read with get or getStream, in order. */
  readonly reads: string[] = [];
  /** Keys written with put, in order. */
  readonly writes: string[] = [];

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidBlobKey(key);
    this.writes.push(key);
    this.blobs.set(key, Buffer.from(body));
    this.contentTypes.set(key, contentType);
  }

  async get(key: string): Promise<Buffer> {
    assertValidBlobKey(key);
    this.reads.push(key);
    const blob = this.blobs.get(key);
    if (blob === undefined) throw new BlobNotFoundError(key);
    return Buffer.from(blob);
  }

  async getStream(key: string): Promise<Readable> {
    return Readable.from([await this.get(key)]);
  }

  async stat(key: string): Promise<BlobInfo | null> {
    assertValidBlobKey(key);
    const blob = this.blobs.get(key);
    return blob === undefined ? null : { key, sizeBytes: blob.length, contentType: this.contentTypes.get(key) ?? 'application/octet-stream' };
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    this.blobs.delete(key);
    this.contentTypes.delete(key);
  }

  async list(prefix: string, { limit, after }: BlobListPage): Promise<BlobListing> {
    assertValidBlobKey(prefix);
    assertListLimit(limit);
    const keys = [...this.blobs.keys()].filter((key) => key.startsWith(`${prefix}/`) && (after === undefined || key > after)).sort();
    const blobs = keys.slice(0, limit).map((key) => ({ key, sizeBytes: this.blobs.get(key)?.length ?? 0, contentType: this.contentTypes.get(key) ?? 'application/octet-stream' }));
    return { blobs, truncated: keys.length > limit };
  }

  async ping(): Promise<void> {}
}
