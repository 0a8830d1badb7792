import path from 'node:path';
import { Environment, isValid } from '@docrender/client';
import type { CommandDefinition } from '../cli/command';
import { EXIT_FAILED, EXIT_OK } from '../cli/cli-io';
import { choiceOption, integerOption, positional, requiredString } from '../cli/option-values';
import { readDocuments } from '../input/document-data.reader';
import { groupIssues, issueSummaryLines } from '../output/issue-summary';

export const validateCommand: CommandDefinition = {
  words: ['validate'],
  summary: 'Check documents against a template without rendering or using credit; exits 1 when invalid.',
  arguments: '<templateId> --data <file.json|file.ndjson>',
  help: [
    ['--data <file>', 'documents, as for render'],
    ['--version <n>', 'the template version (default: the latest published)'],
    ['--gate <production|test>', 'production (default, spec 4.4): Warning and Error issues make it invalid; test: only Error'],
  ],
  options: { data: { type: 'string' }, version: { type: 'string' }, gate: { type: 'string' } },
  async run({ io, output, positionals, values, client }) {
    const templateId = positional(positionals, 0, 'templateId');
    const documents = await readDocuments(path.resolve(io.baseDir, requiredString(values, 'data')));
    const gate = choiceOption(values, 'gate', [Environment.Production, Environment.Test] as const) ?? Environment.Production;
    const { issues } = await client().renders.validate(templateId, documents, { version: integerOption(values, 'version', 1) });
    const valid = isValid(issues, gate);
    const issuesByType = groupIssues(issues);
    output.result({ templateId, documentCount: documents.length, gate, valid, issues, issuesByType });
    output.line(`${valid ? 'Valid' : 'Invalid'} (${gate} gate): ${documents.length} document(s), ${issues.length} issue(s)`);
    if (issuesByType.length > 0) {
      output.line('Issues by type (document indexes in the data file):');
      for (const line of issueSummaryLines(issuesByType)) output.line(line);
    }
    return valid ? EXIT_OK : EXIT_FAILED;
  },
};
