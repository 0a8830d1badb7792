import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiQuery, ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto, FieldKind, FilterOperator, Limits, LISTINGS, OPERATORS_OF_KIND, SortDirection, type ListingName } from '@docrender/contracts';
import type { Request } from 'express';
import { MAX_FILTERS, parseListQuery } from '@docrender/platform';

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

/** How many indexed filter slots the document declares; the parser takes up to MAX_FILTERS the same way. */
const DECLARED_FILTER_SLOTS = 3;

/** The filter parameters `filters[i].field`, `.op`, `.value` of one slot, with the endpoint's fields and operators as enums. */
function filterSlot(listing: ListingName, index: number): MethodDecorator[] {
  const filterable = LISTINGS[listing].filterable as Record<string, { kind: FieldKind }>;
  const operators = [...new Set(Object.values(filterable).flatMap((def) => OPERATORS_OF_KIND[def.kind]))];
  const more = index === 0 ? ` Further filters use filters[1], filters[2]… (up to filters[${MAX_FILTERS - 1}]), combined with AND.` : '';
  return [
    ApiQuery({
      name: `filters[${index}].field`,
      required: false,
      enum: Object.keys(filterable),
      description: `Field to filter on: ${describeFilterable(listing)}.${more}`,
    }),
    ApiQuery({
      name: `filters[${index}].op`,
      required: false,
      schema: { type: 'string', enum: operators, default: FilterOperator.Eq },
      description: 'Operator; which ones a field takes depends on its kind (Id eq; Text eq, contains; Ordered eq, gt, gte, lt, lte; Enum eq, neq).',
    }),
    ApiQuery({
      name: `filters[${index}].value`,
      required: false,
      type: String,
      description: 'Comparison value; datetimes in ISO 8601 (UTC when no zone is given). Required when the field is given.',
    }),
  ];
}

/** OpenAPI for the listing query parameters of one endpoint and its 400 answer for bad filters. */
export function ApiListing(listing: ListingName): MethodDecorator {
  const contract = LISTINGS[listing];
  const searchable = contract.searchable as boolean;
  return applyDecorators(
    ApiQuery({
      name: 'skip',
      required: false,
      schema: { type: 'integer', minimum: 0, default: 0 },
      description: 'Records to skip (offset paging); a negative value counts as 0.',
    }),
    ApiQuery({
      name: 'take',
      required: false,
      schema: { type: 'integer', default: Limits.defaultTake },
      description: `Page size; clamped to ${Limits.minTake}..${Limits.maxTake}; the applied value is echoed.`,
    }),
    ApiQuery({
      name: 'sortBy',
      required: false,
      schema: { type: 'string', enum: [...contract.sortable], default: contract.sortable[0] },
      description: 'An unrecognised value silently falls back to the default.',
    }),
    ApiQuery({ name: 'sortDirection', required: false, schema: { type: 'string', enum: Object.values(SortDirection), default: SortDirection.Asc } }),
    ApiQuery({
      name: 'search',
      required: false,
      type: String,
      description: searchable ? 'Case-insensitive contains-match over the text fields.' : `Accepted and ignored: ${LISTING_NAMES[listing]} have no search.`,
    }),
    ...Array.from({ length: DECLARED_FILTER_SLOTS }, (_, index) => filterSlot(listing, index)).flat(),
    ApiResponse({
      status: 400,
      type: ErrorEnvelopeDto,
      description: 'ValidationError: a filter names a field that cannot be filtered, an operator outside its set, or a value of the wrong kind.',
    }),
    ApiResponse({ status: 422, type: ErrorEnvelopeDto, description: 'BindingError: skip or take is not an integer, or a parameter is given twice.' }),
  );
}
