import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, type DocrenderClient, type ListFilter, type StoredDocumentDto } from '@docrender/client';
import type { CommandDefinition } from '../cli/command';
import { EXIT_OK } from '../cli/cli-io';
import { choiceOption, dateOption, stringOption } from '../cli/option-values';
import { UsageError } from '../cli/usage.error';
import { table } from '../output/table';
import { PdfFileNames } from '../render/pdf-file-names';
import { LIST_HELP, LIST_OPTIONS, listItems, listParams, shortTime } from './list-options';

export const documentsListCommand: CommandDefinition = {
  words: ['documents', 'list'],
  summary: 'List stored documents (renders made with persist).',
  arguments: '',
  help: [
    ['--template <uuid>', 'only documents of this template'],
    ['--environment <test|production>', 'only documents of this environment'],
    ['--since <ISO time>', 'rendered at or after'],
    ['--until <ISO time>', 'rendered at or before'],
    ...LIST_HELP,
  ],
  options: { ...LIST_OPTIONS, template: { type: 'string' }, environment: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' } },
  async run(context) {
    const { output, values, client } = context;
    const common = listParams(values, 'documents');
    const filters: ListFilter<'documents'>[] = [...(common.filters ?? [])];
    const template = stringOption(values, 'template');
    if (template !== undefined) filters.push({ field: 'template.guid', value: template });
    const environment = choiceOption(values, 'environment', ['test', 'production'] as const);
    if (environment !== undefined) filters.push({ field: 'environment', value: environment });
    const since = dateOption(values, 'since');
    if (since !== undefined) filters.push({ field: 'renderedAt', op: 'gte', value: since });
    const until = dateOption(values, 'until');
    if (until !== undefined) filters.push({ field: 'renderedAt', op: 'lte', value: until });
    const params = { ...common, filters };

    const { items, summary, next } = await listItems(context, 'document', {
      page: () => client().documents.list(params),
      all: () => client().documents.listAll(params, { pin: until === undefined }),
    });
    if (!output.json) {
      const names = await templateNames(client(), items);
      output.line(
        table(
          ['ID', 'NAME', 'TEMPLATE', 'V', 'ENV', 'PAGES', 'RENDERED'],
          items.map((d) => [
            d.id,
            d.documentName,
            `${names.get(d.templateId) ?? '?'} (${d.templateId})`,
            String(d.versionNumber),
            d.environment,
            d.isPdfDeleted ? 'purged' : String(d.pageCount),
            shortTime(d.renderedAt),
          ]),
        ),
      );
      output.line(summary);
    }
    if (next !== null) output.note(next);
    return EXIT_OK;
  },
};

export const documentsDownloadCommand: CommandDefinition = {
  words: ['documents', 'download'],
  summary: 'Download stored PDFs as <documentName>.pdf.',
  arguments: '<documentId>... [--out <dir | file.pdf>]',
  help: [['--out <path>', 'a directory (default: the current one), or a .pdf file name for a single document']],
  options: { out: { type: 'string' } },
  async run({ io, output, positionals, values, client }) {
    if (positionals.length === 0) throw new UsageError('<documentId> is required');
    const out = path.resolve(io.baseDir, stringOption(values, 'out') ?? '.');
    const singleFile = out.toLowerCase().endsWith('.pdf') && !(await isDirectory(out));
    if (singleFile && positionals.length > 1) throw new UsageError('--out names one file but several documents were given; give a directory');
    const directory = singleFile ? path.dirname(out) : out;
    await mkdir(directory, { recursive: true });
    const names = new PdfFileNames(directory);
    const files: { documentId: string; documentName: string; path: string; bytes: number }[] = [];
    for (const [index, documentId] of positionals.entries()) {
      const document = await client().documents.get(documentId);
      const target = singleFile ? out : names.pathFor(document.documentName, index);
      const written = await client().documents.downloadToFile(documentId, target);
      files.push({ documentId, documentName: document.documentName, path: written.path, bytes: written.bytes });
      output.line(`${written.path} (${written.bytes} bytes)`);
    }
    output.result({ files });
    return EXIT_OK;
  },
};

/** The names of the templates the documents came from (one request per distinct template; a deleted one has none). */
async function templateNames(client: DocrenderClient, documents: readonly StoredDocumentDto[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const id of new Set(documents.map((d) => d.templateId))) {
    try {
      names.set(id, (await client.templates.get(id)).name);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
  return names;
}

async function isDirectory(target: string): Promise<boolean> {
  try {
    return (await stat(target)).isDirectory();
  } catch {
    return false;
  }
}
