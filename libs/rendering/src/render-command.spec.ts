import { createHash } from 'node:crypto';
import { EncodedJson, Environment, ErrorCode, IssueSeverity, renderIssue, RenderIssueType, type RenderDocumentResult } from '@docrender/contracts';
import { documentOutcomeOf, inlinePdfOf, RenderBudget, renderCommand } from './render-command';
import { renderTargetFixture } from '@docrender/testing';

const target = renderTargetFixture({
  environment: Environment.Test,
  translations: { en: {} },
  language: 'en',
  documentNameTemplate: 'invoice',
  source: { templateId: 'template-1', versionNumber: 3 },
});

const reply = (fields: Partial<RenderDocumentResult>): RenderDocumentResult => ({
  outcome: 'rendered',
  issues: [],
  documentName: 'invoice',
  pdf: { blobKey: 'k.pdf', pageCount: 2, fileSizeBytes: 100 },
  renderDurationMs: 12,
  failure: null,
  ...fields,
});

describe('the render command and the render budget (spec 8)', () => {
  it('8: the command carries the target and a deadline one budget from now; the sender waits the budget and its grace', () => {
    const budget = new RenderBudget(60_000);
    const before = Date.now();
    const command = renderCommand(target, { requestId: 'job-1:0', data: { blobKey: 'jobs/job-1/input/0.json' }, outputBlobKey: 'out.pdf' }, budget);
    expect(command).toEqual({
      requestId: 'job-1:0',
      organisationId: 'org-1',
      environment: Environment.Test,
      template: EncodedJson.of(target.template),
      templateDigest: createHash('sha256').update(JSON.stringify(target.template)).digest('base64'),
      data: { blobKey: 'jobs/job-1/input/0.json' },
      translations: target.translations,
      language: 'en',
      documentNameTemplate: 'invoice',
      fallbackDocumentName: 'Invoice',
      customFonts: [],
      outputBlobKey: 'out.pdf',
      deadline: expect.any(Number),
    });
    expect(command.deadline).toBeGreaterThanOrEqual(before + 60_000);
    expect(command.deadline).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(budget.replyTimeoutMs(5_000)).toBe(65_000);
  });

  it('0022: a template is serialised and hashed once, not for every document: the commands of one target share its encoded form', () => {
    const budget = new RenderBudget(1_000);
    const document = { requestId: 'r', data: { json: '{}' }, outputBlobKey: 'o.pdf' };
    const first = renderCommand(target, document, budget);
    const second = renderCommand({ ...target, language: null }, document, budget);
    expect(second.template).toBe(first.template);
    expect(second.templateDigest).toBe(first.templateDigest);
    const other = renderCommand({ ...target, template: { pages: [{ other: true }] } }, document, budget);
    expect(other.templateDigest).not.toBe(first.templateDigest);
  });

  it('render.document inlinePdfMaxBytes: asked for only with a positive size, and then as raw bytes (0022 inlinePdfBinary)', () => {
    const budget = new RenderBudget(1_000);
    const document = { requestId: 'r', data: { json: '{}' }, outputBlobKey: 'o.pdf' };
    expect(renderCommand(target, { ...document, inlinePdfMaxBytes: 1024 }, budget)).toMatchObject({ inlinePdfMaxBytes: 1024, inlinePdfBinary: true });
    for (const without of [renderCommand(target, { ...document, inlinePdfMaxBytes: 0 }, budget), renderCommand(target, document, budget)]) {
      expect(without).not.toHaveProperty('inlinePdfMaxBytes');
      expect(without).not.toHaveProperty('inlinePdfBinary');
    }
  });

  it.each([
    ['raw bytes (a render service that knows inlinePdfBinary)', { inlineBytes: new Uint8Array([37, 80, 68, 70]) }, { bytes: Buffer.from('%PDF') }],
    ['base64 (an older render service: 0022 rolling upgrade)', { inlineBase64: Buffer.from('%PDF').toString('base64') }, { base64: 'JVBERg==' }],
    ['neither: read at the blob key', {}, null],
  ])('the PDF a reply carried inline, as %s', (_what, inline, expected) => {
    expect(inlinePdfOf({ blobKey: 'o.pdf', pageCount: 1, fileSizeBytes: 4, ...inline })).toEqual(expected);
  });
});

describe('what a render reply means for its document (spec 3.1 rule 2)', () => {
  const warning = renderIssue(RenderIssueType.MissingBinding, 'no value');

  it('a rendered document keeps its PDF and its non-blocking issues', () => {
    expect(documentOutcomeOf(reply({ issues: [warning] }))).toEqual({ outcome: 'rendered', pdf: reply({}).pdf, issues: [warning] });
  });

  it('a blocked document has no PDF; its blocking issues say why', () => {
    const blocking = { ...warning, severity: IssueSeverity.Error };
    expect(documentOutcomeOf(reply({ outcome: 'blocked', pdf: null, issues: [blocking] }))).toEqual({ outcome: 'blocked', pdf: null, issues: [blocking] });
  });

  it('3.1 rule 2: a failed document the render service did not explain gets an Error issue naming the failure', () => {
    const result = documentOutcomeOf(reply({ outcome: 'failed', pdf: null, issues: [warning], failure: { code: ErrorCode.InternalError, message: 'crashed' } }));
    expect(result.outcome).toBe('failed');
    expect(result.issues[0]).toBe(warning);
    expect(result.issues.slice(1)).toEqual([expect.objectContaining({ severity: IssueSeverity.Error })]);
  });

  it('a reply "rendered" without a PDF counts as failed, with an Error issue', () => {
    const result = documentOutcomeOf(reply({ pdf: null }));
    expect(result).toMatchObject({ outcome: 'failed', pdf: null });
    expect(result.issues.some((i) => i.severity === IssueSeverity.Error)).toBe(true);
  });
});
