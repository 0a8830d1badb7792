import { FilterOperator, SortDirection, type ListQuery } from '@docrender/contracts';
import { listInMemory, type ListingValue } from './in-memory-listing';

type Font = { family: string; source: string; size: number | null };
const fonts: Font[] = [
  { family: 'Inter', source: 'builtin', size: 3 },
  { family: 'acme Sans', source: 'custom', size: 1 },
  { family: 'Roboto Mono', source: 'builtin', size: null },
  { family: 'Brand', source: 'custom', size: 2 },
];
const options = { value: (f: Font, field: string): ListingValue => (field === 'size' ? f.size : (f as Record<string, unknown>)[field] as string), search: ['family'], key: (f: Font) => f.family };
const query = (q: Partial<ListQuery>): ListQuery => ({ skip: 0, take: 25, sortBy: 'family', sortDirection: SortDirection.Asc, filters: [], ...q });
const families = (q: Partial<ListQuery>) => listInMemory(fonts, query(q), options).items.map((f) => f.family);

describe('listInMemory', () => {
  it('4.1: sorts case-insensitively in either direction; nulls last in both', () => {
    expect(families({})).toEqual(['acme Sans', 'Brand', 'Inter', 'Roboto Mono']);
    expect(families({ sortDirection: SortDirection.Desc })).toEqual(['Roboto Mono', 'Inter', 'Brand', 'acme Sans']);
    expect(families({ sortBy: 'size' })).toEqual(['acme Sans', 'Brand', 'Inter', 'Roboto Mono']);
    expect(families({ sortBy: 'size', sortDirection: SortDirection.Desc })).toEqual(['Inter', 'Brand', 'acme Sans', 'Roboto Mono']);
  });

  it('4.1: filters combine with AND; contains and search ignore case; neq keeps nulls', () => {
    expect(families({ filters: [{ field: 'source', op: FilterOperator.Eq, value: 'custom' }] })).toEqual(['acme Sans', 'Brand']);
    expect(families({ filters: [{ field: 'family', op: FilterOperator.Contains, value: 'AN' }, { field: 'source', op: FilterOperator.Neq, value: 'builtin' }] })).toEqual([
      'acme Sans',
      'Brand',
    ]);
    expect(families({ filters: [{ field: 'size', op: FilterOperator.Neq, value: '3' }] })).toEqual(['acme Sans', 'Brand', 'Roboto Mono']);
    expect(families({ filters: [{ field: 'size', op: FilterOperator.Gte, value: '2' }] })).toEqual(['Brand', 'Inter']);
    expect(families({ search: 'mono' })).toEqual(['Roboto Mono']);
  });

  it('4.1: total counts every match, independent of skip and take', () => {
    expect(listInMemory(fonts, query({ skip: 1, take: 2 }), options)).toEqual({ items: [fonts[3], fonts[0]], total: 4, skip: 1, take: 2 });
  });
});
