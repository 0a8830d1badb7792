import { checkTemplateVersion } from './validate-template';

const TEMPLATE = { dsl: 1, body: [{ id: 'title', type: 'text', text: 'Invoice {{ number }}' }] };
const TRANSLATIONS = { defaultLanguage: 'de', languages: { de: { locale: 'de-DE', strings: { invoice: 'Rechnung' } } } };

describe('checkTemplateVersion: the one check of the render path and of every way a version is stored (issue 31 item 4)', () => {
  it('passes a version a render accepts (object or JSON text), with or without translations and a naming pattern', () => {
    expect(checkTemplateVersion({ template: TEMPLATE })).toEqual({ ok: true, template: TEMPLATE });
    expect(checkTemplateVersion({ template: JSON.stringify(TEMPLATE), translations: JSON.stringify(TRANSLATIONS), documentNameTemplate: 'Invoice {{ number }}' })).toMatchObject({ ok: true });
    expect(checkTemplateVersion({ template: TEMPLATE, translations: null, documentNameTemplate: null })).toMatchObject({ ok: true });
  });

  it('refuses an unknown function with the DSL error (path and message)', () => {
    const template = { dsl: 1, body: [{ id: 'total', type: 'text', text: 'Total {{ frobnicate(items) }}' }] };
    expect(checkTemplateVersion({ template })).toEqual({
      ok: false,
      errors: [{ path: '$.body[0].text', message: expect.stringMatching(/^binding syntax error at character \d+: unknown function "frobnicate"/) }],
    });
  });

  it('refuses translations not in the documented format and a naming pattern whose bindings do not parse, each named', () => {
    const result = checkTemplateVersion({ template: TEMPLATE, translations: { de: { invoice: 'Rechnung' } }, documentNameTemplate: 'Invoice {{ number' });
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: 'translations', message: expect.stringMatching(/^must be /) },
        { path: 'documentNameTemplate', message: 'binding syntax error at character 18: unclosed "{{" (missing "}}")' },
      ],
    });
  });

  it('reports the template errors and the others together', () => {
    const result = checkTemplateVersion({ template: { dsl: 1, body: 'nope' }, documentNameTemplate: '{{ eval(1) }}' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors.map((e) => e.path)).toEqual(['$.body', 'documentNameTemplate']);
  });
});
