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
