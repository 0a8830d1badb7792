import type { TemplateDto } from '@docrender/client';
import type { CommandDefinition } from '../cli/command';
import { EXIT_OK } from '../cli/cli-io';
import { flag, stringOption } from '../cli/option-values';
import { table } from '../output/table';
import { LIST_HELP, LIST_OPTIONS, listParams, nextPageHint, pageLine, shortTime } from './list-options';

export const templatesListCommand: CommandDefinition = {
  words: ['templates', 'list'],
  summary: "List the organisation's templates.",
  arguments: '',
  help: [['--project <uuid>', 'only the templates of this project'], ...LIST_HELP],
  options: { ...LIST_OPTIONS, project: { type: 'string' } },
  async run({ output, argv, values, client }) {
    const params = { ...listParams(values, 'templates'), projectId: stringOption(values, 'project') };
    let items: TemplateDto[];
    let summary: string;
    let next: string | null = null;
    if (flag(values, 'all')) {
      items = [];
      for await (const template of client().templates.listAll(params, { pin: true })) items.push(template);
      output.result({ items, total: items.length });
      summary = `${items.length} template(s)`;
    } else {
      const page = await client().templates.list(params);
      items = page.items;
      output.result(page);
      summary = pageLine(page.skip, page.items.length, page.total);
      next = nextPageHint(argv, page.skip, page.items.length, page.total);
    }
    output.line(
      table(
        ['ID', 'NAME', 'LATEST', 'VERSIONS', 'PROJECT', 'UPDATED'],
        items.map((t) => [t.id, t.name, t.latestVersionNumber === null ? '-' : String(t.latestVersionNumber), String(t.versionCount), t.projectName ?? '', shortTime(t.updatedAt)]),
      ),
    );
    output.line(summary);
    if (next !== null) output.note(next);
    return EXIT_OK;
  },
};
