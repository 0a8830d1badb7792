import type { EntityManager } from 'typeorm';
import { FilterOperator, SortDirection, type Filter, type LISTINGS, type ListingName, type ListQuery } from '@docrender/contracts';

/** How a listing field is stored: decides the SQL comparison and how the filter's text value becomes a parameter. */
export type ColumnType = 'text' | 'uuid' | 'number' | 'datetime' | 'enum';

/** A field of a listing as SQL: an expression over the query's aliases and its type. */
export type ListingColumn = { sql: string; type: ColumnType };

/** The wire names a listing of the contracts' LISTINGS table filters or sorts on. */
export type ListingField<L extends ListingName> = keyof (typeof LISTINGS)[L]['filterable'] | (typeof LISTINGS)[L]['sortable'][number];

/**
 * One listing's SQL: a column for every field its filters and sorts name in LISTINGS (wire name → column; a field
 * added to the contract without a column does not compile), the expressions free-text search matches, and the unique
 * key that makes the order total (so offset paging neither repeats nor skips records).
 */
export type ListingSql<L extends ListingName> = {
  columns: { readonly [F in ListingField<L>]: ListingColumn };
  search: readonly string[];
  tiebreaker: string;
};

/** A filter or sort field the listing has no column for (the HTTP layer validates first; this is a programming error). */
export class UnknownListingFieldError extends Error {
  constructor(field: string) {
    super(`no column for listing field ${field}`);
    this.name = 'UnknownListingFieldError';
  }
}

/**
 * The WHERE conditions (to AND with the caller's) with their parameters, the ORDER BY, and the LIMIT / OFFSET whose two
 * parameters (`pageParams`) follow `params`: the count query uses `params`, the page query `[...params, ...pageParams]`.
 */
export type ListingClauses = { conditions: string[]; params: unknown[]; orderBy: string; limitOffset: string; pageParams: [number, number] };

/** Datetimes are compared at the millisecond resolution the interface shows (ISO strings with milliseconds). */
const MS = 1;

/**
 * Builds the parameterised clauses of a validated list query. `params` holds the caller's parameters and receives the
 * filters': the first placeholder used is `$<params.length + 1>`. Values never enter the SQL text.
 *
 * Comparison rules: text `eq` is exact and `contains` (like `search`) is a case-insensitive substring match; `neq` on
 * an enum keeps rows where the column is null; datetimes compare at millisecond resolution, written as ranges over the
 * raw column so indexes still apply (`eq t` is `t <= c < t+1ms`, `gt t` is `c >= t+1ms`, `lte t` is `c < t+1ms`).
 */
export function listingClauses<L extends ListingName>(query: ListQuery, listing: ListingSql<L>, params: unknown[]): ListingClauses {
  const placeholder = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const conditions = query.filters.map((filter) => condition(filter, column(listing, filter.field), placeholder));
  const search = query.search?.trim();
  if (search && listing.search.length > 0) {
    const p = placeholder(search.toLowerCase());
    conditions.push(`(${listing.search.map((expr) => `strpos(lower(${expr}), ${p}) > 0`).join(' OR ')})`);
  }
  const sort = column(listing, query.sortBy);
  const direction = query.sortDirection === SortDirection.Desc ? 'DESC' : 'ASC';
  const orderBy = `ORDER BY ${sort.sql} ${direction} NULLS LAST, ${listing.tiebreaker} ${direction}`;
  const limitOffset = `LIMIT $${params.length + 1} OFFSET $${params.length + 2}`;
  return { conditions, params, orderBy, limitOffset, pageParams: [query.take, query.skip] };
}

function column<L extends ListingName>(listing: ListingSql<L>, field: string): ListingColumn {
  const columns: Readonly<Record<string, ListingColumn>> = listing.columns;
  const found = Object.prototype.hasOwnProperty.call(columns, field) ? columns[field] : undefined;
  if (!found) throw new UnknownListingFieldError(field);
  return found;
}

function condition(filter: Filter, col: ListingColumn, placeholder: (value: unknown) => string): string {
  switch (col.type) {
    case 'datetime':
      return datetimeCondition(col.sql, filter, placeholder);
    case 'number':
      return `${col.sql} ${comparison(filter.op)} ${placeholder(numberValue(filter))}::numeric`;
    case 'uuid':
      return `${col.sql} ${comparison(filter.op)} ${placeholder(filter.value)}::uuid`;
    case 'text':
    case 'enum':
      if (filter.op === FilterOperator.Contains) return `strpos(lower(${col.sql}), ${placeholder(filter.value.toLowerCase())}) > 0`;
      if (filter.op === FilterOperator.Neq) return `${col.sql} IS DISTINCT FROM ${placeholder(filter.value)}`;
      return `${col.sql} ${comparison(filter.op)} ${placeholder(filter.value)}`;
  }
}

function datetimeCondition(sql: string, filter: Filter, placeholder: (value: unknown) => string): string {
  const at = Date.parse(filter.value);
  if (Number.isNaN(at)) throw new RangeError(`not a datetime: ${filter.value}`);
  const start = new Date(at);
  const next = new Date(at + MS);
  switch (filter.op) {
    case FilterOperator.Eq:
      return `(${sql} >= ${placeholder(start)} AND ${sql} < ${placeholder(next)})`;
    case FilterOperator.Neq:
      return `(${sql} < ${placeholder(start)} OR ${sql} >= ${placeholder(next)})`;
    case FilterOperator.Gt:
      return `${sql} >= ${placeholder(next)}`;
    case FilterOperator.Gte:
      return `${sql} >= ${placeholder(start)}`;
    case FilterOperator.Lt:
      return `${sql} < ${placeholder(start)}`;
    case FilterOperator.Lte:
      return `${sql} < ${placeholder(next)}`;
    case FilterOperator.Contains:
      throw new RangeError('contains does not apply to datetimes');
  }
}

function numberValue(filter: Filter): number {
  const value = Number(filter.value);
  if (filter.value.trim() === '' || !Number.isFinite(value)) throw new RangeError(`not a number: ${filter.value}`);
  return value;
}

/** The SQL comparison of each operator that compares; `contains` applies to text only and has none. */
const COMPARISON: Readonly<Record<Exclude<FilterOperator, FilterOperator.Contains>, string>> = {
  [FilterOperator.Eq]: '=',
  [FilterOperator.Neq]: '<>',
  [FilterOperator.Gt]: '>',
  [FilterOperator.Gte]: '>=',
  [FilterOperator.Lt]: '<',
  [FilterOperator.Lte]: '<=',
};

function comparison(op: FilterOperator): string {
  if (op === FilterOperator.Contains) throw new RangeError('contains applies to text only');
  return COMPARISON[op];
}

/** A page of records and the count of all records matching the filters. */
export type ListingPage<T> = { items: T[]; total: number };

/**
 * Runs one listing's two queries with the same conditions: the page (`select`, its SELECT … WHERE <scope>, with the
 * conditions ANDed on, ordered and limited) and the count of every matching row (`SELECT count(*) FROM <countFrom>`,
 * the same tables and scope without what the page only shows). `scope` holds the caller's extra conditions, whose
 * parameters are among `clauses.params`.
 */
export async function listingPage<Row, T>(
  manager: EntityManager,
  sql: { select: string; countFrom: string },
  clauses: ListingClauses,
  toItem: (row: Row) => T,
  scope: readonly string[] = [],
): Promise<ListingPage<T>> {
  const where = [...scope, ...clauses.conditions].map((c) => ` AND ${c}`).join('');
  const [rows, [{ total }]] = await Promise.all([
    manager.query(`${sql.select}${where} ${clauses.orderBy} ${clauses.limitOffset}`, [...clauses.params, ...clauses.pageParams]) as Promise<Row[]>,
    manager.query(`SELECT count(*)::int AS total FROM ${sql.countFrom}${where}`, clauses.params) as Promise<{ total: number }[]>,
  ]);
  return { items: rows.map(toItem), total };
}
