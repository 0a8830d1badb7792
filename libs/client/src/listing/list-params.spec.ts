import { LISTING_FIELDS, listQuery } from './list-params';

describe('listing query (spec 4.1)', () => {
  it('4.1: filters use the indexed form filters[i].field/op/value, op defaulting to eq, dates as ISO 8601', () => {
    const query = listQuery<'documents'>({
      skip: 50,
      take: 50,
      sortBy: 'renderedAt',
      sortDirection: 'desc',
      search: 'invoice',
      filters: [
        { field: 'template.guid', value: '6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f' },
        { field: 'renderedAt', op: 'lt', value: new Date('2026-04-01T00:00:00Z') },
        { field: 'pageCount', op: 'gte', value: 2 },
      ],
    });
    expect([...query.entries()]).toEqual([
      ['skip', '50'],
      ['take', '50'],
      ['sortBy', 'renderedAt'],
      ['sortDirection', 'desc'],
      ['search', 'invoice'],
      ['filters[0].field', 'template.guid'],
      ['filters[0].op', 'eq'],
      ['filters[0].value', '6f0c2a4e-8b1d-4c3a-9e7f-1a2b3c4d5e6f'],
      ['filters[1].field', 'renderedAt'],
      ['filters[1].op', 'lt'],
      ['filters[1].value', '2026-04-01T00:00:00.000Z'],
      ['filters[2].field', 'pageCount'],
      ['filters[2].op', 'gte'],
      ['filters[2].value', '2'],
    ]);
  });

  it('sends nothing for parameters left out', () => {
    expect(listQuery().toString()).toBe('');
  });

  it('4.1: LISTING_FIELDS names the filterable and sortable fields of every list endpoint, default sort first', () => {
    expect(Object.keys(LISTING_FIELDS)).toEqual(['templates', 'templateVersions', 'documents', 'fonts']);
    expect(LISTING_FIELDS.templates).toEqual({ filterable: ['name', 'project.guid', 'createdAt', 'updatedAt'], sortable: ['updatedAt', 'name', 'createdAt'] });
    expect(LISTING_FIELDS.documents.sortable[0]).toBe('renderedAt');
    expect(LISTING_FIELDS.documents.filterable).toEqual(expect.arrayContaining(['template.guid', 'environment', 'language']));
    expect(LISTING_FIELDS.fonts).toEqual({ filterable: ['family', 'source'], sortable: ['family', 'source'] });
    expect(Object.isFrozen(LISTING_FIELDS)).toBe(true);
  });
});
