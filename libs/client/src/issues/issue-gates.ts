import type { RenderIssue } from '@docrender/contracts';
import { Environment, IssueSeverity } from '@docrender/contracts/values';

type IssueLike = Pick<RenderIssue, 'severity'>;

/**
 * The issues that block a render in `environment` (spec 7.4): Error always; Warning in production. Severities this SDK
 * does not know are treated as blocking.
 */
export function blockingIssues<I extends IssueLike>(issues: readonly I[], environment: Environment | `${Environment}`): I[] {
  return issues.filter((issue) => {
    if (issue.severity === IssueSeverity.Information) return false;
    if (issue.severity === IssueSeverity.Warning) return environment === Environment.Production;
    return true;
  });
}

/**
 * The validity rule of spec 4.4: a batch is valid when no issue has severity Warning or Error (the production gate).
 * With `environment: 'test'` only Error issues count (the test gate).
 */
export function isValid(issues: readonly IssueLike[], environment: Environment | `${Environment}` = Environment.Production): boolean {
  return blockingIssues(issues, environment).length === 0;
}
