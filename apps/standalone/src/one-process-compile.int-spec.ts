import type { INestApplication } from '@nestjs/common';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { provisionOrganisation } from '@docrender/persistence';
import { createServiceApp, type Infrastructure, serviceSettings } from '@docrender/platform';
import { FilesystemBlobStore } from '@docrender/storage';
import { createTestDatabase, SLOW_COMPILE_DEADLINE_MS, slowCompilingDocument, testLogger, type TestDatabase, workerTasksRunning } from '@docrender/testing';
import { apiGatewayService } from '@docrender/api-gateway';
import { renderService } from '@docrender/render-service';

jest.setTimeout(300_000);

describe('issue 31 item 1: in one-process mode the API answers while a document compiles', () => {
  let db: TestDatabase;
  let blobDir: string;
  let bus: InProcessMessageBus;
  const apps: INestApplication[] = [];
  let baseUrl: string;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-one-process-'));
    bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), testLogger('one-process-bus'));
    const infrastructure: Infrastructure = { database: db.database, bus, blobStore: await FilesystemBlobStore.open(blobDir), close: async () => undefined };
    // the one-process mode's wiring (apps/standalone): every app on one infrastructure and one set of settings
    const settings = serviceSettings([renderService, apiGatewayService], {
      BLOB_DIR: blobDir,
      RENDER_BROWSERS: '1',
      RENDER_PAGES_PER_BROWSER: '1',
      RENDER_COMPILE_THREADS: '1',
      // slowCompilingDocument compiles for several times this budget: it ends at the budget with RenderTimeout
      RENDER_BUDGET_MS: String(SLOW_COMPILE_DEADLINE_MS),
    });
    const render = await createServiceApp(renderService, infrastructure, testLogger('render-service'), settings);
    await render.init();
    apps.push(render);
    const gateway = await createServiceApp(apiGatewayService, infrastructure, testLogger('api-gateway'), settings);
    apps.push(gateway);
    await gateway.listen(0, '127.0.0.1');
    baseUrl = (await gateway.getUrl()).replace('[::1]', '127.0.0.1');
    const { organisation } = await db.database.transaction((r) =>
      provisionOrganisation(r, { name: 'One process', tier: 'pro', includedPagesPerMonth: 100, includedTokensPerMonth: 0, retentionDays: null, userCount: 1 }),
    );
    key = (await db.database.apiKeys.create(organisation.id, Environment.Test)).plaintextKey;
  });

  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
    await bus?.close();
    await db?.drop();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  it('an API read (GET /v1/templates) is answered while a stateless render compiles past its budget (slowCompilingDocument, allowed by the caps), which then ends as RenderTimeout', async () => {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const events: string[] = [];
    const slow = fetch(`${baseUrl}/v1/render`, { method: 'POST', headers, body: JSON.stringify(slowCompilingDocument) }).then(async (response) => {
      events.push('render answered');
      return { status: response.status, body: (await response.json()) as { error?: { code: string } } };
    });
    // the compile thread has taken the document (docrender_worker_tasks_running); were the render answered first, the
    // order asserted below says so
    await Promise.race([workerTasksRunning('render-compile', 1), slow]);
    const read = await fetch(`${baseUrl}/v1/templates`, { headers });
    events.push('read answered');
    expect(read.status).toBe(200);
    const rendered = await slow;
    expect(events).toEqual(['read answered', 'render answered']);
    expect(rendered).toEqual({ status: 500, body: { error: expect.objectContaining({ code: 'RenderTimeout' }) } });
  });
});
