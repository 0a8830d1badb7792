import type { PagedResult } from '@docrender/contracts';
import type { FilterField, ListFilter, ListingName, ListParams } from './list-params';

/** How `listAll` walks the pages. */
export type IterateOptions = {
  /**
   * Pins the set against drift (spec 4.1): adds the upper-bound filter `<pin field> lte <time>`, so records arriving
   * while the pages are read do not shift the offsets. `true` pins at the current time of this machine (mind clock skew
   * with the service); a Date or ISO string pins at that instant.
   */
  pin?: boolean | Date | string;
};

/** The field each listing pins on: the documents' render time; templates and versions by creation time. */
export const PIN_FIELDS: { readonly [L in ListingName]: FilterField<L> | null } = {
  documents: 'renderedAt',
  templates: 'createdAt',
  templateVersions: 'createdAt',
  fonts: null,
};

/** `params` with the pin filter of `options` added (or `params` itself when nothing is pinned). */
export function pinned<L extends ListingName>(listing: L, params: ListParams<L>, options: IterateOptions, now: () => Date = () => new Date()): ListParams<L> {
  if (options.pin === undefined || options.pin === false) return params;
  const field = PIN_FIELDS[listing];
  if (field === null) throw new TypeError(`the ${listing} listing has no ordered field to pin on`);
  const at = options.pin === true ? now() : options.pin;
  const filter: ListFilter<L> = { field, op: 'lte', value: at instanceof Date ? at.toISOString() : at };
  return { ...params, filters: [...(params.filters ?? []), filter] };
}

/**
 * Every record of a listing, page after page, following the paging rule of spec 4.1: advance `skip` by the number of
 * items returned until `skip + items.length >= total` (`skip` as the service applied it). An empty page ends the walk
 * too, so a total that shrinks meanwhile cannot loop forever.
 */
export async function* paginate<T>(fetchPage: (skip: number) => Promise<PagedResult<T>>, firstSkip = 0): AsyncGenerator<T, void, undefined> {
  let skip = firstSkip;
  for (;;) {
    const page = await fetchPage(skip);
    yield* page.items;
    const next = page.skip + page.items.length;
    if (page.items.length === 0 || next >= page.total) return;
    skip = next;
  }
}
