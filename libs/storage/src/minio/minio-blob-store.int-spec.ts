import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { loadSettings, storageSettings } from '@docrender/config';
import { startS3Server, type S3TestServer } from '@docrender/testing';
import { createBlobStore } from '../blob-store.factory';
import { describeBlobStoreBehaviour } from '../testing/blob-store.behaviour';
import { BlobStoreUnavailableError } from '../blob-store';
import { MinioBlobStore } from './minio-blob-store';

describe('MinioBlobStore against s3rver', () => {
  let server: S3TestServer;
  let store: MinioBlobStore;
  const bucket = `test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    server = await startS3Server();
    store = new MinioBlobStore({ endpoint: server.endpoint, accessKey: server.accessKey, secretKey: server.secretKey, bucket, region: 'us-east-1' });
    await store.ensureBucket();
  });

  afterAll(async () => {
    await server.stop();
  });

  describeBlobStoreBehaviour(() => store);

  it('ensureBucket is idempotent', async () => {
    await expect(store.ensureBucket()).resolves.toBeUndefined();
  });

  it('ping fails while the bucket does not exist, and createBlobStore creates it', async () => {
    const other = `other-${randomBytes(4).toString('hex')}`;
    const env = { S3_ENDPOINT: server.endpoint, S3_ACCESS_KEY: server.accessKey, S3_SECRET_KEY: server.secretKey, S3_BUCKET: other };
    const settings = loadSettings(storageSettings, env);
    const missing = new MinioBlobStore({ endpoint: server.endpoint, accessKey: server.accessKey, secretKey: server.secretKey, bucket: other, region: 'us-east-1' });
    await expect(missing.ping()).rejects.toThrow(`bucket ${other} does not exist`);
    const created = await createBlobStore(settings);
    expect(created).toBeInstanceOf(MinioBlobStore);
    await expect(created.ping()).resolves.toBeUndefined();
    await expect(missing.ping()).resolves.toBeUndefined();
  });

  it('ping fails when the server is unreachable', async () => {
    const unreachable = new MinioBlobStore({ endpoint: 'http://127.0.0.1:1', accessKey: 'x', secretKey: 'y', bucket, region: 'us-east-1' });
    await expect(unreachable.ping()).rejects.toThrow();
  });
});

describe('MinioBlobStore against a server that accepts connections but never answers (issue 31 item 6)', () => {
  let silent: Server;
  let endpoint: string;
  const held: Socket[] = [];

  beforeAll(async () => {
    silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('every operation fails as an outage (BlobStoreUnavailableError) once the server has sent nothing for S3_IDLE_TIMEOUT_MS', async () => {
    const store = new MinioBlobStore({ endpoint, accessKey: 'k', secretKey: 's', bucket: 'silent', region: 'us-east-1', idleTimeoutMs: 300 });
    const operations = [store.put('a/b.pdf', Buffer.from('%PDF'), 'application/pdf'), store.get('a/b.pdf'), store.stat('a/b.pdf'), store.delete('a/b.pdf'), store.list('a', { limit: 10 })];
    for (const outcome of await Promise.allSettled(operations)) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as BlobStoreUnavailableError;
      expect(reason).toBeInstanceOf(BlobStoreUnavailableError);
      expect(String((reason.cause as Error | undefined)?.message)).toContain('the blob store sent nothing for 300 ms');
    }
    expect(held.length).toBeGreaterThan(0);
  });
});
