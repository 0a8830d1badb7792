import { ErrorCode, FieldKind, FilterOperator, LISTINGS, OPERATORS_OF_KIND, SortDirection, type FilterableField, type ListingName } from '@docrender/contracts';
import { domainErrorOf } from '@docrender/testing';
import { MAX_FILTERS, parseListQuery } from './list-query.parser';

const parse = (query: string, listing: ListingName = 'documents') => parseListQuery(new URLSearchParams(query), LISTINGS[listing], listing);

const rejection = (query: string, listing: ListingName = 'documents') => domainErrorOf(() => parse(query, listing));

/** A valid value for each kind of field (and the normalised value the parser passes on). */
function sampleValue(field: FilterableField): { raw: string; parsed: string } {
  switch (field.kind) {
    case FieldKind.Id:
      return { raw: '3F1C8A52-8A0E-4F8E-9A7C-0D3B7C1E2F40', parsed: '3f1c8a52-8a0e-4f8e-9a7c-0d3b7c1e2f40' };
    case FieldKind.Ordered:
      return field.valueType === 'datetime' ? { raw: '2026-03-01T10:00:00+01:00', parsed: '2026-03-01T09:00:00.000Z' } : { raw: '3', parsed: '3' };
    case FieldKind.Enum:
      return { raw: field.enumValues?.[1] ?? 'de', parsed: field.enumValues?.[1] ?? 'de' };
    case FieldKind.Text:
      return { raw: 'Inv', parsed: 'Inv' };
  }
}

const fieldOperatorTable = (Object.keys(LISTINGS) as ListingName[]).flatMap((listing) =>
  Object.entries(LISTINGS[listing].filterable as Record<string, FilterableField>).flatMap(([field, definition]) =>
    Object.values(FilterOperator).map((op) => ({ listing, field, definition, op, allowed: OPERATORS_OF_KIND[definition.kind].includes(op) })),
  ),
);

describe('parseListQuery', () => {
  describe('4.1 paging', () => {
    it('4.1: skip defaults to 0 and take to 25', () => {
      expect(parse('')).toMatchObject({ skip: 0, take: 25, filters: [] });
    });

    it.each([
      ['take=500', 200],
      ['take=200', 200],
      ['take=0', 1],
      ['take=-4', 1],
      ['take=7', 7],
    ])('4.1: take is clamped to 1..200 (%s → %i)', (query, take) => {
      expect(parse(query).take).toBe(take);
    });

    it('4.1: a negative skip is applied as 0', () => {
      expect(parse('skip=-3').skip).toBe(0);
      expect(parse('skip=40').skip).toBe(40);
    });

    it.each(['take=ten', 'skip=1.5', 'take=1e3', 'skip=99999999999999999999'])('7.2: %s is 422 BindingError naming the parameter', (query) => {
      const error = rejection(query);
      expect(error.code).toBe(ErrorCode.BindingError);
      expect(error.message).toMatch(/^(take|skip): /);
    });

    it('7.2: a parameter given twice is 422 BindingError', () => {
      expect(rejection('take=1&take=2').code).toBe(ErrorCode.BindingError);
    });
  });

  describe('4.1 sorting and search', () => {
    it.each(Object.keys(LISTINGS) as ListingName[])('4.1: %s sorts by its first sortable field, ascending, by default', (listing) => {
      expect(parse('', listing)).toMatchObject({ sortBy: LISTINGS[listing].sortable[0], sortDirection: SortDirection.Asc });
    });

    it.each((Object.keys(LISTINGS) as ListingName[]).flatMap((l) => LISTINGS[l].sortable.map((s) => [l, s] as const)))(
      '4.1: %s sorts by %s',
      (listing, sortBy) => {
        expect(parse(`sortBy=${sortBy}&sortDirection=desc`, listing)).toMatchObject({ sortBy, sortDirection: SortDirection.Desc });
      },
    );

    it('4.1: an unrecognised sortBy silently falls back to the default', () => {
      expect(parse('sortBy=colour').sortBy).toBe('renderedAt');
      expect(parse('sortBy=rendered_at').sortBy).toBe('renderedAt');
      expect(parse('sortBy=renderDuration', 'templates').sortBy).toBe('updatedAt');
    });

    it('4.1: sortDirection accepts asc and desc in any case; another value is 400 ValidationError', () => {
      expect(parse('sortDirection=DESC').sortDirection).toBe(SortDirection.Desc);
      const error = rejection('sortDirection=down');
      expect(error.code).toBe(ErrorCode.ValidationError);
      expect(error.message).toContain('sortDirection');
    });

    it('4.1: search is trimmed; empty search is none; an endpoint without search ignores it', () => {
      expect(parse('search=%20inv%20').search).toBe('inv');
      expect(parse('search=').search).toBeUndefined();
      expect(parse('search=v1', 'templateVersions').search).toBeUndefined();
    });
  });

  describe('4.1 filters: every field × operator of the table', () => {
    it.each(fieldOperatorTable.filter((r) => r.allowed))('4.1: $listing filters $field with $op', ({ listing, field, definition, op }) => {
      const { raw, parsed } = sampleValue(definition);
      const query = new URLSearchParams({ 'filters[0].field': field, 'filters[0].op': op, 'filters[0].value': raw }).toString();
      expect(parse(query, listing).filters).toEqual([{ field, op, value: parsed }]);
    });

    it.each(fieldOperatorTable.filter((r) => !r.allowed))('4.1: $listing refuses $op on $field with 400 ValidationError naming it', ({ listing, field, definition, op }) => {
      const query = new URLSearchParams({ 'filters[0].field': field, 'filters[0].op': op, 'filters[0].value': sampleValue(definition).raw }).toString();
      const error = rejection(query, listing);
      expect(error.code).toBe(ErrorCode.ValidationError);
      expect(error.message).toContain('filters[0].op');
      expect(error.message).toContain(field);
      expect(error.message).toContain(op);
    });

    it.each([
      ['templates', 'projectId'],
      ['templates', 'project.id'],
      ['documents', 'templateId'],
      ['documents', 'renderDuration'],
      ['templateVersions', 'templateJson'],
      ['documents', 'constructor'],
    ] as const)('4.1: %s cannot be filtered on %s (400 ValidationError naming it)', (listing, field) => {
      const error = rejection(`filters[0].field=${field}&filters[0].value=x`, listing);
      expect(error.code).toBe(ErrorCode.ValidationError);
      expect(error.message).toContain(`'${field}'`);
    });

    it('4.1: op defaults to eq and filters combine in index order', () => {
      expect(parse('filters[1].field=environment&filters[1].value=test&filters[0].field=documentName&filters[0].op=contains&filters[0].value=x').filters).toEqual([
        { field: 'documentName', op: FilterOperator.Contains, value: 'x' },
        { field: 'environment', op: FilterOperator.Eq, value: 'test' },
      ]);
    });

    it('4.1: the bracket form filters[i][field] is the same filter', () => {
      expect(parse('filters[0][field]=pageCount&filters[0][op]=gte&filters[0][value]=2').filters).toEqual([{ field: 'pageCount', op: FilterOperator.Gte, value: '2' }]);
    });

    it.each([
      ['a UUID field with a non-UUID', 'filters[0].field=template.guid&filters[0].value=42'],
      ['a number field with text', 'filters[0].field=pageCount&filters[0].op=gt&filters[0].value=two'],
      ['a datetime field with a non-date', 'filters[0].field=renderedAt&filters[0].op=gt&filters[0].value=yesterday'],
      ['a datetime field with an impossible date', 'filters[0].field=renderedAt&filters[0].value=2026-02-30T00:00:00Z'],
      ['an enum field with a value outside its set', 'filters[0].field=environment&filters[0].value=staging'],
      ['a filter without its field', 'filters[0].op=eq&filters[0].value=x'],
      ['a filter without its value', 'filters[0].field=documentName'],
      ['an unknown filter part', 'filters[0].field=documentName&filters[0].value=x&filters[0].operator=eq'],
      ['a malformed filter parameter', 'filters.0.field=documentName'],
    ])('4.1: %s is 400 ValidationError', (_case, query) => {
      const error = rejection(query);
      expect(error.code).toBe(ErrorCode.ValidationError);
      expect(error.message).toMatch(/filters/);
    });

    it('4.1: datetimes are ISO 8601; without a zone they are UTC; they are passed on normalised', () => {
      const value = (v: string) => parse(`filters[0].field=renderedAt&filters[0].op=lte&filters[0].value=${encodeURIComponent(v)}`).filters[0].value;
      expect(value('2026-01-31')).toBe('2026-01-31T00:00:00.000Z');
      expect(value('2026-01-31T12:30')).toBe('2026-01-31T12:30:00.000Z');
      expect(value('2026-01-31T12:30:15.123456Z')).toBe('2026-01-31T12:30:15.123Z');
      expect(value('2026-01-31T12:30:15-0230')).toBe('2026-01-31T15:00:15.000Z');
    });

    it(`4.1: more than ${MAX_FILTERS} filters are 400 ValidationError`, () => {
      const query = Array.from({ length: MAX_FILTERS + 1 }, (_, i) => `filters[${i}].field=pageCount&filters[${i}].value=1`).join('&');
      expect(rejection(query).code).toBe(ErrorCode.ValidationError);
    });
  });
});
