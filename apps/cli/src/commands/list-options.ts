import type { ListParams, ListingName } from '@docrender/client';
import type { OptionSpec, OptionValues } from '../cli/command';
import { flag, integerOption, stringOption } from '../cli/option-values';

/** The listing options every `… list` command has (spec 4.1). */
export const LIST_OPTIONS: OptionSpec = {
  search: { type: 'string' },
  sort: { type: 'string' },
  desc: { type: 'boolean' },
  take: { type: 'string' },
  skip: { type: 'string' },
  all: { type: 'boolean' },
};

export const LIST_HELP: readonly (readonly [string, string])[] = [
  ['--search <text>', 'free-text contains-match'],
  ['--sort <field>', 'sort field (an unknown one falls back to the default)'],
  ['--desc', 'sort descending'],
  ['--take <n>', 'page size (1-200, default 25)'],
  ['--skip <n>', 'records to skip'],
  ['--all', 'every page, not just one (the set is pinned to its state at the start where the listing allows)'],
];

export function listParams<L extends ListingName>(values: OptionValues): ListParams<L> {
  return {
    search: stringOption(values, 'search'),
    sortBy: stringOption(values, 'sort'),
    sortDirection: flag(values, 'desc') ? 'desc' : undefined,
    take: integerOption(values, 'take', 1),
    skip: integerOption(values, 'skip', 0),
  };
}

/** The page as `1-25 of 42`. */
export function pageLine(skip: number, count: number, total: number): string {
  return count === 0 ? `0 of ${total}` : `${skip + 1}-${skip + count} of ${total}`;
}

/** An ISO timestamp shortened to minutes for tables. */
export function shortTime(iso: string | null): string {
  return iso === null ? '' : iso.replace('T', ' ').slice(0, 16);
}
