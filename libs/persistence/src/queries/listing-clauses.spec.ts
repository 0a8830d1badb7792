import { FilterOperator, SortDirection, type ListQuery } from '@docrender/contracts';
import { listingClauses, UnknownListingFieldError, type ListingSql } from './listing-clauses';

/** The fonts listing of the contracts' LISTINGS table (filter family and source, sort family or source), as SQL. */
const FONTS: ListingSql<'fonts'> = {
  columns: { family: { sql: 'f.family', type: 'text' }, source: { sql: 'f.source', type: 'enum' } },
  search: ['f.family'],
  tiebreaker: 'f.id',
};

const query = (fields: Partial<ListQuery> = {}): ListQuery => ({ filters: [], sortBy: 'family', sortDirection: SortDirection.Asc, take: 20, skip: 0, ...fields });

describe('listing clauses: the SQL of spec 4.1 listings, one column per field of the contracts’ LISTINGS table (issue 37 item 1)', () => {
  it('a listing without a column for one of its contract’s fields does not compile (a new filter field is not a 500 at run time)', () => {
    // @ts-expect-error LISTINGS.fonts filters and sorts on `source`: a listing without its column is refused by the compiler
    const incomplete: ListingSql<'fonts'> = { columns: { family: { sql: 'f.family', type: 'text' } }, search: [], tiebreaker: 'f.id' };
    // @ts-expect-error nor may it name a field the contract does not have
    const extra: ListingSql<'fonts'> = { columns: { ...FONTS.columns, colour: { sql: 'f.colour', type: 'text' } }, search: [], tiebreaker: 'f.id' };
    expect([incomplete, extra]).toHaveLength(2);
  });

  it('4.1: filters, search and sort become parameterised SQL whose values never enter the text', () => {
    const clauses = listingClauses(query({ filters: [{ field: 'family', op: FilterOperator.Contains, value: "Noto'; DROP" }], search: 'Sans', sortDirection: SortDirection.Desc }), FONTS, ['org-1']);
    expect(clauses.conditions.join(' ')).not.toContain('DROP');
    expect(clauses.params).toEqual(['org-1', "noto'; drop", 'sans']);
    expect(clauses.orderBy).toBe('ORDER BY f.family DESC NULLS LAST, f.id DESC');
    expect(clauses.pageParams).toEqual([20, 0]);
  });

  it('a field that reaches the SQL without a column (the HTTP layer validates first) is a programming error naming it', () => {
    expect(() => listingClauses(query({ sortBy: 'colour' }), FONTS, [])).toThrow(UnknownListingFieldError);
  });
});
