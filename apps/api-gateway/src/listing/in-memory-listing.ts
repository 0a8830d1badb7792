import { FilterOperator, SortDirection, type Filter, type ListQuery, type PagedResult } from '@docrender/contracts';

/** The value of a record's listing field: text, number or datetime (null sorts last and matches no comparison). */
export type ListingValue = string | number | Date | null;

/**
 * The shared listing contract over records held in memory (spec 4.1), for listings that are not one table (fonts:
 * built-in families plus the organisation's). Same semantics as the SQL listings: text `eq` exact, `contains` and
 * `search` case-insensitive substrings, `neq` keeps null values, filters AND-ed, total before paging, ties broken by
 * `key` in the sort direction.
 */
export function listInMemory<T>(
  records: readonly T[],
  query: ListQuery,
  options: { value: (record: T, field: string) => ListingValue; search: readonly string[]; key: (record: T) => string },
): PagedResult<T> {
  const needle = query.search?.toLowerCase();
  const matching = records.filter(
    (r) =>
      query.filters.every((f) => matchesFilter(options.value(r, f.field), f)) &&
      (needle === undefined || options.search.some((field) => String(options.value(r, field) ?? '').toLowerCase().includes(needle))),
  );
  const direction = query.sortDirection === SortDirection.Desc ? -1 : 1;
  const sorted = [...matching].sort((a, b) => {
    const byField = compare(options.value(a, query.sortBy), options.value(b, query.sortBy));
    if (byField !== 0) return byField.nullsLast ? byField.order : byField.order * direction;
    return compareKeys(options.key(a), options.key(b)) * direction;
  });
  return { items: sorted.slice(query.skip, query.skip + query.take), total: matching.length, skip: query.skip, take: query.take };
}

type Comparison = { order: number; nullsLast: boolean } | 0;

function compare(a: ListingValue, b: ListingValue): Comparison {
  if (a === null || b === null) return a === b ? 0 : { order: a === null ? 1 : -1, nullsLast: true };
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  if (typeof x === 'string' && typeof y === 'string') {
    const order = compareKeys(x.toLowerCase(), y.toLowerCase()) || compareKeys(x, y);
    return order === 0 ? 0 : { order, nullsLast: false };
  }
  return x === y ? 0 : { order: x < y ? -1 : 1, nullsLast: false };
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether a record whose field holds `value` passes `filter` (spec 4.1): the rule the SQL listings follow too, which
 * the listing e2e spec holds them to.
 */
export function matchesFilter(value: ListingValue, filter: Filter): boolean {
  if (filter.op === FilterOperator.Neq) return value === null || String(value) !== filter.value;
  if (value === null) return false;
  if (filter.op === FilterOperator.Contains) return String(value).toLowerCase().includes(filter.value.toLowerCase());
  const target: string | number = value instanceof Date ? Date.parse(filter.value) : typeof value === 'number' ? Number(filter.value) : filter.value;
  const actual = value instanceof Date ? value.getTime() : value;
  switch (filter.op) {
    case FilterOperator.Eq:
      return actual === target;
    case FilterOperator.Gt:
      return actual > target;
    case FilterOperator.Gte:
      return actual >= target;
    case FilterOperator.Lt:
      return actual < target;
    case FilterOperator.Lte:
      return actual <= target;
  }
}
