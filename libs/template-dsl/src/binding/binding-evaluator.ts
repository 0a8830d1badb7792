import jsep from 'jsep';
import { RenderIssueType } from '@docrender/contracts';
import { BudgetExceeded, EVALUATION_STEPS, EvaluationBudget, Evaluation, ExpressionHost, Problem } from '../expression/expression-evaluator';
import { Node } from '../expression/expression-syntax';
import { IssueCollector } from '../issues/issue-collector';
import { ActiveTranslations } from '../i18n/translations';
import { Binding, TemplateSegments } from './binding-syntax';
import { FormatSettings } from './formatters';
import { Scope } from './scope';

/** What bindings are evaluated with, for one document. */
export interface BindingEnvironment extends ExpressionHost {
  settings: FormatSettings;
  translations: ActiveTranslations;
  issues: IssueCollector;
  budget: EvaluationBudget;
}

/** A fresh environment for one document. */
export function bindingEnvironment(settings: FormatSettings, translations: ActiveTranslations, issues = new IssueCollector()): BindingEnvironment {
  return { settings, translations, issues, budget: new EvaluationBudget() };
}

const ISSUE_OF_PROBLEM: Record<Problem['kind'], RenderIssueType> = {
  missing: RenderIssueType.MissingBinding,
  type: RenderIssueType.BindingFailedAtRender,
  format: RenderIssueType.UnformattedValue,
  translation: RenderIssueType.MissingBinding,
};

/** Reports the stop of a document's expressions once; later evaluations stay silent and empty. */
export function reportBudget(env: BindingEnvironment, elementId: string | null, type: RenderIssueType): void {
  if (env.budget.reported) return;
  env.budget.reported = true;
  env.issues.add(type, `Expressions stopped: ${new BudgetExceeded().message}; the bindings and conditions still being drawn are left empty and nothing more of the document is drawn.`, elementId);
}

/**
 * Evaluates an expression for its value, with its problems: a value missing from the data is a MissingBinding, a
 * value of the wrong kind a BindingFailedAtRender, a formatter that cannot handle its value an UnformattedValue
 * (and the value passes through unchanged). Each issue names the binding (`"{{ … }}"`) and the part at fault.
 */
export function evaluateBinding(binding: Binding, scope: Scope, env: BindingEnvironment, elementId: string | null): unknown {
  if (env.budget.exhausted) return undefined;
  const evaluation = new Evaluation(env);
  let value: unknown;
  try {
    env.budget.spend(EVALUATION_STEPS);
    value = evaluation.eval(binding.expression, scope);
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    reportBudget(env, elementId, RenderIssueType.BindingFailedAtRender);
    return undefined;
  }
  const label = `"{{ ${binding.source} }}"`;
  for (const problem of evaluation.problems) {
    const description =
      problem.kind === 'translation'
        ? `${problem.message}.`
        : problem.kind === 'missing' && problem.message === `"${wholePath(binding.expression)}" has no value in the data`
          ? `${label} has no value in the data.`
          : `${label}: ${problem.message}.`;
    // one cause per binding and kind: per-row values (the text that is not a number…) do not split the group
    env.issues.add(ISSUE_OF_PROBLEM[problem.kind], description, elementId, `${problem.kind}\u0000${binding.source}`, 1 + (problem.more ?? 0));
  }
  if (value === undefined && !evaluation.problems.some((p) => p.kind === 'missing' || p.kind === 'type')) {
    env.issues.add(RenderIssueType.MissingBinding, `${label} has no value in the data.`, elementId);
  }
  return value;
}

/** The path a binding reads when it is a plain path (with formatters), else null. */
function wholePath(node: Node): string | null {
  let n = node;
  while (n.type === 'BinaryExpression' && (n as jsep.BinaryExpression).operator === '|') n = (n as jsep.BinaryExpression).left;
  if (n.type !== 'Identifier' && n.type !== 'MemberExpression') return null;
  const text: string[] = [];
  for (let m: Node = n; ; ) {
    if (m.type === 'Identifier') {
      text.unshift((m as jsep.Identifier).name);
      break;
    }
    if (m.type !== 'MemberExpression') return null;
    const member = m as jsep.MemberExpression;
    if (member.computed) {
      if (member.property.type !== 'Literal') return null;
      text.unshift(`[${(member.property as jsep.Literal).raw}]`);
    } else {
      text.unshift(`.${(member.property as jsep.Identifier).name}`);
    }
    m = member.object;
  }
  return text.join('');
}

/** Turns a bound value into text; lists and objects cannot be shown and are reported. */
export function bindingText(value: unknown, binding: Binding, env: BindingEnvironment, elementId: string | null): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  env.issues.add(
    RenderIssueType.BindingFailedAtRender,
    `"{{ ${binding.source} }}" is ${Array.isArray(value) ? 'a list' : 'an object'}, which cannot be shown as text; pick one of its fields.`,
    elementId,
  );
  return '';
}

/** Evaluates template text to plain text (for URLs, colours, codes, names). */
export function renderPlainText(segments: TemplateSegments, scope: Scope, env: BindingEnvironment, elementId: string | null): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'string') out += segment;
    else out += bindingText(evaluateBinding(segment, scope, env, elementId), segment, env, elementId);
  }
  return out;
}

/**
 * The anchor expression of a page reference: the binding is a call of `pageOf` with one argument and nothing else
 * (`{{ pageOf('intro') }}`, `{{ pageOf('product-' + p.sku) }}`). Null for any other binding.
 */
export function pageReferenceOf(binding: Binding): Binding | null {
  const e = binding.expression;
  if (e.type !== 'CallExpression') return null;
  const call = e as jsep.CallExpression;
  if (call.callee.type !== 'Identifier' || (call.callee as jsep.Identifier).name !== 'pageOf' || call.arguments.length !== 1) return null;
  return { expression: call.arguments[0], source: binding.source };
}

/** True when the binding is a bare page counter name (`pageNumber`, `totalPages`). */
export function pageCounterOf(binding: Binding): 'pageNumber' | 'totalPages' | null {
  const e = binding.expression;
  if (e.type !== 'Identifier') return null;
  const name = (e as jsep.Identifier).name;
  return name === 'pageNumber' || name === 'totalPages' ? name : null;
}

/**
 * True when the binding uses `pageNumber` or `totalPages` other than on its own or as a direct argument of `t()`: in
 * a band those become the spans Chromium fills, so they are text, not numbers, inside an expression.
 */
export function usesPageCounterInExpression(binding: Binding): boolean {
  const visit = (node: unknown, standalone: boolean): boolean => {
    if (typeof node !== 'object' || node === null) return false;
    if (Array.isArray(node)) return node.some((n) => visit(n, false));
    const n = node as jsep.Expression;
    if (typeof n.type !== 'string') return false;
    if (n.type === 'Identifier') return !standalone && ((n as jsep.Identifier).name === 'pageNumber' || (n as jsep.Identifier).name === 'totalPages');
    if (n.type === 'MemberExpression') {
      const member = n as jsep.MemberExpression;
      return visit(member.object, false) || (member.computed && visit(member.property, false));
    }
    if (n.type === 'CallExpression') {
      const call = n as jsep.CallExpression;
      const translation = call.callee.type === 'Identifier' && (call.callee as jsep.Identifier).name === 't';
      return visit(call.callee, true) || call.arguments.some((a) => visit(a, translation));
    }
    return Object.entries(n).some(([key, child]) => key !== 'type' && visit(child, false));
  };
  return visit(binding.expression, true);
}

/** True when the binding's value is declared Markdown (`{{ notes | markdown }}`). */
export function isMarkdownBinding(binding: Binding): boolean {
  const e = binding.expression;
  if (e.type !== 'BinaryExpression' || (e as jsep.BinaryExpression).operator !== '|') return false;
  const right = (e as jsep.BinaryExpression).right;
  return right.type === 'Identifier' && (right as jsep.Identifier).name === 'markdown';
}
