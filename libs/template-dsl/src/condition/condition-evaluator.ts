import { Scope } from '../binding/scope';
import { BudgetExceeded, EVALUATION_STEPS, Evaluation, ExpressionHost } from '../expression/expression-evaluator';
import { ExpressionSyntaxError, parseExpression } from '../expression/expression-syntax';
import { isTruthy } from '../expression/values';

/**
 * `visibleIf` conditions: an expression of the same language as bindings (expression/), true when its value is
 * truthy (a non-empty list counts as true). A condition that cannot be what its author meant — it does not parse,
 * it compares a value the data does not have, or values of different kinds (`total == "120"`) — comes back with its
 * problems, which the caller reports as InvalidCondition.
 */

export type ConditionOutcome =
  | { ok: true; visible: boolean; problems: string[] }
  | { ok: false; reason: string }
  | { ok: false; budgetExceeded: true };

/** Evaluates a condition; never throws. */
export function evaluateCondition(expression: string, scope: Scope, host: ExpressionHost): ConditionOutcome {
  const tree = parseExpression(expression);
  if (tree instanceof ExpressionSyntaxError) {
    return { ok: false, reason: `it is not a valid expression (${tree.message} at character ${tree.offset + 1})` };
  }
  const evaluation = new Evaluation(host);
  try {
    host.budget.spend(EVALUATION_STEPS);
    const value = evaluation.eval(tree, scope);
    return { ok: true, visible: isTruthy(value), problems: evaluation.problems.map((p) => p.message) };
  } catch (error) {
    if (!(error instanceof BudgetExceeded)) throw error;
    return { ok: false, budgetExceeded: true };
  }
}
