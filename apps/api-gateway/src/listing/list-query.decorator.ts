import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto, FieldKind, Limits, LISTINGS, OPERATORS_OF_KIND, SortDirection, type ListingName } from '@docrender/contracts';
import type { Request } from 'express';
import { parseListQuery } from './list-query.parser';

/** The query string exactly as sent: the indexed filter names must not depend on Express's query-parser setting. */
function searchParamsOf(request: Request): URLSearchParams {
  const url = request.originalUrl ?? request.url;
  const start = url.indexOf('?');
  return new URLSearchParams(start < 0 ? '' : url.slice(start + 1));
}

/** The shared listing contract (spec 4.1) of one list endpoint, parsed from the query: `@ListQueryParams('documents') query: ListQuery`. */
export const ListQueryParams = createParamDecorator((listing: ListingName, context: ExecutionContext) =>
  parseListQuery(searchParamsOf(context.switchToHttp().getRequest<Request>()), LISTINGS[listing], listing),
);

const LISTING_NAMES: Record<ListingName, string> = {
  templates: 'templates',
  templateVersions: 'template versions',
  documents: 'documents',
  fonts: 'fonts',
};

function describeFilterable(listing: ListingName): string {
  return Object.entries(LISTINGS[listing].filterable as Record<string, { kind: FieldKind; enumValues?: readonly string[] }>)
    .map(([field, def]) => `\`${field}\` (${def.kind}: ${OPERATORS_OF_KIND[def.kind].join(', ')}${def.enumValues ? `; values ${def.enumValues.join(', ')}` : ''})`)
    .join(', ');
}

/** OpenAPI for the listing query parameters of one endpoint and its 400 answer for bad filters. */
export function ApiListing(listing: ListingName): MethodDecorator {
  const contract = LISTINGS[listing];
  const searchable = contract.searchable as boolean;
  return applyDecorators(
    ApiQuery({ name: 'skip', required: false, type: Number, description: 'Records to skip (offset paging). Default 0.' }),
    ApiQuery({
      name: 'take',
      required: false,
      type: Number,
      description: `Page size. Default ${Limits.defaultTake}; clamped to ${Limits.minTake}..${Limits.maxTake}; the applied value is echoed.`,
    }),
    ApiQuery({
      name: 'sortBy',
      required: false,
      enum: [...contract.sortable],
      description: `Default \`${contract.sortable[0]}\`. An unrecognised value silently falls back to the default.`,
    }),
    ApiQuery({ name: 'sortDirection', required: false, enum: SortDirection, description: 'Default asc.' }),
    ApiQuery({
      name: 'search',
      required: false,
      type: String,
      description: searchable ? 'Case-insensitive contains-match over the text fields.' : `Accepted and ignored: ${LISTING_NAMES[listing]} have no search.`,
    }),
    ApiQuery({
      name: 'filters[0].field',
      required: false,
      type: String,
      description: `Field to filter on; repeat with filters[1]…, combined with AND. Filterable: ${describeFilterable(listing)}.`,
    }),
    ApiQuery({ name: 'filters[0].op', required: false, type: String, description: 'Operator (default eq): Id eq; Text eq, contains; Ordered eq, gt, gte, lt, lte; Enum eq, neq.' }),
    ApiQuery({ name: 'filters[0].value', required: false, type: String, description: 'Comparison value; datetimes in ISO 8601 (UTC when no zone is given).' }),
    ApiResponse({
      status: 400,
      type: ErrorEnvelopeDto,
      description: 'ValidationError: a filter names a field that cannot be filtered, an operator outside its set, or a value of the wrong kind.',
    }),
    ApiResponse({ status: 422, type: ErrorEnvelopeDto, description: 'BindingError: skip or take is not an integer, or a parameter is given twice.' }),
  );
}
