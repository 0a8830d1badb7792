import { RenderIssueType } from '@docrender/contracts';
import { elementAt, invalidTemplateIssues } from './template-issues';

const template = {
  body: [
    { type: 'text', id: 'title', text: 'x' },
    { type: 'table', id: 'lines', columns: [{ id: 'amount', value: '{{ nosuchfn(x) }}' }] },
    { type: 'row', elements: [{ type: 'text', id: 'inner "quoted"', text: 'y' }] },
  ],
  page: { header: { elements: [{ type: 'text', id: 'head', text: 'z' }] } },
};

describe('issue 31 item 4: a template error names its element', () => {
  it('the innermost element with an id on the error\'s JSON path', () => {
    expect(elementAt(template, '$.body[0].text')).toBe('title');
    expect(elementAt(template, '$.body[1].columns[0].value')).toBe('amount');
    expect(elementAt(template, '$.page.header.elements[0].text')).toBe('head');
    expect(elementAt(template, '$.body[2]["elements"][0].text')).toBe('inner "quoted"');
  });

  it('null when the path names no element (the template itself, a missing step)', () => {
    expect(elementAt(template, '$.body')).toBeNull();
    expect(elementAt(template, '$')).toBeNull();
    expect(elementAt(template, '$.body[9].text')).toBeNull();
    expect(elementAt('not an object', '$.body[0]')).toBeNull();
  });

  it('one SchemaInvalid issue per error, at most five, the last counting the rest', () => {
    const errors = Array.from({ length: 7 }, (_, i) => ({ path: '$.body[1].columns[0].value', message: `problem ${i}` }));
    const issues = invalidTemplateIssues(template, errors);
    expect(issues).toHaveLength(5);
    expect(issues.every((i) => i.type === RenderIssueType.SchemaInvalid && i.severity === 'Error' && i.elementId === 'amount')).toBe(true);
    expect(issues[0].description).toBe('The template is invalid: $.body[1].columns[0].value: problem 0.');
    expect(issues[4].description).toContain('(and 2 more template errors)');
  });
});
