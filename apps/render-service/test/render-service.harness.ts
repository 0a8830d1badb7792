import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, messagingSettings } from '@docrender/config';
import { Environment, RenderDocumentCommand } from '@docrender/contracts';
import { InProcessMessageBus } from '@docrender/messaging';
import { JsonLogger } from '@docrender/observability';
import type { BlobStore } from '@docrender/storage';
import { RenderServiceModule } from '../src/render-service.module';
import { loadRenderServiceSettings, RenderServiceSettings } from '../src/render-service.settings';

export const EXAMPLES_DIR = path.resolve(__dirname, '../../../examples');

export type Example = { template: unknown; data: unknown; translations: unknown };

export function readExample(name: string): Example {
  const file = (f: string) => path.join(EXAMPLES_DIR, name, f);
  const json = (f: string): unknown => JSON.parse(readFileSync(file(f), 'utf8'));
  return { template: json('template.json'), data: json('data.json'), translations: existsSync(file('translations.json')) ? json('translations.json') : null };
}

export function renderCommand(overrides: Partial<RenderDocumentCommand> & Pick<RenderDocumentCommand, 'template' | 'data'>): RenderDocumentCommand {
  const id = Math.random().toString(36).slice(2);
  return {
    requestId: `test-${id}`,
    organisationId: '00000000-0000-4000-8000-0000000000aa',
    environment: Environment.Test,
    translations: null,
    language: null,
    documentNameTemplate: null,
    fallbackDocumentName: 'document',
    customFonts: [],
    outputBlobKey: `orgs/test/documents/${id}.pdf`,
    deadline: Date.now() + 60_000,
    ...overrides,
  };
}

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
