import { RenderIssueType } from '@docrender/contracts';
import { activeTranslations } from '../i18n/translations';
import { IssueCollector } from '../issues/issue-collector';
import { bindingEnvironment, renderPlainText } from './binding-evaluator';
import { BindingSyntaxError, parseTemplateText } from './binding-syntax';
import { FormatSettings } from './formatters';
import { Scope } from './scope';

function render(text: string, data: unknown, settings: Partial<FormatSettings> = {}, translations: unknown = null, language: string | null = null) {
  const issues = new IssueCollector();
  const env = bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: null, ...settings }, activeTranslations(translations, language), issues);
  const out = renderPlainText(parseTemplateText(text), Scope.of(data), env, 'el-1');
  return { out, issues: issues.toArray() };
}

describe('binding syntax (spec 1.1 template DSL bindings)', () => {
  it('splits literal text and bindings with paths, indexes, quoted keys and formatters', () => {
    const segments = parseTemplateText("Hi {{ customer.name }} #{{ items[0]['sku-code'] | upper }}!");
    expect(segments.map((s) => (typeof s === 'string' ? s : s.source))).toEqual(['Hi ', 'customer.name', ' #', "items[0]['sku-code'] | upper", '!']);
    expect(render("Hi {{ customer.name }} #{{ items[0]['sku-code'] | upper }}!", { customer: { name: 'Ada' }, items: [{ 'sku-code': 'ab-1' }] }).out).toBe('Hi Ada #AB-1!');
  });

  it('reads function calls whose arguments carry formatters', () => {
    const translations = { defaultLanguage: 'en', languages: { en: { strings: { due: 'Due {0} ({1})' } } } };
    expect(render("{{ t('due', dueDate | date('long'), 3) }}", { dueDate: '2026-12-31' }, {}, translations).out).toBe('Due December 31, 2026 (3)');
  });

  it('a "}}" inside a quoted string does not close the binding', () => {
    expect(render("{{ '}}' + name }}", { name: 'x' }).out).toBe('}}x');
  });

  it('writes a literal "{{" for "\\{{"', () => {
    expect(parseTemplateText('a \\{{ b }}')).toEqual(['a {{ b }}']);
  });

  it.each([
    ['{{ name', 'unclosed'],
    ['{{ name | }}', 'Expected expression after |'],
    ['{{ name | shout }}', 'unknown formatter "shout"'],
    ['{{ eval(1) }}', 'unknown function "eval"'],
    ['{{ a.constructor.constructor("x")() }}', 'cannot be called'],
    ["{{ 'open }}", 'unterminated string'],
    ['{{ a.}}', 'Unexpected'],
    ['{{ a[-1] }}', 'not an index'],
    ['{{ a b }}', 'one expression is expected'],
    ['{{ this }}', '"this" is not available'],
    ['{{ a = 1 }}', 'Unexpected'],
    ['{{ (a, b) }}', 'only allowed after "in"'],
    ['{{ x => 1 }}', 'only allowed as an argument'],
  ])('reports %j as a syntax error mentioning %j', (text, message) => {
    expect(() => parseTemplateText(text)).toThrow(BindingSyntaxError);
    expect(() => parseTemplateText(text)).toThrow(message);
  });
});

describe('binding evaluation', () => {
  it('reads own properties only: prototypes are out of reach', () => {
    const r = render('[{{ constructor }}][{{ name.length }}][{{ __proto__ }}][{{ list.length }}]', { name: 'x', list: [1, 2] });
    expect(r.out).toBe('[][][][2]');
    expect(r.issues.filter((i) => i.type === RenderIssueType.MissingBinding)).toHaveLength(3);
  });

  it('7.3: a value missing from the data is a MissingBinding Warning with the elementId, shown as empty', () => {
    const r = render('Dear {{ customer.name }},', { customer: {} });
    expect(r.out).toBe('Dear ,');
    expect(r.issues).toEqual([expect.objectContaining({ type: RenderIssueType.MissingBinding, severity: 'Warning', elementId: 'el-1' })]);
  });

  it('default supplies a value for a missing or empty one without an issue; null is a value', () => {
    expect(render("{{ a | default('n/a') }}/{{ b | default('-') }}/{{ c }}", { b: '', c: null })).toEqual({ out: 'n/a/-/', issues: [] });
  });

  it('shows a list or object as nothing and reports BindingFailedAtRender', () => {
    const r = render('{{ customer }}', { customer: { name: 'x' } });
    expect(r.out).toBe('');
    expect(r.issues.map((i) => i.type)).toEqual([RenderIssueType.BindingFailedAtRender]);
  });

  it('data is never evaluated as a template', () => {
    expect(render('{{ note }}', { note: '{{ constructor }} <b>' }).out).toBe('{{ constructor }} <b>');
  });

  it('count and sum work on lists; a text amount is read with parseNumber (issue 31: never guessed by sum)', () => {
    const data = { items: [{ amount: 1.1 }, { amount: '2.2' }, { amount: 3 }] };
    expect(render("{{ count(items) }} {{ sum(items, x => parseNumber(x.amount, 'en-US')) }}", data).out).toBe('3 6.3');
    expect(render("{{ sum(items, 'amount') }}", data).issues.map((i) => i.type)).toEqual([RenderIssueType.BindingFailedAtRender]);
  });

  it('numbers, currencies and percentages follow the locale (Intl)', () => {
    const data = { n: 1234567.891, p: 0.256 };
    expect(render("{{ n | number(2) }} {{ n | currency('EUR') }} {{ p | percent(1) }}", data).out).toBe('1,234,567.89 €1,234,567.89 25.6%');
    expect(render("{{ n | number(2) }} {{ n | currency('EUR') }} {{ p | percent(1) }}", data, { locale: 'de-DE' }).out).toBe(
      '1.234.567,89 1.234.567,89\u00a0€ 25,6\u00a0%',
    );
    expect(render('{{ n | currency }}', data, { currency: 'JPY' }).out).toBe('¥1,234,568');
  });

  it('dates and times are shown in the time zone; a calendar date never shifts', () => {
    const data = { at: '2026-03-01T23:30:00Z', day: '2026-03-01' };
    expect(render("{{ at | datetime('short', 'America/New_York') }}", data).out).toBe('3/1/26, 6:30 PM');
    expect(render("{{ at | date('long') }}", data, { timeZone: 'Asia/Tokyo' }).out).toBe('March 2, 2026');
    expect(render("{{ day | date('long') }}", data, { timeZone: 'America/Los_Angeles' }).out).toBe('March 1, 2026');
    expect(render("{{ at | date('iso', 'Europe/Berlin') }} {{ at | time('iso') }}", data).out).toBe('2026-03-02 23:30:00');
    expect(render("{{ day | date('full') }}", data, { locale: 'de-DE' }).out).toBe('Sonntag, 1. März 2026');
  });

  it('upper and lower use the locale', () => {
    expect(render('{{ a | upper }} {{ b | lower }}', { a: 'istanbul', b: 'İ' }, { locale: 'tr-TR' }).out).toBe('İSTANBUL i');
  });

  it('7.3: a value a formatter cannot handle is an UnformattedValue Information and shown as is', () => {
    const r = render("{{ total | currency('EUR') }} / {{ when | date }} / {{ far | date }}", { total: 'twelve', when: 'yesterday', far: 1e20 });
    expect(r.out).toBe('twelve / yesterday / 100000000000000000000');
    expect(r.issues.map((i) => [i.type, i.severity])).toEqual([
      [RenderIssueType.UnformattedValue, 'Information'],
      [RenderIssueType.UnformattedValue, 'Information'],
      [RenderIssueType.UnformattedValue, 'Information'],
    ]);
  });

  it('t() reads the requested language, falls back to the default language, and interpolates arguments', () => {
    const translations = {
      defaultLanguage: 'en',
      languages: {
        en: { strings: { greeting: 'Dear {0},', only: { english: 'fallback' } } },
        de: { locale: 'de-DE', strings: { greeting: 'Guten Tag {0},' } },
      },
    };
    const data = { name: 'Ada' };
    expect(render("{{ t('greeting', name) }} {{ t('only.english') }}", data, {}, translations, 'de').out).toBe('Guten Tag Ada, fallback');
    expect(render("{{ t('greeting', name) }}", data, {}, translations, null).out).toBe('Dear Ada,');
    const missing = render("{{ t('nope') }}", data, {}, translations, 'de');
    expect(missing.out).toBe('nope');
    expect(missing.issues.map((i) => i.type)).toEqual([RenderIssueType.MissingBinding]);
  });

  it('reports the same problem once with its number of occurrences', () => {
    const issues = new IssueCollector();
    const env = bindingEnvironment({ locale: 'en-US', timeZone: 'UTC', currency: null }, activeTranslations(null, null), issues);
    const segments = parseTemplateText('{{ item.price }}');
    for (let i = 0; i < 5; i++) renderPlainText(segments, Scope.of({}).with('item', {}), env, 'row');
    expect(issues.toArray()).toEqual([expect.objectContaining({ description: expect.stringContaining('(5 occurrences)') })]);
  });
});
