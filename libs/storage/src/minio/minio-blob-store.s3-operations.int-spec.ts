import { randomBytes } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadSettings, storageSettings } from '@docrender/config';
import { startS3Server, type S3TestServer } from '@docrender/testing';
import { BlobNotFoundError } from '../blob-store';
import { createBlobStore } from '../blob-store.factory';

/**
 * The S3 operations SeaweedFS lists as supported ("Amazon S3 API" page of its wiki), limited to the ones this adapter
 * could plausibly issue. Decision record 0017: the development store is SeaweedFS, which cannot run on the CI
 * machine, so this test pins what the adapter asks of any S3 store to operations that SeaweedFS documents.
 */
const SEAWEEDFS_DOCUMENTED = new Set([
  'HeadBucket',
  'CreateBucket',
  'ListBuckets',
  'PutObject',
  'GetObject',
  'HeadObject',
  'DeleteObject',
  'CopyObject',
  'ListObjectsV2',
  'CreateMultipartUpload',
  'UploadPart',
  'CompleteMultipartUpload',
  'AbortMultipartUpload',
]);

type Recorded = { method: string; path: string; query: string; headers: IncomingHttpHeaders };

/** The S3 operation a request is, named as in the S3 API reference; anything unrecognised is named by its shape. */
function operation({ method, path, query, headers }: Recorded): string {
  const segments = path.split('/').filter((s) => s !== '');
  const params = new URLSearchParams(query);
  if (segments.length === 0) return method === 'GET' ? 'ListBuckets' : `${method} /`;
  if (segments.length === 1) {
    if (query === '' && method === 'HEAD') return 'HeadBucket';
    if (query === '' && method === 'PUT') return 'CreateBucket';
    if (method === 'GET' && params.get('list-type') === '2') return 'ListObjectsV2';
    return `${method} /bucket?${query}`;
  }
  if (params.has('uploads')) return 'CreateMultipartUpload';
  if (params.has('uploadId')) return { PUT: 'UploadPart', POST: 'CompleteMultipartUpload', DELETE: 'AbortMultipartUpload' }[method] ?? `${method} ?uploadId`;
  if (query !== '') return `${method} /bucket/key?${query}`;
  if (method === 'PUT') return headers['x-amz-copy-source'] ? 'CopyObject' : 'PutObject';
  return { GET: 'GetObject', HEAD: 'HeadObject', DELETE: 'DeleteObject' }[method] ?? `${method} /bucket/key`;
}

/** An HTTP proxy in front of the S3 server that passes every request through unchanged and records it. */
async function recordingProxy(target: string): Promise<{ endpoint: string; requests: Recorded[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const requests: Recorded[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', 'http://proxy');
    requests.push({ method: incoming.method ?? '', path: decodeURIComponent(url.pathname), query: url.search.slice(1), headers: incoming.headers });
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, method: incoming.method, path: incoming.url, headers: incoming.headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

describe('MinioBlobStore: the S3 operations it issues (decision record 0017)', () => {
  let s3: S3TestServer;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;

  beforeAll(async () => {
    s3 = await startS3Server();
    proxy = await recordingProxy(s3.endpoint);
  });

  afterAll(async () => {
    await proxy.close();
    await s3.stop();
  });

  it('0017: every BlobStore call is a path-style, SigV4-signed S3 operation that SeaweedFS documents as supported', async () => {
    const bucket = `ops-${randomBytes(4).toString('hex')}`;
    const env = { S3_ENDPOINT: proxy.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: bucket };
    const store = await createBlobStore(loadSettings(storageSettings, env));
    // A second app starting against the same store finds the bucket there.
    const second = await createBlobStore(loadSettings(storageSettings, env));

    const key = 'organisations/o/documents/d.pdf';
    const pdf = randomBytes(6 * 1024 * 1024);
    await store.put(key, pdf, 'application/pdf');
    expect((await second.get(key)).equals(pdf)).toBe(true);
    const stream = await store.getStream(key);
    stream.resume();
    await new Promise((resolve) => stream.on('end', resolve));
    expect(await store.stat(key)).toEqual({ key, sizeBytes: pdf.length, contentType: 'application/pdf' });
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await store.delete(key);
    expect(await store.list('organisations/o', { limit: 10 })).toEqual({ blobs: [], truncated: false });
    await store.ping();

    const operations = proxy.requests.map(operation);
    expect([...new Set(operations)].filter((name) => !SEAWEEDFS_DOCUMENTED.has(name))).toEqual([]);
    // Each BlobStore method reached the server as the operation it should be.
    expect(new Set(operations)).toEqual(new Set(['HeadBucket', 'CreateBucket', 'PutObject', 'GetObject', 'HeadObject', 'DeleteObject', 'ListObjectsV2']));
    // One PUT per blob, whatever its size: the adapter hands the client a Buffer, so no multipart upload.
    expect(operations.filter((name) => name === 'PutObject')).toHaveLength(1);
    expect(operations.filter((name) => name === 'CreateBucket')).toHaveLength(1);
    const endpointHost = new URL(proxy.endpoint).host;
    for (const recorded of proxy.requests) {
      // Path-style: the bucket is the first path segment, never part of the host name (SeaweedFS without -s3.domainName).
      expect({ host: recorded.headers.host, bucket: recorded.path.split('/')[1] }).toEqual({ host: endpointHost, bucket });
      expect(recorded.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=/);
    }
  });

  it('bounded listing: a page of 3 from a prefix of 40 blobs is one ListObjectsV2 starting after `after` (its 1,000 keys at most), then one HeadObject per blob of the page', async () => {
    const bucket = `list-${randomBytes(4).toString('hex')}`;
    const env = { S3_ENDPOINT: proxy.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: bucket };
    const store = await createBlobStore(loadSettings(storageSettings, env));
    const names = Array.from({ length: 40 }, (_, i) => `orgs/o/assets/${String(i).padStart(2, '0')}.png`);
    for (const name of names) await store.put(name, Buffer.from(name), 'image/png');
    const before = proxy.requests.length;

    const page = await store.list('orgs/o/assets', { limit: 3, after: names[9] });

    expect(page).toEqual({ blobs: names.slice(10, 13).map((key) => ({ key, sizeBytes: key.length, contentType: 'image/png' })), truncated: true });
    const issued = proxy.requests.slice(before);
    expect(issued.map(operation).sort()).toEqual(['HeadObject', 'HeadObject', 'HeadObject', 'ListObjectsV2']);
    const listing = new URLSearchParams(issued.find((r) => operation(r) === 'ListObjectsV2')?.query);
    expect({ prefix: listing.get('prefix'), maxKeys: listing.get('max-keys'), startAfter: listing.get('start-after') }).toEqual({ prefix: 'orgs/o/assets/', maxKeys: '1000', startAfter: names[9] });
  });
});
