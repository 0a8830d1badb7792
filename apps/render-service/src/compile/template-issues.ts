import { renderIssue, RenderIssueType, type RenderIssue } from '@docrender/contracts';
import type { TemplateError } from '@docrender/template-dsl';

/** Template errors reported, one issue each; the rest are counted in the last. */
const ERRORS_REPORTED = 5;

/** The JSON path's steps: `$.body[0].columns[2]["x y"]` → body, 0, columns, 2, x y. */
function stepsOf(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const step = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  for (let match = step.exec(path); match !== null; match = step.exec(path)) {
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else steps.push(JSON.parse(match[3]) as string);
  }
  return steps;
}

/** The id of the innermost element (an object with a string `id`) on the path into the template, or null. */
export function elementAt(template: unknown, path: string): string | null {
  let value = template;
  let id: string | null = null;
  for (const step of stepsOf(path)) {
    if (typeof value !== 'object' || value === null) break;
    value = (value as Record<string | number, unknown>)[step];
    const candidate = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
    if (typeof candidate === 'string') id = candidate;
  }
  return id;
}

/**
 * A stored template that does not validate (InvalidTemplateError: an unknown function, a bad binding, a schema
 * violation): SchemaInvalid issues that say what the DSL found, each naming its element, so the render reports a
 * permanent template error rather than ending in a failure without a reason.
 */
export function invalidTemplateIssues(template: unknown, errors: readonly TemplateError[]): RenderIssue[] {
  const reported = errors.slice(0, ERRORS_REPORTED);
  return reported.map((error, index) => {
    const more = index === reported.length - 1 && errors.length > reported.length ? ` (and ${errors.length - reported.length} more template errors)` : '';
    return renderIssue(RenderIssueType.SchemaInvalid, `The template is invalid: ${error.path}: ${error.message}${more}.`, elementAt(template, error.path));
  });
}
