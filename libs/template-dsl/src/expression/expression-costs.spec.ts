import fc from 'fast-check';
import { RenderIssueType } from '@docrender/contracts';
import { bindingEnvironment, renderPlainText } from '../binding/binding-evaluator';
import { parseTemplateText } from '../binding/binding-syntax';
import { Scope } from '../binding/scope';
import { activeTranslations } from '../i18n/translations';
import { IssueCollector } from '../issues/issue-collector';
import { EvaluationBudget } from './expression-evaluator';
import { countWork } from '../testing/work-counter';

/**
 * Issue 31 item 2: every function and operator charges the step budget by the work it does, before doing it. Proven
 * without a clock: the built-ins' work during an evaluation is counted by an instrument (testing/work-counter.ts)
 * independent of the evaluator, and must stay within a constant factor of the steps the budget charged.
 */

/**
 * Built-in work allowed per step charged, and per evaluation: a binding's own bookkeeping, which reads its source
 * text to describe an issue (so up to its length, bounded by the template, never by the data).
 */
const WORK_PER_STEP = 4;
const workPerEvaluation = (expression: string): number => 64 + expression.length;

function run(expression: string, data: unknown, rows: number, steps: number) {
  const issues = new IssueCollector();
  const env = bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: 'EUR' }, activeTranslations(null, null), issues);
  env.budget = new EvaluationBudget(steps);
  const segments = parseTemplateText(`{{ ${expression} }}`);
  const { result, work, byBuiltIn } = countWork(() => {
    const out: string[] = [];
    for (let i = 0; i < rows && !env.budget.exhausted; i++) out.push(renderPlainText(segments, Scope.of(data).with('row', i), env, 'el'));
    return out;
  });
  return { out: result, work, byBuiltIn, spent: env.budget.spent, issues: issues.toArray() };
}

// --- random expressions over the four kinds of value, on data of random size --------------------------------------

const texts = ['s', 'word', "'a'", "'needle'", 'first(tags)', 'last(tags)', "k.t"];
const lists = ['items', 'tags', 'nums', 'map(items, \'t\')', "filter(items, x => x.n > 3)", "sort(items, 'n')", "sort(tags)", "groupBy(items, 't')", 'groupBy(items, x => x.n mod 7)', "map(groupBy(items, 'k'), g => g.count)", "filter(items, 't', 'b')"];

const expression: fc.Arbitrary<string> = fc.letrec<{ text: string; list: string; number: string; bool: string; any: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...texts),
    tie('text').map((t) => `upper(${t})`),
    tie('text').map((t) => `lower(${t})`),
    tie('text').map((t) => `trim(${t})`),
    fc.tuple(tie('list'), tie('text')).map(([l, t]) => `join(${l}, ${t})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `replace(${a}, 'a', ${b})`),
    fc.tuple(tie('text'), fc.nat(100_000), fc.nat(200)).map(([t, a, b]) => `substring(${t}, ${a}, ${b})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `(${a} + ${b})`),
    tie('number').map((n) => `((${n}) | number(2))`),
    tie('text').map((t) => `t('greeting', ${t})`),
  ),
  list: fc.oneof({ depthSize: 'small' }, fc.constantFrom(...lists), fc.tuple(fc.constantFrom(...lists), tie('bool')).map(([l, b]) => `filter(${l}, x => ${b})`)),
  number: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('n', '3', 'count(s)', "sum(items, 'n')", 'sum(nums)', 'max(nums)', "average(items, 'n')", 'round(sum(nums) / 7, 2)'),
    tie('list').map((l) => `count(${l})`),
    fc.tuple(tie('number'), tie('number')).map(([a, b]) => `(${a} + ${b})`),
  ),
  bool: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(tie('list'), tie('text')).map(([l, t]) => `contains(${l}, ${t})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `contains(${a}, ${b})`),
    fc.tuple(tie('text'), tie('list')).map(([t, l]) => `(${t} in ${l})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `(${a} in ${b})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `(${a} == ${b})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `(${a} < ${b})`),
    fc.tuple(tie('text'), tie('text')).map(([a, b]) => `startsWith(${a}, ${b})`),
    fc.constantFrom('empty(obj)', 'empty(items)', 'exists(obj)', 'n > 3'),
  ),
  any: fc.oneof(tie('text'), tie('number'), tie('bool'), tie('list').map((l) => `count(${l})`)),
})).any;

/** A text of up to 200,000 characters, built by repetition so large sizes are cheap to generate. */
const longText = fc.tuple(fc.string({ maxLength: 6 }), fc.nat(40_000)).map(([unit, times]) => unit.repeat(times));

const data = fc.record({
  s: longText,
  word: fc.string({ maxLength: 20 }),
  n: fc.integer({ min: -5, max: 50 }),
  nums: fc.nat(5_000).map((k) => Array.from({ length: k }, (_, i) => (i * 37) % 101)),
  tags: fc.tuple(fc.nat(3_000), fc.nat(300), fc.string({ maxLength: 3 })).map(([k, len, unit]) => Array.from({ length: k }, (_, i) => `${unit.repeat(len)}${i % 50}`)),
  items: fc.tuple(fc.nat(3_000), fc.nat(300)).map(([k, len]) => Array.from({ length: k }, (_, i) => ({ n: i % 13, t: ['a', 'b', 'c'][i % 3], k: `${'k'.repeat(len)}${i}` }))),
  obj: fc.nat(10_000).map((k) => Object.fromEntries(Array.from({ length: k }, (_, i) => [`key${i}`, i]))),
  k: fc.record({ t: fc.string({ maxLength: 10 }) }),
});

/** Every function and operator of the language once, over the data as it comes (lists shown by their count). */
const EACH_FUNCTION_AND_OPERATOR = [
  'contains(tags, word)', 'contains(s, word)', 'startsWith(s, word)', 'endsWith(s, word)', '(word in tags)', '(word not in tags)', '(word in s)',
  '(s == word)', '(s != word)', '(s < word)', '(s >= word)', '(s + word)', '(n * 2 - n / 3 + n mod 4 + n ^ 2)', '(not empty(tags) and exists(obj) or n > 3)', '(missing ?? word)',
  'count(items)', 'count(s)', "sum(items, 'n')", 'sum(nums)', "average(items, x => x.n * 2)", 'min(nums)', "max(items, 'n')", 'min(n, 3, 4)',
  "count(filter(items, 't', 'a'))", 'count(filter(items, x => x.n > 3))', "count(filter(tags, x => x == word))", "count(map(items, 'k'))",
  "count(groupBy(items, 'k'))", "count(groupBy(items, x => x.n))", "count(sort(items, 'k'))", "count(sort(tags, x => x, 'desc'))", 'count(sort(nums))',
  'first(items).k', 'last(tags)', "join(tags, ', ')", "join(items, s, 'k')", 'exists(obj)', 'empty(obj)', 'empty(tags)', 'empty(s)',
  'abs(n) + ceil(n / 3) + floor(n / 3) + sqrt(abs(n)) + round(n / 7, 2)', 'upper(s)', 'lower(s)', 'trim(s)', "replace(s, 'a', word)", 'substring(s, 5, 50)',
  "addDays('2026-01-01', n)", "addMonths('2026-01-31', n)", "daysBetween('2026-01-01', '2026-03-01') + year('2026-11-02') + month('2026-11-02') + day('2026-11-02')",
  "t('greeting', s)", 't(word)', 't(s, obj)', 'parseNumber(word)', "parseNumber(s, 'de-DE')", 'obj[word]', 'obj[s]', 'items[n].k', 'count([s, word, n])', '(n > 3 ? s : word)',
  's | upper', 's | lower', 'n | currency', 'n | number(2)', 's | date', 's | default(word)', 'n | percent',
];

describe('issue 31 item 2: the step budget bounds the work of any expression (property-based, pinned seed)', () => {
  it('each function and operator alone, over randomly sized data, works at most 4 units per step charged', () => {
    fc.assert(
      fc.property(fc.constantFrom(...EACH_FUNCTION_AND_OPERATOR), data, fc.integer({ min: 1, max: 20 }), (text, input, rows) => {
        const r = run(text, input, rows, 300_000);
        expect({ text, work: r.work, byBuiltIn: r.byBuiltIn }).toEqual({ text, work: Math.min(r.work, WORK_PER_STEP * r.spent + workPerEvaluation(text) * rows), byBuiltIn: r.byBuiltIn });
      }),
      { seed: 31, numRuns: 100 },
    );
  });

  it('random expressions over randomly sized data finish or stop on the budget, and the built-ins work at most 4 units per step charged', () => {
    fc.assert(
      fc.property(expression, data, fc.integer({ min: 1, max: 40 }), (text, input, rows) => {
        const budget = 300_000;
        const r = run(text, input, rows, budget);
        const stopped = r.issues.some((i) => i.type === RenderIssueType.BindingFailedAtRender && i.description.startsWith('Expressions stopped'));
        // it stops exactly when the budget is spent, and otherwise evaluated every row
        expect(stopped).toBe(r.spent > budget);
        if (!stopped) expect(r.out).toHaveLength(rows);
        expect({ work: r.work, byBuiltIn: r.byBuiltIn }).toEqual({ work: Math.min(r.work, WORK_PER_STEP * r.spent + workPerEvaluation(text) * rows), byBuiltIn: r.byBuiltIn });
      }),
      { seed: 31, numRuns: 40 },
    );
  });
});
