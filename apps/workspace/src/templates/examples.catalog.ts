import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** An example of examples/ a template can start from: the DSL, sample data and translations as JSON text. */
export type Example = { key: string; name: string; templateJson: string; sampleData: string; translations: string | null };

/** The repository's examples folder, found from the compiled file's location (dist/apps/workspace/src/templates). */
export function findExamplesDir(from: string = __dirname): string | null {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'examples');
    if (existsSync(path.join(candidate, 'invoice', 'template.json'))) return candidate;
    dir = path.dirname(dir);
  }
  return null;
}

/** The examples a new template can copy (issue 35 item 2), read once at start. */
export class ExamplesCatalog {
  private readonly examples: Example[];

  constructor(dir: string | null) {
    this.examples = dir === null ? [] : readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, 'template.json')) && existsSync(path.join(dir, e.name, 'data.json')))
      .map((e) => readExample(path.join(dir, e.name), e.name))
      .sort((a, b) => a.key.localeCompare(b.key));
  }

  list(): Pick<Example, 'key' | 'name'>[] {
    return this.examples.map(({ key, name }) => ({ key, name }));
  }

  find(key: string): Example | null {
    return this.examples.find((e) => e.key === key) ?? null;
  }
}

function readExample(dir: string, key: string): Example {
  const template = JSON.parse(readFileSync(path.join(dir, 'template.json'), 'utf8')) as Record<string, unknown>;
  // the $schema pointer is relative to examples/: an editor of a stored version gets the schema itself
  delete template.$schema;
  const data = JSON.parse(readFileSync(path.join(dir, 'data.json'), 'utf8')) as unknown;
  const translationsFile = path.join(dir, 'translations.json');
  return {
    key,
    name: typeof template.name === 'string' ? template.name : key,
    templateJson: JSON.stringify(template, null, 2),
    sampleData: JSON.stringify({ data, i18n: {} }, null, 2),
    translations: existsSync(translationsFile) ? readFileSync(translationsFile, 'utf8') : null,
  };
}

/** A new template's first draft when it does not start from an example. */
export function blankTemplate(name: string): Omit<Example, 'key'> {
  const template = {
    dsl: 1,
    name,
    page: { size: 'A4' },
    body: [{ type: 'text', id: 'greeting', text: 'Hello {{ name }}' }],
  };
  return { name, templateJson: JSON.stringify(template, null, 2), sampleData: JSON.stringify({ data: { name: 'World' }, i18n: {} }, null, 2), translations: null };
}
