import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { Database } from '@docrender/persistence';
import { FilesystemBlobStore, MinioBlobStore } from '@docrender/storage';
import type { BlobStore } from '@docrender/storage';
import { createTestDatabase, startS3Server, TEST_API_KEY_PEPPER, type TestDatabase } from '@docrender/testing';
import { blobStoreCheck, databaseCheck, ProbesModule } from './probes.module';

/** A TCP relay to PostgreSQL that the test can cut, so the database becomes unreachable for the app under test. */
async function startRelay(targetPort: number): Promise<{ port: number; cut(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function probeApp(db: Database, blobStore: BlobStore): Promise<INestApplication> {
  @Module({ imports: [ProbesModule.register({ checks: () => [databaseCheck(db), blobStoreCheck(blobStore)] })] })
  class ProbeTestModule {}
  const app = await NestFactory.create(ProbeTestModule, { logger: false });
  await app.init();
  return app;
}

describe('4.17 status probe against real dependencies', () => {
  let dir: string;
  let database: TestDatabase;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docrender-probe-'));
    database = await createTestDatabase({ migrate: false });
  });

  afterAll(async () => {
    await database?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('4.17: 200 with an empty body when the database and blob storage answer', async () => {
    const app = await probeApp(database.database, await FilesystemBlobStore.open(path.join(dir, 'blobs')));
    const res = await request(app.getHttpServer()).get('/v1/meta/status');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    await app.close();
  });

  it('4.17: 503 in plain text naming blob storage when the S3 server is down', async () => {
    const s3 = await startS3Server();
    const store = new MinioBlobStore({ endpoint: s3.endpoint, accessKey: s3.accessKey, secretKey: s3.secretKey, bucket: 'probe-test', region: 'us-east-1' });
    await store.ensureBucket();
    const app = await probeApp(database.database, store);
    expect((await request(app.getHttpServer()).get('/v1/meta/status')).status).toBe(200);
    await s3.stop();
    const res = await request(app.getHttpServer()).get('/v1/meta/status');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^blob storage unreachable: /);
    await app.close();
  });

  it('4.17: 503 in plain text naming the database when PostgreSQL is unreachable; the version probe still answers', async () => {
    const target = new URL(database.url);
    const relay = await startRelay(Number(target.port || 5432));
    target.port = String(relay.port);
    const relayed = await Database.open({ url: target.toString(), poolSize: 2, apiKeyPepper: TEST_API_KEY_PEPPER, migrate: false });
    const app = await probeApp(relayed, await FilesystemBlobStore.open(path.join(dir, 'blobs')));
    expect((await request(app.getHttpServer()).get('/v1/meta/status')).status).toBe(200);
    await relay.cut();
    const res = await request(app.getHttpServer()).get('/v1/meta/status');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^database unreachable: /);
    expect(res.text).not.toContain('"error"');
    const version = await request(app.getHttpServer()).get('/v1/meta/version');
    expect(version.status).toBe(200);
    expect(version.body).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    await app.close();
    await relayed.close().catch(() => undefined);
  });
});
