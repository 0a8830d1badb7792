import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { INestApplication } from '@nestjs/common';
import { Client as MinioClient } from 'minio';
import type { MessageBus } from '@docrender/messaging';
import { JsonLogger, type Logger } from '@docrender/observability';
import { createServiceApp, type Infrastructure, serviceSettings } from '@docrender/platform';
import type { BlobStore } from '@docrender/storage';
import { startRenderServiceProcess, startTestInfrastructure, withTempFile, type TestDatabase } from '@docrender/testing';
import { apiGatewayService } from '../src/api-gateway.definition';
import { ensureBuilt } from './gateway-process';

const run = promisify(execFile);

type ProcessHandle = { output(): string; stop(): Promise<void> };

/**
 * Starts `node dist/apps/render-service/src/main.js` with exactly these settings (and startAppProcess's defaults) and
 * waits until its readiness probe answers 200. Call ensureBuilt() first.
 */
export async function startRenderService(settings: Record<string, string>): Promise<ProcessHandle> {
  const app = await startRenderServiceProcess(settings, 90_000);
  return {
    output: () => app.output(),
    async stop() {
      await app.stop('SIGTERM', 30_000);
    },
  };
}

export type Gateway = { app: INestApplication; baseUrl: string };

export type RenderStack = {
  db: TestDatabase;
  blobs: BlobStore;
  bus: MessageBus;
  gateway: Gateway;
  /** Keys of the stack's bucket under a prefix. */
  listKeys(prefix: string): Promise<string[]>;
  /** Another gateway on the same infrastructure, with extra settings (read from the environment at start). */
  startGateway(settings: Record<string, string>): Promise<Gateway>;
  stop(): Promise<void>;
};

const logger: Logger = new JsonLogger('api-gateway', 'error');

/**
 * The real stack of a render: a fresh PostgreSQL database, a RabbitMQ vhost, an S3 server (s3rver), the render service
 * as its own process (Chromium), and the gateway in this process over HTTP.
 */
export async function startRenderStack(): Promise<RenderStack> {
  await ensureBuilt();
  const infra = await startTestInfrastructure('render-e2e');
  const { db, blobStore: blobs, s3 } = infra;
  const bus = await infra.connectBus();
  const renderService = await startRenderService({ ...infra.env, DB_POOL_SIZE: '4', RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2' });
  const infrastructure: Infrastructure = { database: db.database, bus, blobStore: blobs, close: async () => undefined };
  const apps: INestApplication[] = [];
  const startGateway = async (settings: Record<string, string>): Promise<Gateway> => {
    const app = await createServiceApp(apiGatewayService, infrastructure, logger, serviceSettings([apiGatewayService], { ...process.env, ...settings }));
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    return { app, baseUrl: (await app.getUrl()).replace('[::1]', '127.0.0.1') };
  };
  const gateway = await startGateway({});
  const minio = new MinioClient({ endPoint: '127.0.0.1', port: Number(new URL(s3.endpoint).port), useSSL: false, accessKey: s3.accessKey, secretKey: s3.secretKey });
  return {
    db,
    blobs,
    bus,
    gateway,
    startGateway,
    async listKeys(prefix) {
      const keys: string[] = [];
      for await (const item of minio.listObjectsV2(infra.env.S3_BUCKET, prefix, true)) if (item.name) keys.push(item.name);
      return keys;
    },
    async stop() {
      for (const app of apps) await app.close();
      await renderService.stop();
      await infra.teardown();
    },
  };
}

/** Page count and text of a PDF, read with poppler's pdfinfo and pdftotext. */
export function readPdf(pdf: Buffer): Promise<{ pages: number; text: string }> {
  return withTempFile(pdf, 'document.pdf', async (file) => {
    const info = await run('pdfinfo', [file]);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1]);
    const text = await run('pdftotext', ['-raw', file, '-']);
    return { pages, text: text.stdout };
  });
}
