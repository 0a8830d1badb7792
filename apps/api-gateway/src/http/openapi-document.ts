import type { OpenAPIObject } from '@nestjs/swagger';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadSettings, messagingSettings } from '@docrender/config';
import { InProcessMessageBus } from '@docrender/messaging';
import { createLogger } from '@docrender/observability';
import { Database } from '@docrender/persistence';
import { createServiceApp, type Infrastructure } from '@docrender/platform';
import { FilesystemBlobStore } from '@docrender/storage';
import { apiGatewayService } from '../api-gateway.definition';
import { createOpenApiDocument } from './openapi';

/**
 * The gateway's OpenAPI document, generated from its controllers without any infrastructure: the Nest application is
 * created (never initialised or listening) on an unconnected database, an in-process bus and a scratch blob store.
 * `docs/openapi.json` is this document (`npm run docs:openapi`; a test keeps them equal).
 */
export async function generateOpenApiDocument(): Promise<OpenAPIObject> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'docrender-openapi-'));
  const logger = createLogger('openapi', 'error');
  const bus = new InProcessMessageBus(loadSettings(messagingSettings, {}), logger);
  const infrastructure: Infrastructure = {
    database: Database.unconnected({ apiKeyPepper: 'openapi-generation-only' }),
    bus,
    blobStore: await FilesystemBlobStore.open(scratch),
    close: async () => undefined,
  };
  try {
    const app = await createServiceApp(apiGatewayService, infrastructure, logger);
    const document = createOpenApiDocument(app);
    // The version is the build's; the checked-in document names none, so it does not change with every release.
    return { ...document, info: { ...document.info, version: 'v1' } };
  } finally {
    await bus.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The JSON text of docs/openapi.json. */
export async function openApiJson(): Promise<string> {
  return `${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`;
}
