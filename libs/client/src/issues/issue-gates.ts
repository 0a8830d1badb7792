import type { RenderIssue } from '@docrender/contracts';
import { blocksRender, Environment, IssueSeverity } from '@docrender/contracts/values';

type IssueLike = Pick<RenderIssue, 'severity'>;

const KNOWN_SEVERITIES = new Set<string>(Object.values(IssueSeverity));

/**
 * The issues that block a render in `environment` (spec 7.4, the contracts' blocksRender: Error always; Warning in
 * production). Severities this SDK does not know (a newer service's) are treated as blocking.
 */
export function blockingIssues<I extends IssueLike>(issues: readonly I[], environment: Environment | `${Environment}`): I[] {
  return issues.filter((issue) => !KNOWN_SEVERITIES.has(issue.severity) || blocksRender(issue.severity, environment as Environment));
}

/**
 * The validity rule of spec 4.4: a batch is valid when no issue has severity Warning or Error (the production gate).
 * With `environment: 'test'` only Error issues count (the test gate).
 */
export function isValid(issues: readonly IssueLike[], environment: Environment | `${Environment}` = Environment.Production): boolean {
  return blockingIssues(issues, environment).length === 0;
}
