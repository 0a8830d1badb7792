import type { RenderIssue } from '@docrender/client';

/** The issues of one type: how many, and which documents they concern. */
export type IssueGroup = {
  type: string;
  severity: string;
  count: number;
  /** Zero-based indexes in the input, ascending, each once. */
  documentIndexes: number[];
  /** Whether some issue of this type concerned the whole batch (documentIndex null). */
  batchWide: boolean;
};

const SEVERITY_ORDER = ['Error', 'Warning', 'Information'];

/** Groups issues by type: Error types first, then Warning, then Information (unknown severities last), then by name. */
export function groupIssues(issues: readonly Pick<RenderIssue, 'type' | 'severity' | 'documentIndex'>[]): IssueGroup[] {
  const groups = new Map<string, IssueGroup & { indexes: Set<number> }>();
  for (const issue of issues) {
    const key = `${issue.severity}\u0000${issue.type}`;
    let group = groups.get(key);
    if (!group) {
      group = { type: issue.type, severity: issue.severity, count: 0, documentIndexes: [], batchWide: false, indexes: new Set() };
      groups.set(key, group);
    }
    group.count++;
    if (issue.documentIndex === null) group.batchWide = true;
    else group.indexes.add(issue.documentIndex);
  }
  const rank = (severity: string): number => {
    const i = SEVERITY_ORDER.indexOf(severity);
    return i === -1 ? SEVERITY_ORDER.length : i;
  };
  return [...groups.values()]
    .map(({ indexes, ...group }) => ({ ...group, documentIndexes: [...indexes].sort((a, b) => a - b) }))
    .sort((a, b) => rank(a.severity) - rank(b.severity) || a.type.localeCompare(b.type));
}

/** `0-3, 7, 9-10`: indexes as ranges. */
export function indexRanges(indexes: readonly number[]): string {
  const parts: string[] = [];
  let start: number | null = null;
  let previous: number | null = null;
  const flush = (): void => {
    if (start === null || previous === null) return;
    parts.push(start === previous ? String(start) : `${start}-${previous}`);
  };
  for (const index of indexes) {
    if (previous !== null && index === previous + 1) {
      previous = index;
      continue;
    }
    flush();
    start = index;
    previous = index;
  }
  flush();
  return parts.join(', ');
}

/** The text lines of an issue summary, e.g. `  Error    SchemaInvalid  ×3  documents 0, 4-5`. */
export function issueSummaryLines(groups: readonly IssueGroup[]): string[] {
  const typeWidth = Math.max(0, ...groups.map((g) => g.type.length));
  const severityWidth = Math.max(0, ...groups.map((g) => g.severity.length));
  return groups.map((group) => {
    const where = [
      group.documentIndexes.length > 0 ? `${group.documentIndexes.length === 1 ? 'document' : 'documents'} ${indexRanges(group.documentIndexes)}` : '',
      group.batchWide ? 'whole batch' : '',
    ]
      .filter(Boolean)
      .join('; ');
    return `  ${group.severity.padEnd(severityWidth)}  ${group.type.padEnd(typeWidth)}  ×${group.count}  ${where}`.trimEnd();
  });
}
