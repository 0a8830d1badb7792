import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Environment, RenderDocumentCommand } from '@docrender/contracts';

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
