import { Scope } from '../binding/scope';
import { evaluateCondition } from './condition-evaluator';

const scope = Scope.of({ status: 'paid', total: 120, customer: { vatId: 'GB1', name: 'Ada' }, items: [1, 2, 3], empty: [] }).with('loop', {
  index: 0,
  last: false,
});

const visible = (expression: string): boolean | string => {
  const outcome = evaluateCondition(expression, scope);
  return outcome.ok ? outcome.visible : outcome.reason;
};

describe('visibleIf conditions (spec 1.1: a safe expression engine)', () => {
  it.each([
    ['status == "paid"', true],
    ['status != "paid" or total > 100', true],
    ['total >= 120 and total < 121', true],
    ['exists(customer.vatId)', true],
    ['exists(customer.missing)', false],
    ['not empty(items) and count(items) == 3', true],
    ['empty(empty)', true],
    ['status in ("open", "paid")', true],
    ['lower(customer.name) == "ada"', true],
    ['not loop.last', true],
    ['missing.path', false],
  ])('%s is %s', (expression, expected) => {
    expect(visible(expression)).toBe(expected);
  });

  it('prototype properties have no value', () => {
    expect(visible('exists(constructor)')).toBe(false);
    expect(visible('exists(customer.constructor)')).toBe(false);
    expect(visible('exists(items.__proto__)')).toBe(false);
  });

  it('7.3: a condition that does not parse fails (InvalidCondition), it never throws', () => {
    expect(visible('total >')).toEqual(expect.stringContaining('not a valid expression'));
    expect(visible('alert(1)')).toEqual(expect.stringContaining('Unknown function'));
  });

  it('7.3: a condition that fails while evaluating (wrong types, refused operators) is reported', () => {
    expect(visible('status > 1')).toEqual(expect.stringContaining('failed to evaluate'));
    expect(visible('status ~= "(a+)+$"')).toEqual(expect.stringContaining('not supported'));
  });
});
