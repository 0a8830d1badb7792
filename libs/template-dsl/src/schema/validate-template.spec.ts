import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { templateJsonSchema } from './template-json-schema';
import { validateTemplate } from './validate-template';

const repoRoot = path.resolve(__dirname, '../../../..');
const EXAMPLES = ['invoice', 'report', 'letter', 'certificate', 'label', 'ledger', 'invoice-ar', 'statement', 'e-invoice', 'e-invoice-xrechnung', 'multilingual'];

function errorsOf(template: unknown): { path: string; message: string }[] {
  const result = validateTemplate(template);
  return result.ok ? [] : result.errors;
}

const text = (id: string, value: string): Record<string, unknown> => ({ type: 'text', id, text: value });

describe('validateTemplate (spec 4.3: an invalid DSL is 422 BindingError naming the JSON path)', () => {
  it.each(EXAMPLES)('the %s example is valid', (name) => {
    const template: unknown = JSON.parse(readFileSync(path.join(repoRoot, 'examples', name, 'template.json'), 'utf8'));
    expect(errorsOf(template)).toEqual([]);
  });

  it('accepts the template as JSON text and returns it typed', () => {
    const result = validateTemplate(JSON.stringify({ body: [text('a', 'x')] }));
    expect(result.ok && result.template.body[0].id).toBe('a');
  });

  it.each([
    ['not JSON text', '{"body": [', '$', 'not valid JSON'],
    ['a missing body', {}, '$', 'must have the field "body"'],
    ['an unknown root field', { body: [], colour: 'red' }, '$', 'unknown field "colour"'],
    ['an unknown element type', { body: [{ type: 'video', id: 'v' }] }, '$.body[0].type', 'must be one of'],
    ['an element without id', { body: [{ type: 'text', text: 'x' }] }, '$.body[0]', 'must have the field "id"'],
    ['a misspelt element field', { body: [{ type: 'text', id: 'a', txt: 'x' }] }, '$.body[0]', 'unknown field "txt"'],
    ['a wrong type deep inside', { body: [{ type: 'row', id: 'r', elements: [{ type: 'image', id: 'i', source: 3 }] }] }, '$.body[0].elements[0].source', 'must be string'],
    ['a bad length', { body: [{ type: 'spacer', id: 's', height: '3 miles' }] }, '$.body[0].height', ''],
    ['a bad table column', { body: [{ type: 'table', id: 't', source: 'items', columns: [{ id: 'c' }] }] }, '$.body[0].columns[0]', 'must have the field "value"'],
    ['a bad list source', { body: [{ type: 'table', id: 't', source: 'items; drop', columns: [{ id: 'c', value: 'x' }] }] }, '$.body[0].source', 'expression syntax error'],
    ['a list source that does not parse, with its position', { body: [{ type: 'repeater', id: 'r', source: 'groupBy(items,', elements: [] }] }, '$.body[0].source', 'at character 15'],
    ['Markdown from data outside rich text', { body: [text('a', '{{ notes | markdown }}')] }, '$.body[0].text', 'only rich text'],
    ['a syntax error in an expression, with its position', { body: [text('a', 'Total: {{ qty * }}')] }, '$.body[0].text', 'at character 17'],
    ['a duplicate element id', { body: [text('a', 'x'), { type: 'row', id: 'r', elements: [text('a', 'y')] }] }, '$.body[1].elements[0].id', 'already used by $.body[0]'],
    ['a binding syntax error', { body: [text('a', 'Hello {{ name')] }, '$.body[0].text', 'unclosed'],
    ['an unknown formatter', { body: [text('a', '{{ n | money }}')] }, '$.body[0].text', 'unknown formatter "money"'],
    ['a bad currency code', { body: [text('a', "{{ n | currency('EURO') }}")] }, '$.body[0].text', 'ISO 4217'],
    ['a bad time zone in a formatter', { body: [text('a', "{{ d | date('long', 'Mars/Base') }}")] }, '$.body[0].text', 'IANA time zone'],
    ['a bad formatter inside t()', { body: [text('a', "{{ t('k', d | date('huge')) }}")] }, '$.body[0].text', 'takes a style'],
    ['an unknown named style', { body: [{ ...text('a', 'x'), styleName: 'h9' }] }, '$.body[0].styleName', 'does not define'],
    ['a totals cell of no column', { body: [{ type: 'table', id: 't', source: 'items', columns: [{ id: 'c', value: 'x' }], totals: { cells: { d: '1' } } }] }, '$.body[0].totals.cells', 'not a column id'],
    ['a bad locale', { locale: 'xx-!!', body: [] }, '$.locale', 'BCP 47'],
    ['a bad default time zone', { timeZone: 'Nowhere/City', body: [] }, '$.timeZone', 'IANA'],
    ['an unknown currency', { currency: 'ABC', body: [] }, '$.currency', 'ISO 4217'],
    ['a data schema that is not a schema', { dataSchema: { type: 'banana' }, body: [] }, '$.dataSchema', 'not a valid JSON Schema'],
    ['a header element with a broken binding', { page: { header: { elements: [text('h', '{{ }}')] } }, body: [] }, '$.page.header.elements[0].text', 'expected'],
  ])('4.3: %s is reported at its JSON path', (_name, template, expectedPath, message) => {
    const errors = errorsOf(template);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: expectedPath, message: expect.stringContaining(message) })]));
  });

  it('8: a template nested 100,000 levels deep is refused without overflowing the stack', () => {
    let element: Record<string, unknown> = text('leaf', 'x');
    for (let i = 0; i < 100_000; i++) element = { type: 'box', id: `b${i}`, elements: [element] };
    const errors = errorsOf({ body: [element] });
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain('nested deeper than 64 levels');
  });

  it('docs/template-dsl.schema.json is the published schema (UPDATE_DSL_SCHEMA=1 rewrites it)', () => {
    const file = path.join(repoRoot, 'docs', 'template-dsl.schema.json');
    const expected = `${JSON.stringify(templateJsonSchema, null, 2)}\n`;
    if (process.env.UPDATE_DSL_SCHEMA === '1') writeFileSync(file, expected);
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });
});
