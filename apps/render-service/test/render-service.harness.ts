import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, MessageName, type RenderDocumentResult } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import { createServiceApp, serviceSettings } from '@docrender/platform';
import { FilesystemBlobStore, type BlobStore } from '@docrender/storage';
import { renderService } from '../src/render-service.definition';
import { renderServiceSettings, RenderServiceSettings } from '../src/render-service.settings';

import { renderCommand } from './render-commands';

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

export type RenderServiceFixture = {
  app: INestApplication;
  bus: InProcessMessageBus;
  blobStore: FilesystemBlobStore;
  /** The service's answer to one render.document request: renderCommand with `overrides`. */
  render(overrides: Parameters<typeof renderCommand>[0], timeoutMs?: number): Promise<RenderDocumentResult>;
  /**
   * A production render (no TEST watermark) of `template` with inline `data` that must print with no issue: its result
   * and its PDF.
   */
  renderCleanly(template: unknown, data: unknown): Promise<{ result: RenderDocumentResult; pdf: Buffer }>;
};

/**
 * For a describe block: starts the render service (startRenderService, with the settings in `env`) on a filesystem blob store in a new
 * temporary directory before its tests, and closes both and deletes the directory after them. The returned object's
 * fields are set once the tests run.
 */
export function useRenderService(name: string, env: NodeJS.ProcessEnv = {}): RenderServiceFixture {
  const fixture = {
    render: (overrides, timeoutMs = 90_000) => fixture.bus.request(MessageName.RenderDocument, renderCommand(overrides), { timeoutMs }),
    async renderCleanly(template, data) {
      const result = await fixture.render({ template, data: { inline: data }, environment: Environment.Production });
      expect(result.issues).toEqual([]);
      expect(result.outcome).toBe('rendered');
      return { result, pdf: await fixture.blobStore.get(result.pdf?.blobKey ?? '') };
    },
  } as RenderServiceFixture;
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

/**
 * The rule for a Warning that blocks production: a production render of `template` with inline `data` is blocked with
 * exactly `issues` and no PDF; a test render prints with the same issues. Answers the test render's PDF.
 */
export async function expectBlockedInProductionPrintedInTest(service: RenderServiceFixture, template: unknown, data: unknown, issues: unknown[]): Promise<Buffer> {
  const production = await service.render({ template, data: { inline: data }, environment: Environment.Production });
  expect(production.outcome).toBe('blocked');
  expect(production.pdf).toBeNull();
  expect(production.issues).toEqual(issues);
  const test = await service.render({ template, data: { inline: data }, environment: Environment.Test });
  expect(test.outcome).toBe('rendered');
  expect(test.issues).toEqual(issues);
  return service.blobStore.get(test.pdf?.blobKey ?? '');
}
