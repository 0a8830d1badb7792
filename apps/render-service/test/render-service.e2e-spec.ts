import { randomBytes } from 'node:crypto';
import { loadSettings, messagingSettings, storageSettings } from '@docrender/config';
import { MessageName, RenderDocumentResult } from '@docrender/contracts';
import { createMessageBus, MessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { BlobStore, createBlobStore } from '@docrender/storage';
import { createRabbitVhost, descendantsOf, ensureBuilt, RabbitVhost, S3TestServer, startS3Server } from '@docrender/testing';
import { eventually, stillRunning } from './chromium-processes';
import { pdfText } from './pdf-tools';
import { readExample, renderCommand } from './render-commands';
import { RenderServiceProcess, spawnRenderService } from './render-service.process';

const logger = new JsonLogger('render-service-e2e', 'error', {}, () => undefined);

describe('render-service processes on one RabbitMQ queue (e2e)', () => {
  let vhost: RabbitVhost;
  let s3: S3TestServer;
  let env: Record<string, string>;
  let bus: MessageBus;
  let blobs: BlobStore;
  const processes: RenderServiceProcess[] = [];
  const invoice = readExample('invoice');

  /** One instance: one browser with one page, so it holds few messages (renderPrefetch(1) = 2) and the others get work too. */
  const spawnInstance = async (): Promise<RenderServiceProcess> => {
    const instance = await spawnRenderService({ ...env, RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1', RENDER_SHUTDOWN_GRACE_MS: '20000' });
    processes.push(instance);
    return instance;
  };

  const renderBatch = (count: number) => {
    const commands = Array.from({ length: count }, () => renderCommand({ template: invoice.template, data: { inline: invoice.data } }));
    return {
      commands,
      replies: Promise.all(commands.map((c) => bus.request(MessageName.RenderDocument, c, { timeoutMs: 120_000 }))),
    };
  };

  const handledBy = (instance: RenderServiceProcess): string[] =>
    instance.logs('document handled').map((line) => String(line.requestId));

  beforeAll(async () => {
    await ensureBuilt();
    [vhost, s3] = await Promise.all([createRabbitVhost('render-service'), startS3Server()]);
    env = {
      AMQP_URL: vhost.url,
      AMQP_QUEUE_PREFIX: `rs-${randomBytes(3).toString('hex')}-`,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: s3.accessKey,
      S3_SECRET_KEY: s3.secretKey,
      S3_BUCKET: `render-service-${randomBytes(4).toString('hex')}`,
    };
    blobs = await createBlobStore(loadSettings(storageSettings, env));
    bus = await createMessageBus(loadSettings(messagingSettings, env), logger);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await bus?.close();
    await vhost?.delete();
    await s3?.stop();
  });

  it('queues: two instances compete for render.document and both take part; PDFs land in the blob store, never in messages', async () => {
    const [first, second] = await Promise.all([spawnInstance(), spawnInstance()]);
    const { commands, replies } = renderBatch(8);
    const results: RenderDocumentResult[] = await replies;
    expect(results.map((r) => r.outcome)).toEqual(Array(8).fill('rendered'));
    for (const [index, result] of results.entries()) {
      expect(result.pdf?.blobKey).toBe(commands[index].outputBlobKey);
      expect(JSON.stringify(result).length).toBeLessThan(2000);
      await expect(blobs.stat(commands[index].outputBlobKey)).resolves.toMatchObject({ sizeBytes: result.pdf?.fileSizeBytes });
    }
    expect(await pdfText(await blobs.get(commands[0].outputBlobKey))).toContain('INV-2026-00042');
    const byFirst = handledBy(first);
    const bySecond = handledBy(second);
    expect(byFirst.length).toBeGreaterThan(0);
    expect(bySecond.length).toBeGreaterThan(0);
    expect([...byFirst, ...bySecond].sort()).toEqual(commands.map((c) => c.requestId).sort());
    for (const instance of [first, second]) expect((await fetch(`http://127.0.0.1:${instance.port}/v1/meta/status`)).status).toBe(200);
  });

  it('crash: an instance killed mid-batch loses no document (its message returns to the queue) and leaves no Chromium running', async () => {
    const [survivor, victim] = processes;
    const victimChromium = descendantsOf(victim.pid);
    expect(victimChromium.length).toBeGreaterThan(0);
    const before = handledBy(survivor).length;
    const victimBefore = handledBy(victim).length;
    const { replies } = renderBatch(6);
    // once the victim has replied to one document of the batch it holds the next: kill it then
    expect(await eventually(() => handledBy(victim).length > victimBefore, 30_000, 10)).toBe(true);
    await victim.stop('SIGKILL');
    const results = await replies;
    expect(results.map((r) => r.outcome)).toEqual(Array(6).fill('rendered'));
    expect(handledBy(survivor).length).toBeGreaterThan(before);
    expect(await eventually(() => stillRunning(victimChromium).length === 0, 15_000)).toBe(true);
  });

  it('shutdown: SIGTERM finishes or returns the work in hand, exits 0, and leaves no Chromium running', async () => {
    const [stopping] = processes;
    const fresh = await spawnInstance();
    const stoppingChromium = descendantsOf(stopping.pid);
    const stoppingBefore = handledBy(stopping).length;
    const { replies } = renderBatch(6);
    // once it has replied to one document of the batch it holds the next: stop it then
    expect(await eventually(() => handledBy(stopping).length > stoppingBefore, 30_000, 10)).toBe(true);
    // SIGTERM, and SIGKILL only long after RENDER_SHUTDOWN_GRACE_MS: exit code 0 means it stopped by itself
    const stopped = stopping.stop('SIGTERM', 60_000);
    const results = await replies;
    expect(results.map((r) => r.outcome)).toEqual(Array(6).fill('rendered'));
    await expect(stopped).resolves.toBe(0);
    expect(stillRunning(stoppingChromium)).toEqual([]);

    const freshChromium = descendantsOf(fresh.pid);
    await expect(fresh.stop('SIGTERM', 60_000)).resolves.toBe(0);
    expect(stillRunning(freshChromium)).toEqual([]);
  });

  it('start-up: without a Chromium the service stops with one line that says how to install one', async () => {
    await expect(spawnRenderService({ ...env, PUPPETEER_EXECUTABLE_PATH: '/nonexistent/chrome' })).rejects.toThrow(
      /exited with 1 before .*render-service: No Chromium found .*PUPPETEER_EXECUTABLE_PATH=\/nonexistent\/chrome.*apt-get install -y chromium/s,
    );
  });
});
