import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings, Settings } from '@docrender/config';
import { InProcessMessageBus } from '@docrender/messaging';
import { JsonLogger, type Logger } from '@docrender/observability';
import { Database } from '@docrender/persistence';
import { createServiceApp, type Infrastructure, LOGGER, PersistenceModule, type ServiceDefinition, serviceSettings } from '@docrender/platform';
import { FilesystemBlobStore } from '@docrender/storage';
import { createTestDatabase, type TestDatabase } from '@docrender/testing';
import { apiGatewayService } from '@docrender/api-gateway';
import { renderService } from '@docrender/render-service';
import { jobWorkerService } from '@docrender/job-worker';
import { webhookDispatcherService } from '@docrender/webhook-dispatcher';
import { workspaceService } from '@docrender/workspace';

const DEFINITIONS: ServiceDefinition[] = [apiGatewayService, renderService, jobWorkerService, webhookDispatcherService, workspaceService];

const looksLikeLogger = (value: unknown): value is Logger =>
  typeof value === 'object' && value !== null && ['debug', 'info', 'warn', 'error', 'child'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');

/** Every provider of the app (all its modules) whose instance is a Logger, with the token it is provided under. */
function loggerProviders(app: INestApplication): Array<{ token: unknown; logger: Logger }> {
  const found: Array<{ token: unknown; logger: Logger }> = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const [token, wrapper] of module.providers) if (looksLikeLogger(wrapper.instance)) found.push({ token, logger: wrapper.instance });
  }
  return found;
}

describe('issue 19: every app is started by the shared bootstrap on one logger token and the settings it declares', () => {
  let db: TestDatabase;
  let blobDir: string;
  let infrastructure: Infrastructure;

  beforeAll(async () => {
    db = await createTestDatabase();
    blobDir = await mkdtemp(path.join(tmpdir(), 'docrender-definitions-'));
    const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), new JsonLogger('test-bus', 'error', {}, () => undefined));
    infrastructure = { database: db.database, bus, blobStore: await FilesystemBlobStore.open(blobDir), close: () => bus.close() };
  });

  afterAll(async () => {
    await infrastructure?.close();
    await db?.drop();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  it.each(DEFINITIONS.map((d) => [d.name, d] as const))('%s: the process logger under LOGGER and no other logger token; its settings are the ones its definition lists', async (_name, definition) => {
    const logger = new JsonLogger(definition.name, 'error', {}, () => undefined);
    // The app's own settings only (as runService reads them): a provider asking for a spec its definition does not
    // list fails here, rather than being covered by another app's list as in the one-process mode.
    const settings = serviceSettings([definition], { RENDER_BROWSERS: '1', RENDER_PAGES_PER_BROWSER: '1', BLOB_DIR: blobDir });
    const app = await createServiceApp(definition, infrastructure, logger, settings);
    try {
      await app.init();
      expect(app.get(LOGGER, { strict: false })).toBe(logger);
      expect(app.get(Settings, { strict: false })).toBe(settings);
      const tokens = loggerProviders(app);
      expect(tokens.length).toBeGreaterThan(0);
      for (const { token, logger: provided } of tokens) {
        expect(token).toBe(LOGGER);
        expect(provided).toBe(logger);
      }
    } finally {
      await app.close();
    }
  });

  it.each(DEFINITIONS.filter((d) => d.database).map((d) => [d.name, d] as const))(
    '%s: issue 37: no module is offered the Database itself, and repositories only by the PersistenceModule.forFeature a module imports',
    async (_name, definition) => {
      const logger = new JsonLogger(definition.name, 'error', {}, () => undefined);
      const app = await createServiceApp(definition, infrastructure, logger, serviceSettings([definition], { BLOB_DIR: blobDir }));
      try {
        expect(() => app.get(Database, { strict: false })).toThrow();
        const repositoryClasses = new Set<unknown>(Object.values(db.database.repositories()).map((repository) => repository.constructor));
        const declaring: unknown[] = [];
        for (const module of app.get(ModulesContainer).values()) {
          const repositoryTokens = [...module.providers.keys()].filter((token) => repositoryClasses.has(token));
          if (module.metatype !== PersistenceModule) expect({ module: module.metatype.name, repositoryTokens }).toEqual({ module: module.metatype.name, repositoryTokens: [] });
          else declaring.push(module);
        }
        expect(declaring.length).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
    },
  );
});
