import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Environment, isValid } from '@docrender/client';
import { validateDocument, validateTemplate } from '@docrender/template-dsl';
import type { CommandDefinition } from '../cli/command';
import { EXIT_FAILED, EXIT_OK } from '../cli/cli-io';
import { choiceOption, positional, stringOption } from '../cli/option-values';
import { UsageError } from '../cli/usage.error';
import { readDocuments } from '../input/document-data.reader';

/**
 * `docrender check template.json data.json`: every issue the template DSL finds without Chromium, with the service's
 * own compiler (libs/template-dsl: validateTemplate, then validateDocument per document), no key and no credit.
 * Images and custom fonts are not fetched: images count as resolvable, custom font families are UnresolvedFont.
 * Only in the repository's build (`npm run cli -- check …`): the published package has no dependencies, and the
 * compiler needs several (this file is left out of it by libs/client/scripts/build-package.mjs).
 */
export const checkCommand: CommandDefinition = {
  words: ['check'],
  summary: 'Check a local template and its data with the service’s template compiler (no Chromium, no key, no credit); exits 1 when an issue blocks the gate.',
  arguments: '<template.json> <data.json|data.ndjson>',
  help: [
    ['--translations <file>', 'the version’s translations (JSON), for t(…)'],
    ['--language <code>', 'the language to check, as the render call’s language'],
    ['--gate <production|test>', 'production (default, spec 4.4): Warning and Error issues fail; test: only Error'],
  ],
  options: { translations: { type: 'string' }, language: { type: 'string' }, gate: { type: 'string' } },
  async run({ io, output, positionals, values }) {
    const templateFile = positional(positionals, 0, 'template.json');
    const dataFile = positional(positionals, 1, 'data.json');
    const gate = choiceOption(values, 'gate', [Environment.Production, Environment.Test] as const) ?? Environment.Production;
    const language = stringOption(values, 'language') ?? null;
    const translationsFile = stringOption(values, 'translations');
    const templateText = await readText(path.resolve(io.baseDir, templateFile), templateFile);
    const translations = translationsFile === undefined ? undefined : await readText(path.resolve(io.baseDir, translationsFile), translationsFile);

    const validation = validateTemplate(templateText);
    if (!validation.ok) {
      output.result({ template: templateFile, valid: false, templateErrors: validation.errors, issues: [] });
      output.line(`Invalid template ${templateFile}: ${validation.errors.length} error(s) (a render would answer 422 BindingError)`);
      for (const e of validation.errors) output.line(`  ${e.path}: ${e.message}`);
      return EXIT_FAILED;
    }
    const documents = await readDocuments(path.resolve(io.baseDir, dataFile));
    const issues: ReturnType<typeof validateDocument> = documents.flatMap((data, index) =>
      validateDocument({ template: validation.template, data, translations, language }).map((issue) => ({ ...issue, documentIndex: index })),
    );
    const valid = isValid(issues, gate);
    output.result({ template: templateFile, documentCount: documents.length, gate, valid, templateErrors: [], issues });
    output.line(`${valid ? 'Valid' : 'Invalid'} (${gate} gate): ${documents.length} document(s), ${issues.length} issue(s)`);
    for (const issue of issues) {
      const where = [`document ${issue.documentIndex}`, issue.elementId === null ? null : `element ${issue.elementId}`].filter(Boolean).join(', ');
      output.line(`  ${issue.severity.padEnd(11)} ${issue.type} (${where}): ${issue.description}`);
    }
    return valid ? EXIT_OK : EXIT_FAILED;
  },
};

async function readText(file: string, shown: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`${shown}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}
