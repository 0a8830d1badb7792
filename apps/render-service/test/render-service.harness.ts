import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadSettings, messagingSettings } from '@docrender/config';
import { InProcessMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { FilesystemBlobStore, type BlobStore } from '@docrender/storage';
import { RenderServiceModule } from '../src/render-service.module';
import { loadRenderServiceSettings, RenderServiceSettings } from '../src/render-service.settings';

export { EXAMPLES_DIR, readExample, renderCommand } from './render-commands';

export const quietLogger = new JsonLogger('render-service-test', 'error', {}, () => undefined);

/** The render service module on an in-process bus and the given blob store, as the one-process mode runs it. */
export async function startRenderService(
  blobStore: BlobStore,
  env: NodeJS.ProcessEnv = {},
): Promise<{ app: INestApplication; bus: InProcessMessageBus; settings: RenderServiceSettings }> {
  const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), quietLogger);
  const settings = loadRenderServiceSettings({ RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '2', ...env });
  const moduleRef = await Test.createTestingModule({
    imports: [RenderServiceModule.register({ bus, blobStore, logger: quietLogger, settings })],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.init();
  return { app, bus, settings };
}

export type RenderServiceFixture = { app: INestApplication; bus: InProcessMessageBus; blobStore: FilesystemBlobStore };

/**
 * For a describe block: starts the render service (startRenderService) on a filesystem blob store in a new
 * temporary directory before its tests, and closes both and deletes the directory after them. The returned object's
 * fields are set once the tests run.
 */
export function useRenderService(name: string): RenderServiceFixture {
  const fixture = {} as RenderServiceFixture;
  let blobDir = '';
  beforeAll(async () => {
    blobDir = await mkdtemp(path.join(tmpdir(), `docrender-${name}-blobs-`));
    fixture.blobStore = await FilesystemBlobStore.open(blobDir);
    Object.assign(fixture, await startRenderService(fixture.blobStore));
  });
  afterAll(async () => {
    await fixture.app?.close();
    await fixture.bus?.close();
    if (blobDir !== '') await rm(blobDir, { recursive: true, force: true });
  });
  return fixture;
}
