import { RenderIssueType } from '@docrender/contracts';
import { Template, TemplateElement } from '../model/template.types';
import { compileDocument } from './compile-document';

const doc = (body: TemplateElement[], data: unknown) => compileDocument({ template: { body } as Template, data });
const issuesOf = (body: TemplateElement[], data: unknown) => doc(body, data).issues.map((i) => [i.type, i.elementId, i.description]);

describe('issue 21 item 2: no silent failure, across the language (compiled documents)', () => {
  it("a condition with single quotes (status == 'paid') works: it used to be always false without an issue", () => {
    const compiled = doc([{ type: 'text', id: 'stamp', visibleIf: "status == 'paid'", text: 'PAID' }], { status: 'paid' });
    expect(compiled.issues).toEqual([]);
    expect(compiled.html).toContain('>PAID</p>');
  });

  it('a condition naming a value the data does not have is an InvalidCondition on its element', () => {
    expect(issuesOf([{ type: 'text', id: 'stamp', visibleIf: "statsu == 'paid'", text: 'PAID' }], { status: 'paid' })).toEqual([
      [
        RenderIssueType.InvalidCondition,
        'stamp',
        'The condition "statsu == \'paid\'" cannot be what was meant: "statsu" has no value in the data (a condition can test for a value with exists(…) first); the element is left out.',
      ],
    ]);
  });

  it('a condition comparing values of different kinds is an InvalidCondition', () => {
    expect(issuesOf([{ type: 'text', id: 'big', visibleIf: 'total > "100"', text: 'big' }], { total: 120 })).toEqual([
      [RenderIssueType.InvalidCondition, 'big', expect.stringContaining('orders the number 120 and text "100"')],
    ]);
  });

  it('one broken computation in 60 rows is one issue with its count', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ qty: i, price: 'n/a' }));
    const table: TemplateElement = { type: 'table', id: 'lines', source: 'rows', as: 'row', columns: [{ id: 'amount', value: '{{ row.qty * row.price }}' }] };
    expect(issuesOf([table], { rows })).toEqual([
      [RenderIssueType.BindingFailedAtRender, 'lines', '"{{ row.qty * row.price }}": "row.qty * row.price": text "n/a" is not a number. (60 occurrences)'],
    ]);
  });

  it('a list source given as an expression is checked like a path: missing, or not a list', () => {
    expect(issuesOf([{ type: 'repeater', id: 'groups', source: "groupBy(lnies, 'rate')", elements: [] }], { lines: [] })).toEqual([
      [RenderIssueType.MissingBinding, 'groups', 'The list "groupBy(lnies, \'rate\')": "lnies" has no value in the data.'],
    ]);
    expect(issuesOf([{ type: 'repeater', id: 'first', source: 'first(lines)', elements: [] }], { lines: [{ a: 1 }] })).toEqual([
      [RenderIssueType.DataSourceNotEnumerable, 'first', '"first(lines)" should be a list but is an object; nothing is repeated.'],
    ]);
  });

  it('a repeater over groupBy shows one item per group', () => {
    const compiled = doc(
      [{ type: 'repeater', id: 'rates', source: "groupBy(lines, 'rate')", as: 'g', elements: [{ type: 'text', id: 'rate', text: '{{ g.key | percent }}: {{ g.count }}' }] }],
      { lines: [{ rate: 0.19 }, { rate: 0.07 }, { rate: 0.19 }] },
    );
    expect(compiled.issues).toEqual([]);
    // percentages and counts are kept on one line (issue 33 item 4)
    expect(compiled.html).toContain('><nobr>19%</nobr>: <nobr>2</nobr></p>');
    expect(compiled.html).toContain('><nobr>7%</nobr>: <nobr>1</nobr></p>');
  });
});
