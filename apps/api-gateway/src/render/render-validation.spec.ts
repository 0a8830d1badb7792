import { RenderIssueType } from '@docrender/contracts';
import { scanJsonBody } from './body/json-body.scanner';
import { bindValidateBody, DOCUMENTS_MEMBER } from './body/render-body.binder';
import type { RenderTarget } from '@docrender/rendering';
import { renderTargetFixture } from '@docrender/testing';
import { loadSettings, renderApiSettings } from '@docrender/config';
import { validateDocuments } from './render-validation';
import { RenderValidationService } from './render-validation.service';

const target = (template: unknown, customFonts: RenderTarget['customFonts'] = []): RenderTarget => renderTargetFixture({ template, customFonts });

const body = (documents: unknown[] | string) => {
  const raw = Buffer.from(typeof documents === 'string' ? documents : JSON.stringify({ documents }));
  return bindValidateBody(raw, scanJsonBody(raw, [DOCUMENTS_MEMBER]));
};

const INVOICE = {
  body: [
    { type: 'text', id: 'title', text: 'Invoice {{ number }}', style: { fontFamily: 'House Sans' } },
    { type: 'text', id: 'customer', text: '{{ customer.name }}' },
  ],
};

describe('validateDocuments (spec 4.4)', () => {
  const service = { validate: validateDocuments };

  it('4.4: an empty list when every document is clean', () => {
    const fonts = [{ family: 'House Sans', weight: 400, style: 'normal' as const, blobKey: 'k', format: 'woff2' }];
    expect(service.validate(target(INVOICE, fonts), body([{ number: 1, customer: { name: 'A' } }]))).toEqual([]);
  });

  it('4.4: flat issues, each with its documentIndex; an issue of the template itself is batch-wide (documentIndex null)', () => {
    const issues = service.validate(target(INVOICE), body([{ number: 1, customer: { name: 'A' } }, { number: 2 }, { customer: { name: 'C' } }]));
    expect(issues.map((i) => [i.documentIndex, i.type, i.elementId])).toEqual([
      [null, RenderIssueType.UnresolvedFont, 'title'],
      [1, RenderIssueType.MissingBinding, 'customer'],
      [2, RenderIssueType.MissingBinding, 'title'],
    ]);
  });

  it('4.4: a data issue every document shares stays per document', () => {
    const issues = service.validate(target({ body: [{ type: 'text', id: 'title', text: '{{ number }}' }] }), body([{}, {}]));
    expect(issues.map((i) => [i.documentIndex, i.type])).toEqual([
      [0, RenderIssueType.MissingBinding],
      [1, RenderIssueType.MissingBinding],
    ]);
  });

  it('8: a document nested deeper than 32 levels is DangerousContent, found without parsing it', () => {
    const deep = `{"documents":[{"number":1,"customer":{"name":"A"}},{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`;
    const issues = service.validate(target({ body: [{ type: 'text', id: 'title', text: 'x' }] }), body(deep));
    expect(issues).toEqual([
      expect.objectContaining({ type: RenderIssueType.DangerousContent, severity: 'Error', documentIndex: 1, description: expect.stringContaining('100001 levels deep') }),
    ]);
  });

  it('7.3: script injection in the data is DangerousContent for that document', () => {
    const issues = service.validate(target({ body: [{ type: 'text', id: 'title', text: '{{ name }}' }] }), body([{ name: 'Ann' }, { name: '<script>alert(1)</script>' }]));
    expect(issues.map((i) => [i.documentIndex, i.type])).toEqual([[1, RenderIssueType.DangerousContent]]);
  });

  it('4.4: a stored template that no longer validates is one batch-wide SchemaInvalid issue', () => {
    const issues = service.validate(target({ body: [{ type: 'nonsense', id: 'x' }] }), body([{}, {}]));
    expect(issues).toEqual([expect.objectContaining({ type: RenderIssueType.SchemaInvalid, severity: 'Error', documentIndex: null })]);
  });
});

describe('RenderValidationService', () => {
  const service = new RenderValidationService({ ...loadSettings(renderApiSettings, {}), validationThreads: 1 });
  afterAll(async () => {
    await service.onModuleDestroy();
  });

  it('4.4: validates on a worker thread, with the same issues as in place', async () => {
    const documents = body([{ number: 1, customer: { name: 'A' } }, { number: 2 }]);
    await expect(service.validate(target(INVOICE), documents)).resolves.toEqual(validateDocuments(target(INVOICE), documents));
  });

  it('8: the event loop keeps turning while a large document is validated', async () => {
    const large = body([{ number: 1, customer: { name: 'A' }, rows: Array.from({ length: 200_000 }, (_, i) => ({ i, text: 'some words in a row' })) }]);
    let turns = 0;
    let validating = true;
    const spin = (): void => {
      turns++;
      if (validating) setImmediate(spin);
    };
    setImmediate(spin);
    const issues = await service.validate(target(INVOICE), large);
    validating = false;
    expect(issues.map((i) => i.type)).toEqual([RenderIssueType.UnresolvedFont]);
    expect(turns).toBeGreaterThan(1);
  });
});
