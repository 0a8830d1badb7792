import { RenderIssueType } from '@docrender/contracts';
import { bindingEnvironment, renderPlainText } from '../binding/binding-evaluator';
import { parseTemplateText } from '../binding/binding-syntax';
import { Scope } from '../binding/scope';
import { activeTranslations } from '../i18n/translations';
import { IssueCollector } from '../issues/issue-collector';
import { EvaluationBudget } from './expression-evaluator';

const lines = [
  { description: 'Consulting', quantity: 3, unitPrice: 80, vatRate: 0.07 },
  { description: 'Licence', quantity: 5, unitPrice: 19.99, vatRate: 0.19 },
  { description: 'Support', quantity: 2, unitPrice: '12.50', vatRate: 0.19 },
  { description: 'Travel', quantity: 1, unitPrice: 100, vatRate: 0 },
];
const data = { lines, issueDate: '2026-11-02', at: '2026-01-31T10:00:00Z', name: ' Ada ', tags: ['a', 'b'], n: 7, zero: 0, word: 'abc' };

function evaluate(text: string, input: unknown = data, budget?: EvaluationBudget) {
  const issues = new IssueCollector();
  const env = bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: 'EUR' }, activeTranslations(null, null), issues);
  if (budget) env.budget = budget;
  const out = renderPlainText(parseTemplateText(text), Scope.of(input), env, 'el');
  return { out, issues: issues.toArray() };
}

const value = (expression: string): string => {
  const r = evaluate(`{{ ${expression} }}`);
  expect(r.issues).toEqual([]);
  return r.out;
};

describe('issue 21: expressions compute values (checked against hand-computed results)', () => {
  it.each([
    // arithmetic, precedence, float noise removed
    ['1 + 2 * 3', '7'],
    ['(1 + 2) * 3', '9'],
    ['2 ^ 3 ^ 2', '512'],
    ['10 mod 4 + 10 % 3', '3'],
    ['-n + 10', '3'],
    ['0.1 + 0.2', '0.3'],
    ['lines[1].quantity * lines[1].unitPrice', '99.95'],
    ["lines[2].quantity * lines[2].unitPrice | currency", '€25.00'],
    // comparison and logic yield booleans
    ["n > 5 and word == 'abc'", 'true'],
    ['n > 5 ? "big" : "small"', 'big'],
    ["missing ?? 'fallback'", 'fallback'],
    // text
    ["'Dear ' + trim(name) + ','", 'Dear Ada,'],
    ["upper(word) + lower('XY')", 'ABCxy'],
    ["replace('a-b-c', '-', '+')", 'a+b+c'],
    ["substring('invoice', 2, 3)", 'voi'],
    ["contains(word, 'bc') and startsWith(word, 'a') and endsWith(word, 'c')", 'true'],
    ["contains(tags, 'b')", 'true'],
    ["join(tags, ' / ')", 'a / b'],
    ['count(word)', '3'],
    // numbers
    ['round(2.345, 2)', '2.35'],
    ['round(1.005, 2)', '1.01'],
    ['round(-2.5)', '-3'],
    ['abs(-4) + ceil(1.2) + floor(1.8) + sqrt(9)', '10'],
    ['min(3, 1, 2) + max(3, 1, 2)', '4'],
    // dates
    ['addDays(issueDate, 30)', '2026-12-02'],
    ['addMonths(at, 1)', '2026-02-28T10:00:00.000Z'],
    ["daysBetween(issueDate, '2026-12-02')", '30'],
    ['year(issueDate) * 100 + month(issueDate)', '202611'],
    ['day(addDays(issueDate, -2))', '31'],
    ["addDays(issueDate, 14) | date('long')", 'November 16, 2026'],
  ])('%s = %s', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });
});

describe('issue 21: aggregates over lists (line items: 3×80 @7%, 5×19.99 @19%, 2×12.50 @19%, 1×100 @0%)', () => {
  it.each([
    ['count(lines)', '4'],
    ["sum(lines, 'quantity')", '11'],
    ['sum(lines, l => l.quantity * l.unitPrice)', '464.95'],
    ['sum(map(lines, l => l.quantity * l.unitPrice))', '464.95'],
    ['round(sum(lines, l => l.quantity * l.unitPrice * l.vatRate), 2)', '40.54'],
    ["min(lines, l => parseNumber(l.unitPrice, 'en-US'))", '12.5'],
    ["max(lines, l => l.quantity * l.unitPrice)", '240'],
    ["average(lines, 'quantity')", '2.75'],
    ['count(filter(lines, l => l.vatRate == 0.19))', '2'],
    ["count(filter(lines, 'vatRate', 0.19))", '2'],
    ["join(map(sort(lines, 'unitPrice', 'desc'), 'description'), ', ')", 'Travel, Consulting, Licence, Support'],
    ["first(lines).description + '/' + last(lines).description", 'Consulting/Travel'],
    ["count(groupBy(lines, 'vatRate'))", '3'],
    ["join(map(groupBy(lines, 'vatRate'), g => g.key * 100 + '%: ' + g.count), '; ')", '7%: 1; 19%: 2; 0%: 1'],
    [
      "join(map(groupBy(lines, 'vatRate'), g => round(sum(g.items, l => l.quantity * l.unitPrice) * g.key, 2)), ' + ')",
      // 240 × 0.07 = 16.80; (99.95 + 25) × 0.19 = 23.7405 → 23.74; 100 × 0 = 0
      '16.8 + 23.74 + 0',
    ],
    ['sum([]) + count([])', '0'],
    ['average([]) ?? "none"', 'none'],
  ])('%s = %s', (expression, expected) => {
    expect(value(expression)).toBe(expected);
  });
});

describe('issue 21: no silent failure in bindings — every problem names the element and the part at fault', () => {
  const problem = (text: string, input: unknown = data) => {
    const r = evaluate(text, input);
    return r.issues.map((i) => [i.type, i.elementId, i.description]);
  };

  it('a value missing inside a computation names that value', () => {
    expect(problem('{{ lines[0].quantity * lines[0].price }}')).toEqual([
      [RenderIssueType.MissingBinding, 'el', '"{{ lines[0].quantity * lines[0].price }}": "lines[0].price" has no value in the data.'],
    ]);
  });

  it('arithmetic on text, division by zero and joining a list are BindingFailedAtRender', () => {
    expect(problem('{{ word * 2 }}')).toEqual([[RenderIssueType.BindingFailedAtRender, 'el', '"{{ word * 2 }}": "word * 2": text "abc" is not a number.']]);
    expect(problem('{{ n / zero }}')).toEqual([[RenderIssueType.BindingFailedAtRender, 'el', '"{{ n / zero }}": "n / zero" divides by zero.']]);
    expect(problem("{{ tags + 'x' }}")[0][0]).toBe(RenderIssueType.BindingFailedAtRender);
    expect(problem('{{ sum(word) }}')).toEqual([[RenderIssueType.BindingFailedAtRender, 'el', '"{{ sum(word) }}": sum() needs a list but "word" is text "abc".']]);
  });

  it('issue 31: an aggregate over values that are not numbers is a Warning naming the first bad row, and gives no value', () => {
    expect(problem("{{ sum(lines, 'vat') }}")).toEqual([
      [
        RenderIssueType.BindingFailedAtRender,
        'el',
        '"{{ sum(lines, \'vat\') }}": sum() takes numbers only, and "lines[0].vat" has no value (3 more item(s) give no number either), so it has no value; count a missing value as zero with ??, e.g. sum(lines, x => x.vat ?? 0).',
      ],
    ]);
    // numeric text too: "1.234" is a thousand in de-DE and one in en-US, so no aggregate guesses
    expect(evaluate("{{ min(lines, 'unitPrice') }}")).toEqual({
      out: '',
      issues: [
        expect.objectContaining({
          type: RenderIssueType.BindingFailedAtRender,
          severity: 'Warning',
          description: expect.stringContaining('"lines[2].unitPrice" is text "12.50", so it has no value; read text amounts with parseNumber, e.g. min(lines, x => parseNumber(x.unitPrice, \'en-US\'))'),
        }),
      ],
    });
    expect(problem('{{ average(map(lines, l => l.description)) }}')[0][2]).toContain('"map(lines, l => l.description)[0]" is text "Consulting"');
    expect(problem('{{ sum(tags, x => [x]) }}')[0][2]).toBe('"{{ sum(tags, x => [x]) }}": sum() takes numbers only, and "x => [x]" for "tags[0]" is a list of 1 (1 more item(s) give no number either), so it has no value.');
    expect(problem('{{ max(lines, l => l.quantity * l.vat) }}').map(([type]) => type)).toEqual([RenderIssueType.MissingBinding, RenderIssueType.BindingFailedAtRender]);
  });

  it('the same problem in many rows is one issue with the first value and its count', () => {
    const issues = new IssueCollector();
    const env = bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: 'EUR' }, activeTranslations(null, null), issues);
    const segments = parseTemplateText('{{ item.price | currency }}');
    for (const price of ['n/a', 'tbd', 'free']) renderPlainText(segments, Scope.of({}).with('item', { price }), env, 'lines');
    expect(issues.toArray()).toEqual([
      expect.objectContaining({
        type: RenderIssueType.UnformattedValue,
        description: '"{{ item.price | currency }}": "n/a" is not a number, so currency was not applied and the value is shown as is. (3 occurrences)',
      }),
    ]);
  });

  it('a document whose expressions exceed the step budget stops them with one issue', () => {
    // sum: 4 for the evaluation, 3 nodes, 4 items and 4 keys read = 15 steps; count then needs 6 more
    const r = evaluate("{{ sum(lines, 'quantity') }} {{ count(lines) }} {{ n }}", data, new EvaluationBudget(18));
    expect(r.issues).toEqual([expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, description: expect.stringContaining('Expressions stopped') })]);
    expect(r.out).toBe('11  ');
  });

  it('reading and producing long text costs steps in proportion to its length (1 per 16 characters)', () => {
    const input = { s: 'x'.repeat(8000) };
    // upper(s) reads 8,000 characters (500 steps) and produces as many (500 steps): the second binding exceeds 1,500
    const r = evaluate('{{ count(upper(s)) }}|{{ count(upper(s)) }}|{{ count(s) }}', input, new EvaluationBudget(1500));
    expect(r.out).toBe('8000||');
    expect(r.issues).toEqual([expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, description: expect.stringContaining('Expressions stopped') })]);
  });

  it('issue 31: a problem in every item of a long list is charged a step each, kept for the first 100 and counted after', () => {
    const items = Array.from({ length: 5000 }, () => ({ t: 'abc' }));
    const issues = evaluate('{{ count(map(items, x => x.t * 2)) }}', { items }).issues;
    expect(issues).toEqual([expect.objectContaining({ type: RenderIssueType.BindingFailedAtRender, description: '"{{ count(map(items, x => x.t * 2)) }}": "x.t * 2": text "abc" is not a number. (5000 occurrences)' })]);
  });

  it('issue 31: parseNumber reads a text amount in the document locale or the one given; what it cannot read is named, never guessed', () => {
    const amounts = { en: '1,234.50', de: '1.234,50 €', odd: '12,50' };
    expect(evaluate("{{ parseNumber(en) + parseNumber(de, 'de-DE') + parseNumber(7) }}", amounts)).toEqual({ out: '2476', issues: [] });
    expect(problem('{{ parseNumber(odd) }}', amounts)).toEqual([
      [RenderIssueType.BindingFailedAtRender, 'el', '"{{ parseNumber(odd) }}": parseNumber() cannot read "odd" (text "12,50") as an amount in en-US.'],
    ]);
    expect(problem("{{ parseNumber(de, 'xx_!') }}", amounts)[0][2]).toContain("parseNumber() needs a locale such as 'de-DE'");
    expect(problem('{{ parseNumber(tags) }}')[0][2]).toContain('parseNumber() reads a text amount, and "tags" is a list of 2');
  });

  it('text an expression produces is capped', () => {
    const long = 'x'.repeat(60_000);
    expect(problem('{{ s + s }}', { s: long })).toEqual([[RenderIssueType.BindingFailedAtRender, 'el', expect.stringContaining('more than 100,000 characters')]]);
  });

  it('list functions cannot reach beyond the data: prototypes stay out of reach inside x => …', () => {
    expect(evaluate("{{ count(filter(lines, l => exists(l.constructor))) }}{{ join(map(lines, l => l['__proto__']), '') }}").out).toBe('0');
  });
});
