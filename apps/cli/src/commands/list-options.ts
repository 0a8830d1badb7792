import { FilterOperator, LISTING_FIELDS, type FilterField, type ListFilter, type ListParams, type ListingName, type PagedResult, type SortField } from '@docrender/client';
import type { CommandContext, OptionSpec, OptionValues } from '../cli/command';
import { flag, integerOption, stringOption } from '../cli/option-values';
import { UsageError } from '../cli/usage.error';

/** The listing options every `… list` command has (spec 4.1). */
export const LIST_OPTIONS: OptionSpec = {
  search: { type: 'string' },
  sort: { type: 'string' },
  desc: { type: 'boolean' },
  take: { type: 'string' },
  skip: { type: 'string' },
  all: { type: 'boolean' },
  filter: { type: 'string', multiple: true },
};

export const LIST_HELP: readonly (readonly [string, string])[] = [
  ['--search <text>', 'free-text contains-match'],
  ['--sort <field>', 'sort field (checked against the fields the service sorts on)'],
  ['--desc', 'sort descending'],
  ['--take <n>', 'page size (1-200, default 25)'],
  ['--skip <n>', 'records to skip'],
  ['--all', 'every page, not just one (the set is pinned to its state at the start where the listing allows)'],
  ['--filter <field>[:<op>]=<value>', 'filter (repeatable, combined with AND); op eq (default), neq, contains, gt, gte, lt, lte'],
];

const OPERATORS: readonly string[] = Object.values(FilterOperator);

/** The listing parameters of the common options; unknown sort and filter fields are usage errors with a suggestion. */
export function listParams<L extends ListingName>(values: OptionValues, listing: L): ListParams<L> {
  const sortBy = stringOption(values, 'sort');
  if (sortBy !== undefined) knownField('--sort', sortBy, LISTING_FIELDS[listing].sortable, `${listingLabel(listing)} cannot be sorted by`);
  return {
    search: stringOption(values, 'search'),
    // checked above against the fields the service sorts on
    sortBy: sortBy as SortField<L> | undefined,
    sortDirection: flag(values, 'desc') ? 'desc' : undefined,
    take: integerOption(values, 'take', 1),
    skip: integerOption(values, 'skip', 0),
    filters: filterOptions(values, listing),
  };
}

/** `--filter field[:op]=value`, each field checked against the endpoint's filterable fields. */
function filterOptions<L extends ListingName>(values: OptionValues, listing: L): ListFilter<L>[] {
  const raw = values.filter;
  const texts = raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String);
  return texts.map((text) => {
    const match = /^([^:=]+)(?::([a-z]+))?=(.*)$/s.exec(text);
    if (!match) throw new UsageError(`--filter must look like <field>[:<op>]=<value>, got '${text}'`);
    const [, field, op, value] = match;
    knownField('--filter', field, LISTING_FIELDS[listing].filterable as readonly string[], `${listingLabel(listing)} cannot be filtered on`);
    if (op !== undefined && !OPERATORS.includes(op)) throw new UsageError(`--filter: unknown operator '${op}'${suggestion(op, OPERATORS)}; operators: ${OPERATORS.join(', ')}`);
    // the field is checked above against the endpoint's filterable fields
    return { field: field as FilterField<L>, ...(op === undefined ? {} : { op: op as FilterOperator }), value };
  });
}

function knownField(option: string, name: string, known: readonly string[], cannot: string): void {
  if (known.includes(name)) return;
  throw new UsageError(`${option}: ${cannot} '${name}'${suggestion(name, known)}; fields: ${known.join(', ')}`);
}

const listingLabel = (listing: ListingName): string => (listing === 'templateVersions' ? 'template versions' : listing);

/** `; did you mean 'x'?` for the closest known name within two edits (letter case aside), or nothing. */
export function suggestion(name: string, known: readonly string[]): string {
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(name.toLowerCase(), candidate.toLowerCase()) }));
  const best = scored.sort((a, b) => a.distance - b.distance)[0];
  return best !== undefined && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? `; did you mean '${best.candidate}'?` : '';
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}

/** What a `… list` command shows: the items, the summary line, and the command for the next page (null on the last). */
export type Listed<T> = { items: T[]; summary: string; next: string | null };

/**
 * With `--all` every item (`all`, page after page), else one page; writes the JSON result (`{ items, total }` for
 * `--all`, the page otherwise). `noun` names an item in the summary (`42 template(s)`).
 */
export async function listItems<T>(
  { output, argv, values }: Pick<CommandContext, 'output' | 'argv' | 'values'>,
  noun: string,
  source: { page(): Promise<PagedResult<T>>; all(): AsyncIterable<T> },
): Promise<Listed<T>> {
  if (flag(values, 'all')) {
    const items: T[] = [];
    for await (const item of source.all()) items.push(item);
    output.result({ items, total: items.length });
    return { items, summary: `${items.length} ${noun}(s)`, next: null };
  }
  const page = await source.page();
  output.result(page);
  return {
    items: page.items,
    summary: pageLine(page.skip, page.items.length, page.total),
    next: nextPageHint(argv, page.skip, page.items.length, page.total),
  };
}

/** The page as `1-25 of 42`. */
export function pageLine(skip: number, count: number, total: number): string {
  return count === 0 ? `0 of ${total}` : `${skip + 1}-${skip + count} of ${total}`;
}

/**
 * The command that shows the next page (the same command with `--skip` advanced), or null on the last page.
 * `argv` is the command line as given, without the program name.
 */
export function nextPageHint(argv: readonly string[], skip: number, count: number, total: number): string | null {
  if (count === 0 || skip + count >= total) return null;
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--skip') i++;
    else if (!argv[i].startsWith('--skip=')) rest.push(argv[i]);
  }
  return `next page: docrender ${[...rest, '--skip', String(skip + count)].map(shellWord).join(' ')}`;
}

const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** An ISO timestamp shortened to minutes for tables. */
export function shortTime(iso: string | null): string {
  return iso === null ? '' : iso.replace('T', ' ').slice(0, 16);
}
