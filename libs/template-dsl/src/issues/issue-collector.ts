import { RenderIssue, RenderIssueType, renderIssue } from '@docrender/contracts';

/** At most this many distinct issues per document; the rest are summarised in one last issue. */
const MAX_DISTINCT_ISSUES = 200;

/**
 * Collects the issues of one document. The same problem met in many rows (same type, element and
 * description) is reported once with its number of occurrences, so a 1,000-row table with one missing
 * field gives one issue, not a thousand.
 */
export class IssueCollector {
  private readonly byKey = new Map<string, { issue: RenderIssue; count: number }>();
  private dropped = 0;

  add(type: RenderIssueType, description: string, elementId: string | null = null): void {
    const key = `${type}\u0000${elementId ?? ''}\u0000${description}`;
    const existing = this.byKey.get(key);
    if (existing) {
      existing.count++;
      return;
    }
    if (this.byKey.size >= MAX_DISTINCT_ISSUES) {
      this.dropped++;
      return;
    }
    this.byKey.set(key, { issue: renderIssue(type, description, elementId), count: 1 });
  }

  addAll(issues: readonly RenderIssue[]): void {
    for (const i of issues) this.add(i.type, i.description, i.elementId);
  }

  get size(): number {
    return this.byKey.size;
  }

  has(type: RenderIssueType): boolean {
    for (const { issue } of this.byKey.values()) if (issue.type === type) return true;
    return false;
  }

  toArray(): RenderIssue[] {
    const out: RenderIssue[] = [];
    for (const { issue, count } of this.byKey.values()) {
      out.push(count > 1 ? { ...issue, description: `${issue.description} (${count} occurrences)` } : issue);
    }
    if (this.dropped > 0) {
      out.push(
        renderIssue(
          RenderIssueType.InvalidLayout,
          `${this.dropped} further issue(s) were not listed; only the first ${MAX_DISTINCT_ISSUES} distinct issues are reported.`,
        ),
      );
    }
    return out;
  }
}
