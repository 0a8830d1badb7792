import { compileExpression } from 'filtrex';
import { Scope } from '../binding/scope';

/**
 * `visibleIf` conditions, evaluated by filtrex: a closed expression language (comparisons, and/or/not,
 * arithmetic, `in`, a few functions) that cannot call arbitrary code, reach prototypes or loop (regular
 * expressions are refused, see `operators`). Names are
 * resolved through our Scope (own properties only; a dotted name is a path, e.g. `customer.vatId`); a name
 * with no value is `undefined`, so `exists(customer.vatId)` and `not empty(items)` test for presence.
 */

export type ConditionOutcome = { ok: true; visible: boolean } | { ok: false; reason: string };
type CompiledCondition = ((scope: Scope) => unknown) | { error: string };

function resolveName(name: string, _get: (name: string) => unknown, scope: unknown): unknown {
  if (!(scope instanceof Scope)) return undefined;
  const lookup = scope.resolve(name.split('.'));
  return lookup.found ? lookup.value : undefined;
}

const extraFunctions = {
  count: (value: unknown): number => (Array.isArray(value) ? value.length : typeof value === 'string' ? value.length : 0),
  lower: (value: unknown): string => String(value ?? '').toLowerCase(),
  upper: (value: unknown): string => String(value ?? '').toUpperCase(),
};

/**
 * `~=` would build a regular expression at run time, possibly from data: a catastrophic pattern could stall the
 * process. It is refused (the condition fails as InvalidCondition).
 */
const operators = {
  '~=': (): never => {
    throw new Error('regular expression matching (~=) is not supported in conditions');
  },
  '==': (a: unknown, b: unknown): boolean => a === b,
  '!=': (a: unknown, b: unknown): boolean => a !== b,
};

const compiled = new Map<string, CompiledCondition>();
const CACHE_LIMIT = 2000;

function compile(expression: string): CompiledCondition {
  const hit = compiled.get(expression);
  if (hit) return hit;
  let result: CompiledCondition;
  try {
    const fn = compileExpression(expression, { customProp: resolveName, extraFunctions, operators });
    result = (scope: Scope) => fn(scope);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    result = { error: `it is not a valid expression (${message})` };
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(expression, result);
  return result;
}

/** Evaluates a condition; an expression that fails (syntax, wrong types) is reported by the caller. */
export function evaluateCondition(expression: string, scope: Scope): ConditionOutcome {
  const c = compile(expression);
  if (typeof c !== 'function') return { ok: false, reason: c.error };
  const result = c(scope);
  if (result instanceof Error) return { ok: false, reason: `it failed to evaluate (${result.message})` };
  return { ok: true, visible: Boolean(result) };
}
