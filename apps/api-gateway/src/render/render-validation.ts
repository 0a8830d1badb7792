import { renderIssue, RenderIssueType, type RenderIssue } from '@docrender/contracts';
import { nestingTooDeepIssue, validateDocument, validateTemplate } from '@docrender/template-dsl';
import { textOf, type ValidateBody } from './body/render-body.binder';
import { tooDeep, type RenderTarget } from '@docrender/rendering';

/** What validation needs of a render target (it travels to a worker thread). */
export type ValidationTarget = Pick<
  RenderTarget,
  'template' | 'translations' | 'language' | 'customFonts' | 'documentNameTemplate' | 'fallbackDocumentName'
>;

/** Issue types that come from the data: never batch-wide, even when every document has them. */
const DATA_ISSUE_TYPES: ReadonlySet<RenderIssueType> = new Set([
  RenderIssueType.InvalidJson,
  RenderIssueType.SchemaInvalid,
  RenderIssueType.DangerousContent,
  RenderIssueType.MissingBinding,
  RenderIssueType.DataSourceNotEnumerable,
  RenderIssueType.BindingFailedAtRender,
  RenderIssueType.UnformattedValue,
]);

const sameIssue = (a: RenderIssue, b: RenderIssue): boolean => a.type === b.type && a.elementId === b.elementId && a.description === b.description;

/** Template errors named in the batch-wide issue of an invalid template. */
const TEMPLATE_ERRORS_NAMED = 5;

/**
 * Spec 4.4: the checks a render would run, without rendering (no Chromium, no network, no credit): the nesting limit,
 * the data sanitizer, the data contract, bindings, conditions, fonts and layout, per document. Issues come back flat,
 * each with its documentIndex; an issue the template causes whatever the data (it shows with empty data and in every
 * document, and is not about data) is reported once as batch-wide, documentIndex null. A stored template that no
 * longer validates is one batch-wide SchemaInvalid issue.
 */
export function validateDocuments(target: ValidationTarget, body: ValidateBody): RenderIssue[] {
  const template = validateTemplate(target.template);
  if (!template.ok) {
    const named = template.errors.slice(0, TEMPLATE_ERRORS_NAMED).map((e) => `${e.path}: ${e.message}`);
    return [renderIssue(RenderIssueType.SchemaInvalid, `The template of this version is invalid: ${named.join('; ')}.`)];
  }
  const check = (data: unknown): RenderIssue[] =>
    validateDocument({
      template: template.template,
      data,
      translations: target.translations,
      language: target.language,
      customFonts: target.customFonts.map((f) => ({ family: f.family, weight: f.weight, style: f.style, dataUri: '' })),
      documentNameTemplate: target.documentNameTemplate,
      fallbackDocumentName: target.fallbackDocumentName,
    });
  const perDocument = body.documents.map((slice) =>
    tooDeep(slice)
      ? [nestingTooDeepIssue({ levels: slice.depth })]
      : check(textOf(body.raw, slice)),
  );
  // What the template reports with no data at all, less what is about the (missing) data, and found in every document.
  const batchWide = check({})
    .filter((issue) => !DATA_ISSUE_TYPES.has(issue.type))
    .filter((issue) => perDocument.every((issues) => issues.some((i) => sameIssue(i, issue))));
  return [
    ...batchWide.map((issue) => ({ ...issue, documentIndex: null })),
    ...perDocument.flatMap((issues, documentIndex) =>
      issues.filter((issue) => !batchWide.some((b) => sameIssue(b, issue))).map((issue) => ({ ...issue, documentIndex })),
    ),
  ];
}
