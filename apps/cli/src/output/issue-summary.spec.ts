import { groupIssues, indexRanges, issueSummaryLines } from './issue-summary';

describe('issue summary (by type and document index)', () => {
  const issues = [
    { type: 'MissingBinding', severity: 'Warning', documentIndex: 3 },
    { type: 'SchemaInvalid', severity: 'Error', documentIndex: 7 },
    { type: 'MissingBinding', severity: 'Warning', documentIndex: 2 },
    { type: 'MissingBinding', severity: 'Warning', documentIndex: 3 },
    { type: 'UnformattedValue', severity: 'Information', documentIndex: null },
  ] as never[];

  it('groups by type, Error first, with each document index once, in order', () => {
    expect(groupIssues(issues)).toEqual([
      { type: 'SchemaInvalid', severity: 'Error', count: 1, documentIndexes: [7], batchWide: false },
      { type: 'MissingBinding', severity: 'Warning', count: 3, documentIndexes: [2, 3], batchWide: false },
      { type: 'UnformattedValue', severity: 'Information', count: 1, documentIndexes: [], batchWide: true },
    ]);
  });

  it('writes index ranges and one aligned line per type', () => {
    expect(indexRanges([0, 1, 2, 3, 7, 9, 10])).toBe('0-3, 7, 9-10');
    expect(indexRanges([])).toBe('');
    expect(issueSummaryLines(groupIssues(issues))).toEqual([
      '  Error        SchemaInvalid     ×1  document 7',
      '  Warning      MissingBinding    ×3  documents 2-3',
      '  Information  UnformattedValue  ×1  whole batch',
    ]);
  });
});
