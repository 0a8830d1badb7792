import { IssueSeverity, RenderIssue, RenderIssueType, renderIssue } from '@docrender/contracts';

/** Distinct issues kept per document; past it, only issues of a severity not yet present (and Errors) are kept. */
const MAX_DISTINCT_ISSUES = 200;

/**
 * What makes two issues of one type on one element the same problem: the description with the numbers outside
 * quotes taken out ("Item 3 of "sales" has no numeric "revnue"" and "Item 4 of …" are one cause; a different
 * quoted field or value is another).
 */
export function causeOf(description: string): string {
  return description
    .split(/("(?:[^"\\]|\\.)*")/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\d+(?:[.,]\d+)*/g, '#')))
    .join('');
}

/**
 * Collects the issues of one document. The same problem met in many rows (same type, element and
 * cause) is reported once, with the first occurrence's description and the number of occurrences, so a
 * 1,000-row table with one missing field gives one issue, not a thousand. The cause is the description without
 * its numbers (`causeOf`) unless the caller names it. The list is bounded without ever hiding what blocks a render:
 * Errors are always kept, and so is the first issue of each severity.
 */
export class IssueCollector {
  private readonly byKey = new Map<string, { issue: RenderIssue; count: number }>();
  private readonly severities = new Set<IssueSeverity>();

  /** `cause` groups issues whose descriptions differ in detail (a per-row value); by default `causeOf(description)`. */
  add(type: RenderIssueType, description: string, elementId: string | null = null, cause: string = causeOf(description), occurrences = 1): void {
    const key = `${type}\u0000${elementId ?? ''}\u0000${cause}`;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.count += occurrences;
      return;
    }
    const issue = renderIssue(type, description, elementId);
    if (this.byKey.size >= MAX_DISTINCT_ISSUES && issue.severity !== IssueSeverity.Error && this.severities.has(issue.severity)) return;
    this.severities.add(issue.severity);
    this.byKey.set(key, { issue, count: occurrences });
  }

  addAll(issues: readonly RenderIssue[]): void {
    for (const i of issues) this.add(i.type, i.description, i.elementId);
  }

  toArray(): RenderIssue[] {
    const out: RenderIssue[] = [];
    for (const { issue, count } of this.byKey.values()) {
      out.push(count > 1 ? { ...issue, description: `${issue.description} (${count} occurrences)` } : issue);
    }
    return out;
  }
}
