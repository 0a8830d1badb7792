import { IssueSeverity, RenderIssueType } from '@docrender/contracts';
import { IssueCollector } from './issue-collector';

describe('IssueCollector', () => {
  it('reports a repeated problem once with its number of occurrences', () => {
    const issues = new IssueCollector();
    for (let i = 0; i < 3; i++) issues.add(RenderIssueType.MissingBinding, '"{{ item.price }}" has no value in the data.', 'lines');
    expect(issues.toArray()).toEqual([
      { type: RenderIssueType.MissingBinding, severity: IssueSeverity.Warning, elementId: 'lines', documentIndex: null, description: '"{{ item.price }}" has no value in the data. (3 occurrences)' },
    ]);
  });

  it('issue 21: one cause on one element is one issue even when the descriptions number the rows (one misspelt chart field, 60 items)', () => {
    const issues = new IssueCollector();
    for (let i = 0; i < 60; i++) issues.add(RenderIssueType.InvalidChartConfig, `Item ${i} of "sales" has no numeric "revnue"; it is drawn as a gap.`, 'chart');
    issues.add(RenderIssueType.InvalidChartConfig, 'Item 3 of "sales" has no numeric "cost"; it is drawn as a gap.', 'chart');
    issues.add(RenderIssueType.InvalidChartConfig, 'Item 0 of "sales" has no numeric "revnue"; it is drawn as a gap.', 'other-chart');
    expect(issues.toArray().map((i) => [i.elementId, i.description])).toEqual([
      ['chart', 'Item 0 of "sales" has no numeric "revnue"; it is drawn as a gap. (60 occurrences)'],
      ['chart', 'Item 3 of "sales" has no numeric "cost"; it is drawn as a gap.'],
      ['other-chart', 'Item 0 of "sales" has no numeric "revnue"; it is drawn as a gap.'],
    ]);
  });

  it('a caller can name the cause when the descriptions differ by a quoted value', () => {
    const issues = new IssueCollector();
    for (const v of ['"n/a"', '"tbd"']) issues.add(RenderIssueType.UnformattedValue, `${v} is not a number`, 'lines', 'price');
    expect(issues.toArray().map((i) => i.description)).toEqual(['"n/a" is not a number (2 occurrences)']);
  });

  it('7.4: bounds the list without hiding what blocks a render', () => {
    const issues = new IssueCollector();
    for (let i = 0; i < 500; i++) issues.add(RenderIssueType.UnformattedValue, `value ${i}`, `e${i}`);
    issues.add(RenderIssueType.MissingBinding, 'a warning after the cap', 'w');
    issues.add(RenderIssueType.InvalidColor, 'a second warning after the cap', 'w2');
    issues.add(RenderIssueType.DangerousContent, 'an error after the cap', null);
    const list = issues.toArray();
    expect(list).toHaveLength(202);
    expect(list.map((i) => i.type)).toEqual(expect.arrayContaining([RenderIssueType.MissingBinding, RenderIssueType.DangerousContent]));
    expect(list.map((i) => i.type)).not.toContain(RenderIssueType.InvalidColor);
  });
});
