import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { storageSettings } from '@docrender/config';
import { assertValidBlobKey } from '../blob-key';
import { assertListLimit, BlobNotFoundError, BlobStoreUnavailableError, type BlobInfo, type BlobListing, type BlobListPage, type BlobStore } from '../blob-store';
import { idleTimeoutAgent } from './idle-timeout-agent';

export type MinioBlobStoreOptions = {
  /** http(s)://host[:port] */
  endpoint: string;
  accessKey?: string;
  secretKey?: string;
  bucket: string;
  region: string;
  /** A request on which the server sends nothing for this long fails as an outage (S3_IDLE_TIMEOUT_MS; its default when absent). */
  idleTimeoutMs?: number;
};

const NOT_FOUND_CODES = new Set(['NoSuchKey', 'NotFound']);
/** Stats a listing runs at once for its page's content types: a page's time divided by this, the server spared a burst. */
const STAT_CONCURRENCY = 8;
const BUCKET_EXISTS_CODES = new Set(['BucketAlreadyOwnedByYou', 'BucketAlreadyExists']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function isNotFound(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && NOT_FOUND_CODES.has(code);
}

/**
 * BlobStore over an S3-compatible server (MinIO) with the `minio` client; every blob lives in one bucket. A request the
 * server does not serve (other than a missing key) fails with BlobStoreUnavailableError, also one it stops answering
 * for `idleTimeoutMs` (a server that accepts connections but never answers).
 */
export class MinioBlobStore implements BlobStore {
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;

  constructor(options: MinioBlobStoreOptions) {
    const url = new URL(options.endpoint);
    const useSSL = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: true,
      transportAgent: idleTimeoutAgent(useSSL, options.idleTimeoutMs ?? storageSettings.s3IdleTimeoutMs.parse(undefined)),
    });
    this.bucket = options.bucket;
    this.region = options.region;
  }

  /** Creates the bucket when it does not exist (another instance creating it at the same time is fine). */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (error) {
      const code = errorCode(error);
      if (code === undefined || !BUCKET_EXISTS_CODES.has(code)) throw error;
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidBlobKey(key);
    try {
      await this.client.putObject(this.bucket, key, body, body.length, { 'Content-Type': contentType });
    } catch (error) {
      throw new BlobStoreUnavailableError('put', key, error);
    }
  }

  async get(key: string): Promise<Buffer> {
    const stream = await this.getStream(key);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    } catch (error) {
      throw new BlobStoreUnavailableError('get', key, error);
    }
    return Buffer.concat(chunks);
  }

  async getStream(key: string): Promise<Readable> {
    assertValidBlobKey(key);
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      throw new BlobStoreUnavailableError('get', key, error);
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    assertValidBlobKey(key);
    try {
      const stat = await this.client.statObject(this.bucket, key);
      const contentType = stat.metaData['content-type'] as string | undefined;
      return { key, sizeBytes: stat.size, contentType: contentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw new BlobStoreUnavailableError('stat', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (error) {
      throw new BlobStoreUnavailableError('delete', key, error);
    }
  }

  /**
   * Reads the listing (ListObjectsV2 from `after`, the client's stream: a request per 1,000 keys) only until it holds
   * one key past the page, then drops it (one request for a page under 1,000 keys); then reads each key's content type, which a
   * listing does not carry: STAT_CONCURRENCY stats at a time, so a page of n blobs takes n / STAT_CONCURRENCY round
   * trips, whatever the prefix holds.
   */
  async list(prefix: string, { limit, after }: BlobListPage): Promise<BlobListing> {
    assertValidBlobKey(prefix);
    assertListLimit(limit);
    const keys: string[] = [];
    const listing = this.client.listObjectsV2(this.bucket, `${prefix}/`, true, after ?? '');
    // a request the stream started ahead may fail once it is dropped: nobody reads it then
    listing.on('error', () => undefined);
    try {
      for await (const item of listing as AsyncIterable<{ name?: string }>) {
        if (item.name !== undefined) keys.push(item.name);
        if (keys.length > limit) break; // leaving the loop destroys the stream: no further page is requested
      }
    } catch (error) {
      throw new BlobStoreUnavailableError('list', `${prefix}/`, error);
    }
    const truncated = keys.length > limit;
    keys.length = Math.min(keys.length, limit);
    const blobs: Array<BlobInfo | null> = [];
    let next = 0;
    let failed = false;
    const lane = async (): Promise<void> => {
      while (!failed && next < keys.length) {
        const index = next++;
        try {
          blobs[index] = await this.stat(keys[index]);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(STAT_CONCURRENCY, keys.length) }, lane));
    return { blobs: blobs.filter((blob): blob is BlobInfo => blob !== null), truncated };
  }

  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} does not exist`);
  }
}
