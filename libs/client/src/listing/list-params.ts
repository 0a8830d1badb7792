import type { FilterOperator, SortDirection } from '@docrender/contracts';
import { LISTINGS } from '@docrender/contracts/values';

/** The list endpoints of spec 4.1 (as named in the contracts' LISTINGS table). */
export type ListingName = keyof typeof LISTINGS;

/**
 * The fields an endpoint filters on (the contracts' LISTINGS table): a misspelt field does not compile, where the
 * service would answer 400. A field only a newer service knows is passed with a cast (`'newField' as FilterField<'jobs'>`).
 */
export type FilterField<L extends ListingName> = keyof (typeof LISTINGS)[L]['filterable'];

/**
 * The fields an endpoint sorts by: a misspelt field does not compile — the service would silently fall back to its
 * default sort (spec 4.1), which is the mistake worth catching.
 */
export type SortField<L extends ListingName> = (typeof LISTINGS)[L]['sortable'][number];

/** The fields a list endpoint filters and sorts on, default sort first (the contracts' LISTINGS without their field kinds). */
type ListingFieldsOf<L extends ListingName> = { readonly filterable: readonly FilterField<L>[]; readonly sortable: (typeof LISTINGS)[L]['sortable'] };

function fieldsOf<L extends ListingName>(listing: L): ListingFieldsOf<L> {
  return { filterable: Object.keys(LISTINGS[listing].filterable) as FilterField<L>[], sortable: LISTINGS[listing].sortable };
}

export const LISTING_FIELDS: { readonly [L in ListingName]: ListingFieldsOf<L> } = Object.freeze({
  templates: fieldsOf('templates'),
  templateVersions: fieldsOf('templateVersions'),
  documents: fieldsOf('documents'),
  fonts: fieldsOf('fonts'),
});

/** One filter: `filters[i].field`, `.op` (default `eq`), `.value`; filters combine with AND. Dates are sent as ISO 8601. */
export type ListFilter<L extends ListingName> = {
  field: FilterField<L>;
  op?: `${FilterOperator}`;
  value: string | number | boolean | Date;
};

/** The shared listing parameters of spec 4.1. */
export type ListParams<L extends ListingName> = {
  /** Records to skip (offset paging). Default 0. */
  skip?: number;
  /** Page size, clamped by the service to 1..200 (default 25); the applied value is echoed in `take`. */
  take?: number;
  sortBy?: SortField<L>;
  sortDirection?: `${SortDirection}`;
  /** Free-text contains-match over the endpoint's text fields. */
  search?: string;
  filters?: readonly ListFilter<L>[];
};

/** The query string of a list call: `skip`, `take`, `sortBy`, `sortDirection`, `search`, `filters[i].field|op|value`. */
export function listQuery<L extends ListingName>(params: ListParams<L> = {}): URLSearchParams {
  const query = new URLSearchParams();
  if (params.skip !== undefined) query.set('skip', String(params.skip));
  if (params.take !== undefined) query.set('take', String(params.take));
  if (params.sortBy !== undefined) query.set('sortBy', String(params.sortBy));
  if (params.sortDirection !== undefined) query.set('sortDirection', params.sortDirection);
  if (params.search !== undefined) query.set('search', params.search);
  (params.filters ?? []).forEach((filter, i) => {
    query.set(`filters[${i}].field`, String(filter.field));
    query.set(`filters[${i}].op`, filter.op ?? 'eq');
    query.set(`filters[${i}].value`, filter.value instanceof Date ? filter.value.toISOString() : String(filter.value));
  });
  return query;
}
