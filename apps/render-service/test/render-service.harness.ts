import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { loadSettings, messagingSettings } from '@docrender/config';
import { InProcessMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { createServiceApp, serviceSettings } from '@docrender/platform';
import { FilesystemBlobStore, type BlobStore } from '@docrender/storage';
import { renderService } from '../src/render-service.definition';
import { renderServiceSettings, RenderServiceSettings } from '../src/render-service.settings';

export { EXAMPLES_DIR, readExample, renderCommand } from './render-commands';

export const quietLogger = new JsonLogger('render-service-test', 'error', {}, () => undefined);

/** The render service on an in-process bus and the given blob store, started as the one-process mode starts it. */
export async function startRenderService(
  blobStore: BlobStore,
  env: NodeJS.ProcessEnv = {},
): Promise<{ app: INestApplication; bus: InProcessMessageBus; settings: RenderServiceSettings }> {
  const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), quietLogger);
  const settings = serviceSettings([renderService], { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2', ...env });
  const app = await createServiceApp(renderService, { bus, blobStore, close: () => bus.close() }, quietLogger, settings);
  await app.init();
  return { app, bus, settings: settings.get(renderServiceSettings) };
}

export type RenderServiceFixture = { app: INestApplication; bus: InProcessMessageBus; blobStore: FilesystemBlobStore };

/**
 * For a describe block: starts the render service (startRenderService, with the settings in `env`) on a filesystem blob store in a new
 * temporary directory before its tests, and closes both and deletes the directory after them. The returned object's
 * fields are set once the tests run.
 */
export function useRenderService(name: string, env: NodeJS.ProcessEnv = {}): RenderServiceFixture {
  const fixture = {} as RenderServiceFixture;
  let blobDir = '';
  beforeAll(async () => {
    blobDir = await mkdtemp(path.join(tmpdir(), `docrender-${name}-blobs-`));
    fixture.blobStore = await FilesystemBlobStore.open(blobDir);
    Object.assign(fixture, await startRenderService(fixture.blobStore, env));
  });
  afterAll(async () => {
    await fixture.app?.close();
    await fixture.bus?.close();
    if (blobDir !== '') await rm(blobDir, { recursive: true, force: true });
  });
  return fixture;
}
