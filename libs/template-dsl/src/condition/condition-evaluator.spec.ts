import { bindingEnvironment } from '../binding/binding-evaluator';
import { Scope } from '../binding/scope';
import { activeTranslations } from '../i18n/translations';
import { evaluateCondition } from './condition-evaluator';

const scope = Scope.of({ status: 'paid', total: 120, textTotal: '120', customer: { vatId: 'GB1', name: 'Ada' }, items: [1, 2, 3], empty: [], note: null }).with('loop', {
  index: 0,
  last: false,
});

const outcome = (expression: string) => evaluateCondition(expression, scope, bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: null }, activeTranslations(null, null)));

/** The visibility, or the reason a condition could not be evaluated. */
const visible = (expression: string): boolean | string => {
  const o = outcome(expression);
  if (!o.ok) return 'reason' in o ? o.reason : 'budget';
  return o.visible;
};

/** The problems of a condition that evaluates. */
const problems = (expression: string): string[] => {
  const o = outcome(expression);
  return o.ok ? o.problems : [];
};

describe('visibleIf conditions (spec 1.1: a safe expression engine; issue 21: one language with bindings)', () => {
  it.each([
    ['status == "paid"', true],
    ["status == 'paid'", true],
    ["status != 'paid' or total > 100", true],
    ['total >= 120 and total < 121', true],
    ['total > 100 && !(total > 200)', true],
    ['exists(customer.vatId)', true],
    ['exists(customer.missing)', false],
    ['not empty(items) and count(items) == 3', true],
    ['empty(empty)', true],
    ['status in ("open", "paid")', true],
    ["status in ['open', 'paid']", true],
    ["status not in ['open']", true],
    ['lower(customer.name) == "ada"', true],
    ['not loop.last', true],
    ['missing.path', false],
    ['total mod 7 == 1 and 2 ^ 3 == 8', true],
    ['sum(items) / count(items) == 2', true],
    ["total > 100 ? status == 'paid' : false", true],
    ['note == null and customer.missing == null', true],
  ])('%s is %s', (expression, expected) => {
    expect(visible(expression)).toBe(expected);
    expect(problems(expression)).toEqual([]);
  });

  it('prototype properties have no value', () => {
    expect(visible('exists(constructor)')).toBe(false);
    expect(visible('exists(customer.constructor)')).toBe(false);
    expect(visible('exists(items.__proto__)')).toBe(false);
    expect(visible("exists(customer['__proto__'])")).toBe(false);
  });

  it('7.3: a condition that does not parse fails (InvalidCondition) naming the position, it never throws', () => {
    expect(visible('total >')).toEqual(expect.stringMatching(/not a valid expression \(Expected expression after > at character 8\)/));
    expect(visible('alert(1)')).toEqual(expect.stringContaining('unknown function "alert"'));
    expect(visible('status ~= "(a+)+$"')).toEqual(expect.stringContaining('not a valid expression'));
  });

  it('issue 21: a condition that cannot be what the author meant is reported, not silently false', () => {
    expect(problems("statsu == 'paid'")).toEqual(['"statsu" has no value in the data']);
    expect(problems('total == "120"')).toEqual(['"total == "120"" compares the number 120 with text "120": values of different kinds are never equal']);
    expect(problems('textTotal > 100')).toEqual([expect.stringContaining('only two numbers or two texts')]);
    expect(problems('status > 1')).toEqual([expect.stringContaining('only two numbers or two texts')]);
    expect(problems('customer == "Ada"')).toEqual([expect.stringContaining('an object, which is never equal to anything')]);
    expect(problems('total / 0 > 1')).toEqual(['"total / 0" divides by zero']);
    expect(problems('status in customer')).toEqual([expect.stringContaining('"in" needs a list')]);
    expect(visible("statsu == 'paid'")).toBe(false);
  });

  it('testing presence first keeps a condition on optional data quiet', () => {
    expect(problems("exists(customer.type) and customer.type == 'business'")).toEqual([]);
    expect(problems('customer.type == null or customer.type == "business"')).toEqual([]);
  });
});
