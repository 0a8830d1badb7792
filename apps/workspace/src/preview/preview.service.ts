import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError, Environment, ErrorCode, IssueSeverity, type RenderIssue } from '@docrender/contracts';
import { documentOutcomeOf, inlinePdfOf, RenderServiceClient, RenderTargetResolver, transientPdfBlobKey } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { checkTemplateVersion, type TemplateError } from '@docrender/template-dsl/checks';

/** A preview's PDF comes back inside the render reply up to this size; a larger one is read from the blob store. */
const INLINE_PDF_MAX_BYTES = 8 * 1024 * 1024;

/** An issue as the workspace shows it: the render's issue, or a check's error with the JSON path it names. */
export type PreviewIssue = { type: string; severity: string; description: string; elementId: string | null; path: string | null };

export type PreviewResult = {
  outcome: 'rendered' | 'blocked' | 'failed' | 'invalid';
  issues: PreviewIssue[];
  pdf: Buffer | null;
  pageCount: number;
  renderDurationMs: number | null;
};

export type PreviewInput = { templateJson: string; sampleData: string; translations: string | null; documentNameTemplate: string | null; language: string | null };

const checkIssue = (error: TemplateError, type = 'BindingError'): PreviewIssue => ({
  type,
  severity: IssueSeverity.Error,
  description: error.message,
  elementId: null,
  path: error.path,
});

const renderIssueOf = (issue: RenderIssue): PreviewIssue => ({ type: issue.type, severity: issue.severity, description: issue.description, elementId: issue.elementId, path: null });

/**
 * The live preview (issue 35 item 3): the draft as typed, checked by the render's own checks and rendered by the
 * render service with test semantics (environment test: watermarked, only Error issues block, no credit is used and
 * nothing is stored), through the render use case of libs/rendering (RenderTargetResolver and the one
 * RenderServiceClient, as a caller holding a connection: no reply in time is a RenderTimeout issue), the same hardened
 * render (egress, DangerousContent) as the API's.
 */
@Injectable()
export class PreviewService {
  constructor(
    private readonly renderService: RenderServiceClient,
    @Inject(BLOB_STORE) private readonly blobStore: BlobStore,
    private readonly targets: RenderTargetResolver,
  ) {}

  async preview(organisationId: string, input: PreviewInput): Promise<PreviewResult> {
    const invalid = (issues: PreviewIssue[]): PreviewResult => ({ outcome: 'invalid', issues, pdf: null, pageCount: 0, renderDurationMs: null });
    const template = parse(input.templateJson, 'template');
    const sample = parse(input.sampleData, 'sampleData');
    const translations = input.translations === null ? { value: null } : parse(input.translations, 'translations');
    const unreadable = [template, sample, translations].flatMap((p) => ('error' in p ? [checkIssue(p.error, 'InvalidJson')] : []));
    if (unreadable.length > 0 || 'error' in template || 'error' in sample || 'error' in translations) return invalid(unreadable);
    const check = checkTemplateVersion({ template: template.value, translations: translations.value, documentNameTemplate: input.documentNameTemplate });
    if (!check.ok) return invalid(check.errors.map((e) => checkIssue(e)));
    const data = typeof sample.value === 'object' && sample.value !== null && 'data' in sample.value ? (sample.value as { data: unknown }).data : undefined;
    if (data === undefined) return invalid([checkIssue({ path: 'sampleData', message: 'must be a JSON object with a data member' })]);

    const stateless = await this.targets.forStatelessTemplate({ organisationId, environment: Environment.Test }, template.value, translations.value, input.language);
    const target = { ...stateless, documentNameTemplate: input.documentNameTemplate };
    const requestId = randomUUID();
    const outputBlobKey = transientPdfBlobKey(organisationId, requestId, 0);
    try {
      const reply = await this.renderService.renderForClient(target, { requestId, data: { inline: data }, outputBlobKey, inlinePdfMaxBytes: INLINE_PDF_MAX_BYTES });
      const outcome = documentOutcomeOf(reply);
      const issues = outcome.issues.map(renderIssueOf);
      if (outcome.outcome !== 'rendered') return { outcome: outcome.outcome, issues, pdf: null, pageCount: 0, renderDurationMs: reply.renderDurationMs };
      const inline = inlinePdfOf(outcome.pdf);
      const pdf = inline === null ? await this.blobStore.get(outcome.pdf.blobKey) : 'bytes' in inline ? inline.bytes : Buffer.from(inline.base64, 'base64');
      return { outcome: 'rendered', issues, pdf, pageCount: outcome.pdf.pageCount, renderDurationMs: reply.renderDurationMs };
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.ExternalServiceError) {
        return { outcome: 'failed', issues: [{ type: ErrorCode.ExternalServiceError, severity: IssueSeverity.Error, description: error.message, elementId: null, path: null }], pdf: null, pageCount: 0, renderDurationMs: null };
      }
      throw error;
    } finally {
      await this.blobStore.delete(outputBlobKey);
    }
  }
}

function parse(text: string, what: string): { value: unknown } | { error: TemplateError } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: { path: what, message: `not JSON: ${(error as Error).message}` } };
  }
}
