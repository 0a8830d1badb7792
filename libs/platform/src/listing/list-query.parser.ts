/** The shared listing contract's query-string rules (spec 4.1), for the gateway's list endpoints and the workspace's. */
import {
  DomainError,
  ErrorCode,
  FieldKind,
  FilterOperator,
  Limits,
  OPERATORS_OF_KIND,
  SortDirection,
  type Filter,
  type FilterableField,
  type ListingContract,
  type ListQuery,
} from '@docrender/contracts';

/** More filters than anyone needs; a bound keeps one request's SQL small. */
export const MAX_FILTERS = 20;
const MAX_VALUE_LENGTH = 1000;

const INTEGER = /^[+-]?\d{1,15}$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 calendar date, optionally with a time (seconds and fraction optional) and a zone; no zone means UTC. */
const ISO_DATETIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
/** `filters[3].field` or `filters[3][field]`. */
const FILTER_PARAMETER = /^filters\[(\d{1,4})\](?:\.(\w+)|\[(\w+)\])$/;
const FILTER_PARTS = ['field', 'op', 'value'] as const;
type FilterPart = (typeof FILTER_PARTS)[number];

const validation = (message: string) => new DomainError(ErrorCode.ValidationError, message);
const binding = (message: string) => new DomainError(ErrorCode.BindingError, message);

/** The one value of a query parameter; a parameter given twice cannot be bound to one value (422 BindingError). */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name);
  if (values.length > 1) throw binding(`${name}: given ${values.length} times; give it once`);
  return values[0];
}

function integer(params: URLSearchParams, name: string): number | undefined {
  const raw = single(params, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!INTEGER.test(raw.trim())) throw binding(`${name}: must be an integer, got '${raw}'`);
  return Number(raw.trim());
}

/**
 * Parses the shared listing contract (spec 4.1) from a query string, for one endpoint's contract:
 * - skip (default 0, negative becomes 0) and take (default 25, clamped to 1..200): the values applied, to be echoed;
 * - sortBy: one of the endpoint's sortable fields, anything else silently the default (its first);
 * - sortDirection: asc (default) or desc, any letter case; another value is 400 ValidationError;
 * - search: trimmed, ignored when empty or when the endpoint has no search;
 * - filters[i].field/op/value (or filters[i][field]…), combined with AND: a field the endpoint cannot filter on, an
 *   operator outside the field's set, a value of the wrong kind (UUID, number, ISO datetime, enum member), or a
 *   missing field or value is 400 ValidationError naming the parameter. Datetimes without a zone are UTC and are
 *   passed on normalised (`toISOString`).
 * Non-integer skip/take and parameters given twice are 422 BindingError. Other query parameters are not looked at.
 */
export function parseListQuery(params: URLSearchParams, listing: ListingContract, listingName: string): ListQuery {
  const skip = Math.max(0, integer(params, 'skip') ?? 0);
  const take = Math.min(Limits.maxTake, Math.max(Limits.minTake, integer(params, 'take') ?? Limits.defaultTake));
  const requestedSort = single(params, 'sortBy');
  const sortBy = requestedSort !== undefined && listing.sortable.includes(requestedSort) ? requestedSort : listing.sortable[0];
  const sortDirection = parseSortDirection(single(params, 'sortDirection'));
  const rawSearch = single(params, 'search')?.trim();
  if (rawSearch !== undefined && rawSearch.length > MAX_VALUE_LENGTH) throw validation(`search: longer than ${MAX_VALUE_LENGTH} characters`);
  const search = listing.searchable && rawSearch ? rawSearch : undefined;
  return { skip, take, sortBy, sortDirection, ...(search !== undefined ? { search } : {}), filters: parseFilters(params, listing, listingName) };
}

function parseSortDirection(raw: string | undefined): SortDirection {
  if (raw === undefined || raw.trim() === '') return SortDirection.Asc;
  const value = raw.trim().toLowerCase();
  if (value === SortDirection.Asc || value === SortDirection.Desc) return value;
  throw validation(`sortDirection: must be asc or desc, got '${raw}'`);
}

function parseFilters(params: URLSearchParams, listing: ListingContract, listingName: string): Filter[] {
  const byIndex = new Map<number, Partial<Record<FilterPart, string>>>();
  for (const name of new Set(params.keys())) {
    if (!name.startsWith('filters')) continue;
    const match = FILTER_PARAMETER.exec(name);
    const part = (match?.[2] ?? match?.[3]) as FilterPart | undefined;
    if (!match || part === undefined || !FILTER_PARTS.includes(part)) {
      throw validation(`${name}: not a filter parameter; use filters[<i>].field, filters[<i>].op and filters[<i>].value`);
    }
    const index = Number(match[1]);
    const filter = byIndex.get(index) ?? {};
    if (filter[part] !== undefined) throw binding(`filters[${index}].${part}: given more than once`);
    filter[part] = single(params, name);
    byIndex.set(index, filter);
  }
  if (byIndex.size > MAX_FILTERS) throw validation(`filters: at most ${MAX_FILTERS} filters, got ${byIndex.size}`);
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([index, parts]) => parseFilter(index, parts, listing, listingName));
}

function parseFilter(index: number, parts: Partial<Record<FilterPart, string>>, listing: ListingContract, listingName: string): Filter {
  const at = `filters[${index}]`;
  const field = parts.field?.trim();
  if (!field) throw validation(`${at}.field: required (the field to filter on)`);
  const definition: FilterableField | undefined = Object.prototype.hasOwnProperty.call(listing.filterable, field) ? listing.filterable[field] : undefined;
  if (!definition) {
    throw validation(`${at}.field: cannot filter ${listingName} on '${field}'; filterable fields: ${Object.keys(listing.filterable).join(', ')}`);
  }
  const allowed = OPERATORS_OF_KIND[definition.kind];
  const opText = parts.op?.trim().toLowerCase() || FilterOperator.Eq;
  const op = allowed.find((o) => o === opText);
  if (op === undefined) throw validation(`${at}.op: '${parts.op}' is not an operator of ${field} (${definition.kind}: ${allowed.join(', ')})`);
  if (parts.value === undefined) throw validation(`${at}.value: required (the value to compare ${field} with)`);
  return { field, op, value: parseValue(`${at}.value`, field, definition, parts.value) };
}

function parseValue(at: string, field: string, definition: FilterableField, raw: string): string {
  if (raw.length > MAX_VALUE_LENGTH) throw validation(`${at}: longer than ${MAX_VALUE_LENGTH} characters`);
  const value = raw.trim();
  switch (definition.kind) {
    case FieldKind.Id:
      if (!UUID.test(value)) throw validation(`${at}: ${field} takes a UUID, got '${raw}'`);
      return value.toLowerCase();
    case FieldKind.Ordered:
      return definition.valueType === 'datetime' ? datetime(at, field, value) : number(at, field, value);
    case FieldKind.Enum:
      if (definition.enumValues && !definition.enumValues.includes(value)) {
        throw validation(`${at}: ${field} is one of ${definition.enumValues.join(', ')}, got '${raw}'`);
      }
      return value;
    case FieldKind.Text:
      return raw;
  }
}

function number(at: string, field: string, value: string): string {
  if (!NUMBER.test(value) || !Number.isFinite(Number(value))) throw validation(`${at}: ${field} takes a number, got '${value}'`);
  return String(Number(value));
}

function datetime(at: string, field: string, value: string): string {
  const match = ISO_DATETIME.exec(value);
  const problem = () => validation(`${at}: ${field} takes an ISO 8601 datetime such as 2026-01-31T12:00:00Z, got '${value}'`);
  if (!match) throw problem();
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  const dayValid = mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (!dayValid || h > 23 || mi > 59 || s > 59) throw problem();
  const milliseconds = fraction.padEnd(3, '0').slice(0, 3);
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : normaliseOffset(zone);
  const at_ = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}.${milliseconds}${offset}`);
  if (Number.isNaN(at_)) throw problem();
  return new Date(at_).toISOString();
}

/** `+02`, `+0200` and `+02:00` → `+02:00`. */
function normaliseOffset(zone: string): string {
  const digits = zone.slice(1).replace(':', '');
  return `${zone[0]}${digits.slice(0, 2)}:${digits.slice(2, 4).padEnd(2, '0')}`;
}
