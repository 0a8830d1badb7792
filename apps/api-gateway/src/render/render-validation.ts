import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
import { ISSUE_FROM_DATA, renderIssue, RenderIssueType, type RenderIssue } from '@docrender/contracts';
import { checkUrlLiteral, EgressRefusedError, type EgressPolicy } from '@docrender/egress';
import {
  checkTemplateVersion,
  imageReferencesOf,
  nestingTooDeepIssue,
  templateErrorLines,
  validateDocument,
  type ImageResolution,
  type Template,
} from '@docrender/template-dsl';
import { textOf, type ValidateBody } from '../request-body/render-body.binder';
import { tooDeep, type RenderTarget } from '@docrender/rendering';

/** What validation needs of a render target (it travels to a worker thread). */
export type ValidationTarget = Pick<
  RenderTarget,
  'template' | 'translations' | 'language' | 'customFonts' | 'documentNameTemplate' | 'fallbackDocumentName'
>;

const sameIssue = (a: RenderIssue, b: RenderIssue): boolean => a.type === b.type && a.elementId === b.elementId && a.description === b.description;

/** Template errors named in the batch-wide issue of an invalid template. */
const TEMPLATE_ERRORS_NAMED = 5;

const EGRESS_POLICY_KEY = 'docrender:validation-egress-policy';

/**
 * Hands the gateway's egress policy (EGRESS_ALLOW_HTTP, EGRESS_ALLOW_PRIVATE: the same settings the render service
 * fetches images under) to the validation worker threads started after this call (worker_threads environment data).
 */
export function shareValidationEgressPolicy(policy: EgressPolicy): void {
  setEnvironmentData(EGRESS_POLICY_KEY, { allowHttp: policy.allowHttp, allowPrivate: policy.allowPrivate });
}

/** The policy shareValidationEgressPolicy handed over; throws when none was (a wiring fault, never a guess). */
export function sharedValidationEgressPolicy(): EgressPolicy {
  const policy = getEnvironmentData(EGRESS_POLICY_KEY) as EgressPolicy | undefined;
  if (policy === undefined) throw new Error('the egress policy of validation was not shared (shareValidationEgressPolicy)');
  return policy;
}

/**
 * What a production render would refuse to fetch without asking the network: each image reference of the document
 * that the egress policy refuses by its URL alone (scheme, credentials, an address literal of a private, loopback,
 * link-local or metadata range, a `localhost` name), with the refusal the render's fetch would give (image-resolver
 * in the render service: `guardedFetch` starts with the same `checkUrlLiteral`). Handed to validateDocument as
 * fetched-with-an-error, they become the render's own UnresolvedImage (or InvalidPageBackground) issue naming the
 * element. Names that need DNS are not decided here.
 */
function refusedImages(template: Template, data: unknown, policy: EgressPolicy): Map<string, ImageResolution> {
  const refused = new Map<string, ImageResolution>();
  for (const reference of imageReferencesOf(template, data, { allowHttpImages: policy.allowHttp })) {
    if (reference.startsWith('asset:') || refused.has(reference)) continue;
    try {
      checkUrlLiteral(reference, policy);
    } catch (error) {
      if (!(error instanceof EgressRefusedError)) throw error;
      refused.set(reference, { error: error.message });
    }
  }
  return refused;
}

/**
 * Spec 4.4: the checks a render would run, without rendering (no Chromium, no network, no credit): the nesting limit,
 * the data sanitizer, the data contract, bindings, conditions, fonts and layout, per document. Issues come back flat,
 * each with its documentIndex; an issue the template causes whatever the data (it shows with empty data and in every
 * document, and is not about data) is reported once as batch-wide, documentIndex null. A stored template that no
 * longer passes checkTemplateVersion (the check of every store path) is one batch-wide SchemaInvalid issue. Image URLs
 * the egress `policy` refuses by themselves are the issues a production render would give them (refusedImages).
 */
export function validateDocuments(target: ValidationTarget, body: ValidateBody, policy: EgressPolicy): RenderIssue[] {
  const template = checkTemplateVersion({ template: target.template, translations: target.translations, documentNameTemplate: target.documentNameTemplate });
  if (!template.ok) {
    const named = templateErrorLines(template.errors.slice(0, TEMPLATE_ERRORS_NAMED));
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
      images: refusedImages(template.template, data, policy),
      allowHttpImages: policy.allowHttp,
    });
  const perDocument = body.documents.map((slice) =>
    tooDeep(slice)
      ? [nestingTooDeepIssue({ levels: slice.depth })]
      : check(textOf(body.raw, slice)),
  );
  // What the template reports with no data at all, less what is about the (missing) data, and found in every document.
  const batchWide = check({})
    .filter((issue) => !ISSUE_FROM_DATA[issue.type])
    .filter((issue) => perDocument.every((issues) => issues.some((i) => sameIssue(i, issue))));
  return [
    ...batchWide.map((issue) => ({ ...issue, documentIndex: null })),
    ...perDocument.flatMap((issues, documentIndex) =>
      issues.filter((issue) => !batchWide.some((b) => sameIssue(b, issue))).map((issue) => ({ ...issue, documentIndex })),
    ),
  ];
}
