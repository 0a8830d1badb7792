import type { CommandDefinition } from '../cli/command';
import { EXIT_OK } from '../cli/cli-io';
import { keyValues } from '../output/table';

export const statsCommand: CommandDefinition = {
  words: ['stats'],
  summary: "Show the organisation's usage and credit for the current billing period.",
  arguments: '',
  help: [],
  options: {},
  async run({ output, client }) {
    const stats = await client().organisation.stats();
    output.result(stats);
    output.line(
      keyValues([
        ['organisation', stats.organisationName],
        ['tier', stats.tier],
        ['period', `${stats.periodStart} .. ${stats.periodEnd}`],
        ['pages used', `${stats.pagesUsedThisPeriod} of ${stats.includedRendersPerMonth}`],
        ['pages available', String(stats.pagesAvailable)],
        ['tokens used', `${stats.tokensUsedThisPeriod} of ${stats.includedTokensPerMonth}`],
        ['tokens available', String(stats.tokensAvailable)],
        ['users', String(stats.userCount)],
      ]),
    );
    return EXIT_OK;
  },
};
