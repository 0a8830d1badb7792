import { UsageError } from '../cli/usage.error';
import { listParams, nextPageHint, suggestion } from './list-options';

describe('list options of the CLI (spec 4.1; issue 22: field names checked against the contract)', () => {
  it('4.1: a sort field the endpoint does not sort on is a usage error that suggests the closest one and lists them', () => {
    expect(() => listParams({ sort: 'nmae' }, 'templates')).toThrow(new UsageError("--sort: templates cannot be sorted by 'nmae'; did you mean 'name'?; fields: updatedAt, name, createdAt"));
    expect(() => listParams({ sort: 'colour' }, 'documents')).toThrow(/^--sort: documents cannot be sorted by 'colour'; fields: renderedAt, /);
    expect(listParams({ sort: 'pageCount', desc: true }, 'documents')).toMatchObject({ sortBy: 'pageCount', sortDirection: 'desc' });
  });

  it('4.1: --filter <field>[:<op>]=<value> becomes indexed filters; an unknown field or operator is a usage error with a suggestion', () => {
    expect(listParams({ filter: ['pageCount:gte=2', 'documentName:contains=Invoice: 7', 'environment=production'] }, 'documents').filters).toEqual([
      { field: 'pageCount', op: 'gte', value: '2' },
      { field: 'documentName', op: 'contains', value: 'Invoice: 7' },
      { field: 'environment', value: 'production' },
    ]);
    expect(() => listParams({ filter: ['templateId=x'] }, 'documents')).toThrow(/^--filter: documents cannot be filtered on 'templateId'; did you mean 'template\.guid'\?; fields: documentName, /);
    expect(() => listParams({ filter: ['colour=red'] }, 'documents')).toThrow(/^--filter: documents cannot be filtered on 'colour'; fields: documentName, /);
    expect(() => listParams({ filter: ['pagecount:gte=2'] }, 'documents')).toThrow(/did you mean 'pageCount'\?/);
    expect(() => listParams({ filter: ['pageCount:gtee=2'] }, 'documents')).toThrow("--filter: unknown operator 'gtee'; did you mean 'gte'?; operators: eq, neq, contains, gt, gte, lt, lte");
    expect(() => listParams({ filter: ['pageCount'] }, 'documents')).toThrow("--filter must look like <field>[:<op>]=<value>, got 'pageCount'");
  });

  it('suggests only a near name', () => {
    expect(suggestion('updatedat', ['updatedAt', 'name'])).toBe("; did you mean 'updatedAt'?");
    expect(suggestion('zzz', ['updatedAt', 'name'])).toBe('');
  });

  it('4.1: the next-page hint repeats the command with skip advanced by the items shown, and is absent on the last page', () => {
    expect(nextPageHint(['templates', 'list', '--take', '10'], 0, 10, 42)).toBe('next page: docrender templates list --take 10 --skip 10');
    expect(nextPageHint(['documents', 'list', '--skip', '10', '--filter', 'documentName:contains=A B', '--skip=3'], 10, 25, 60)).toBe(
      "next page: docrender documents list --filter 'documentName:contains=A B' --skip 35",
    );
    expect(nextPageHint(['templates', 'list'], 25, 17, 42)).toBeNull();
    expect(nextPageHint(['templates', 'list'], 50, 0, 42)).toBeNull();
  });
});
