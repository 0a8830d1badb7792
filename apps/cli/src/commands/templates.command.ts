import type { CommandDefinition } from '../cli/command';
import { EXIT_OK } from '../cli/cli-io';
import { stringOption } from '../cli/option-values';
import { table } from '../output/table';
import { LIST_HELP, LIST_OPTIONS, listItems, listParams, shortTime } from './list-options';

export const templatesListCommand: CommandDefinition = {
  words: ['templates', 'list'],
  summary: "List the organisation's templates.",
  arguments: '',
  help: [['--project <uuid>', 'only the templates of this project'], ...LIST_HELP],
  options: { ...LIST_OPTIONS, project: { type: 'string' } },
  async run(context) {
    const { output, values, client } = context;
    const params = { ...listParams(values, 'templates'), projectId: stringOption(values, 'project') };
    const { items, summary, next } = await listItems(context, 'template', {
      page: () => client().templates.list(params),
      all: () => client().templates.listAll(params, { pin: true }),
    });
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
