import { ErrorCode, Limits } from '@docrender/contracts';
import { domainErrorOf } from '@docrender/testing';
import { scanJsonBody } from './json-body.scanner';
import {
  bindDocumentNameTemplateBody,
  bindEnqueueBody,
  bindRenderBody,
  bindStatelessRenderBody,
  bindValidateBody,
  DOCUMENTS_MEMBER,
  textOf,
} from './render-body.binder';
import { tooDeep } from '@docrender/rendering';

const raw = (text: string): Buffer => Buffer.from(text, 'utf8');
const render = (text: string) => bindRenderBody(raw(text), scanJsonBody(raw(text), [DOCUMENTS_MEMBER]));
const enqueue = (text: string) => bindEnqueueBody(raw(text), scanJsonBody(raw(text), [DOCUMENTS_MEMBER]));
const documentName = (text: string) => bindDocumentNameTemplateBody(raw(text), scanJsonBody(raw(text), []));
const stateless = (text: string) => bindStatelessRenderBody(raw(text), scanJsonBody(raw(text), []));

function rejection(bind: () => unknown): { code: ErrorCode; message: string } {
  const { code, message } = domainErrorOf(bind);
  return { code, message };
}

describe('render body binding', () => {
  it('4.2: binds documents as slices of the raw body, and includeDocument', () => {
    const text = '{"includeDocument":true,"documents":[{"n":1},{"n":{"m":[2]}}]}';
    const body = render(text);
    expect(body.includeDocument).toBe(true);
    expect(body.documents.map((d) => [d.index, textOf(body.raw, d), d.bytes, d.depth])).toEqual([
      [0, '{"n":1}', 7, 1],
      [1, '{"n":{"m":[2]}}', 15, 3],
    ]);
  });

  it('4.2: includeDocument defaults to false (absent or null)', () => {
    expect(render('{"documents":[{}]}').includeDocument).toBe(false);
    expect(render('{"documents":[{}],"includeDocument":null}').includeDocument).toBe(false);
    expect(render('{"documents":[{}],"includeDocument":false}').includeDocument).toBe(false);
  });

  it.each([
    ['', 'request body is empty: expected a JSON object'],
    ['{"documents":[{}]', 'request body is not valid JSON: expected \',\' or \'}\' at byte 17 (found end of body)'],
    ['[{}]', 'request body must be a JSON object, got an array'],
    ['{}', 'documents: must be an array of JSON objects, one per document'],
    ['{"documents":{}}', 'documents: must be an array of JSON objects, one per document'],
    ['{"documents":[]}', 'documents: must contain at least one document'],
    ['{"documents":[{},"x"]}', 'documents[1]: must be a JSON object, got string'],
    ['{"documents":[{}],"includeDocument":"yes"}', 'includeDocument: must be a boolean, got string'],
  ])('7.2: 422 BindingError naming the field for %j', (text, message) => {
    expect(rejection(() => render(text))).toEqual({ code: ErrorCode.BindingError, message });
  });

  it('8: 413 PayloadTooLarge naming the document over 50 MB, whatever the others', () => {
    const big = `{"s":"${'x'.repeat(Limits.maxDocumentBytes - 7)}"}`;
    expect(Buffer.byteLength(big)).toBe(Limits.maxDocumentBytes + 1);
    expect(rejection(() => render(`{"documents":[{},${big}]}`))).toEqual({
      code: ErrorCode.PayloadTooLarge,
      message: `documents[1] is ${Limits.maxDocumentBytes + 1} bytes of JSON; the limit is ${Limits.maxDocumentBytes} bytes (50 MB) per document`,
    });
    const justFits = big.replace('x', '');
    expect(render(`{"documents":[${justFits},${justFits}]}`).documents).toHaveLength(2);
  });

  it('8: depth is measured per document, and only past 32 levels is it too deep', () => {
    const nested = (levels: number): string => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);
    const body = render(`{"documents":[${nested(32)},${nested(33)}]}`);
    expect(body.documents.map((d) => [d.depth, tooDeep(d)])).toEqual([
      [32, false],
      [33, true],
    ]);
  });

  it('4.4: binds the documents of a validate body the same way', () => {
    const text = '{"documents":[{"x":1}]}';
    expect(bindValidateBody(raw(text), scanJsonBody(raw(text), [DOCUMENTS_MEMBER])).documents).toHaveLength(1);
  });

  it('4.3: binds template, data and optional translations', () => {
    const body = stateless('{"template":{"pages":[]},"data":{"a":1},"translations":{"de":{}}}');
    expect([textOf(body.raw, body.template), textOf(body.raw, body.data), body.translations && textOf(body.raw, body.translations)]).toEqual([
      '{"pages":[]}',
      '{"a":1}',
      '{"de":{}}',
    ]);
    expect(stateless('{"template":{},"data":{}}').translations).toBeNull();
  });

  it.each([
    ['{"data":{}}', 'template: is required (the template DSL)'],
    ['{"template":[],"data":{}}', 'template: must be a JSON object (the template DSL), got array'],
    ['{"template":{}}', 'data: is required (the document data)'],
    ['{"template":{},"data":"x"}', 'data: must be a JSON object (the document data), got string'],
    ['{"template":{},"data":{},"translations":1}', 'translations: must be a JSON object, got number'],
    [`{"template":${'['.repeat(200)}${']'.repeat(200)},"data":{}}`, 'template: must be a JSON object (the template DSL), got array'],
  ])('4.3: 422 BindingError for %j', (text, message) => {
    expect(rejection(() => stateless(text))).toEqual({ code: ErrorCode.BindingError, message });
  });

  it('4.5: binds an enqueue body like a render body, plus callbackUrl; a deep document stays a slice (DangerousContent later)', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const body = enqueue(`{"documents":[{"n":1},{"d":${deep}}],"callbackUrl":"https://hooks.example.com/r?x=1","includeDocument":true}`);
    expect([body.callbackUrl, body.includeDocument, body.documents.map(tooDeep)]).toEqual(['https://hooks.example.com/r?x=1', true, [false, true]]);
  });

  it.each([
    ['{"documents":[{}]}', 'callbackUrl: is required and must be a string'],
    ['{"documents":[{}],"callbackUrl":7}', 'callbackUrl: must be a string, got number'],
    ['{"documents":[{}],"callbackUrl":"https://x.example.com/\\u0000"}', 'callbackUrl: must not contain the NUL character (U+0000)'],
    ['{"documents":[{}],"callbackUrl":"https://x.example.com/\\ud800"}', 'callbackUrl: must not contain a lone UTF-16 surrogate (\\uD800-\\uDFFF without its pair)'],
    [`{"documents":[{}],"callbackUrl":"https://x.example.com/${'a'.repeat(2100)}"}`, 'callbackUrl: is 2122 characters long; the limit is 2048'],
    [`{"documents":[{}],"callbackUrl":"https://x.example.com/","extra":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'extra: nests 5000 levels deep; the limit is 32'],
  ])('4.5 / 7.2: 422 BindingError naming the field (case %#)', (text, message) => {
    expect(rejection(() => enqueue(text))).toEqual({ code: ErrorCode.BindingError, message });
  });

  it('4.11: binds documentNameTemplate, a string or null', () => {
    expect(documentName('{"documentNameTemplate":"Invoice {{ number }}"}')).toEqual({ documentNameTemplate: 'Invoice {{ number }}' });
    expect(documentName('{"documentNameTemplate":null}')).toEqual({ documentNameTemplate: null });
  });

  it.each([
    ['{}', 'documentNameTemplate: is required (a string, or null to clear it)'],
    ['{"documentNameTemplate":1}', 'documentNameTemplate: must be a string, got number'],
    // Issue 31 item 4: what a render would ignore is never stored.
    ['{"documentNameTemplate":"Invoice {{ number"}', 'documentNameTemplate: binding syntax error at character 18: unclosed "{{" (missing "}}")'],
    ['{"documentNameTemplate":"Invoice {{ eval(number) }}"}', expect.stringMatching(/^documentNameTemplate: binding syntax error at character \d+: unknown function "eval"/)],
    ['{"documentNameTemplate":"a\\u0000b"}', 'documentNameTemplate: must not contain the NUL character (U+0000)'],
    [`{"documentNameTemplate":"${'x'.repeat(501)}"}`, 'documentNameTemplate: is 501 characters long; the limit is 500'],
    [`{"documentNameTemplate":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`, 'documentNameTemplate: nests 100000 levels deep; the limit is 32'],
  ])('4.11 / 7.2: 422 BindingError naming the field (case %#)', (text, message) => {
    expect(rejection(() => documentName(text))).toEqual({ code: ErrorCode.BindingError, message });
  });

  it('7.2: a string option that is not UTF-8 is 422 naming it', () => {
    const bytes = Buffer.concat([Buffer.from('{"documentNameTemplate":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    expect(rejection(() => bindDocumentNameTemplateBody(bytes, scanJsonBody(bytes, [])))).toEqual({
      code: ErrorCode.BindingError,
      message: 'documentNameTemplate: is not valid UTF-8',
    });
  });
});
