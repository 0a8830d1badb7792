import { Inject, Injectable } from '@nestjs/common';
import {
  DocumentType,
  renderStatusOf,
  type RenderedDocumentDto,
  type RenderEnvelopeDto,
  type RenderIssueDto,
} from '@docrender/contracts';
import type { Logger } from '@docrender/observability';
import { LOGGER, ViewUrlSigner } from '@docrender/platform';
import type { BatchRenderResult, RenderedDocument, RenderTarget } from '@docrender/rendering';
import { RenderedPdfReader } from './rendered-pdf.reader';

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The human-readable summary of an envelope (spec 2.6: not for parsing). */
export function envelopeMessage(result: BatchRenderResult): string {
  const rendered = result.rendered.length;
  const requested = result.requestedCount;
  const reasons: string[] = [];
  if (result.blockedCount > 0) reasons.push(`${result.blockedCount} blocked by issues`);
  if (result.failedCount > 0) {
    const failure = result.firstFailure ? ` (${result.firstFailure.code}: ${result.firstFailure.message})` : '';
    reasons.push(`${result.failedCount} failed to render${failure}`);
  }
  const why = reasons.length > 0 ? `; ${reasons.join(', ')}` : '';
  const uncertain =
    result.uncertain.length === 0
      ? ''
      : ` The database went away while document(s) ${result.uncertain.join(', ')} were being recorded: they are answered, but a stored one whose GET /v1/documents/{id} answers 404 was neither stored nor charged.`;
  return summary(result, rendered, requested, why) + uncertain;
}

function summary(result: BatchRenderResult, rendered: number, requested: number, why: string): string {
  if (result.creditStopped) {
    return `Page credit ran out: ${rendered} of ${plural(requested, 'document')} rendered, the rest were not rendered${why}.`;
  }
  if (rendered === requested) return requested === 1 ? 'The document was rendered.' : `All ${plural(requested, 'document')} were rendered.`;
  if (rendered === 0) return `No document was rendered${why}; see issues.`;
  return `${rendered} of ${plural(requested, 'document')} rendered${why}; see issues.`;
}

/**
 * Turns the result of a render into the spec 2.6 envelope: documents correlated by documentIndex (blocked ones leave
 * gaps), id and viewUrl null when persist=false, the PDF in documentBase64 when includeDocument=true or
 * persist=false. Transient PDFs are deleted by the caller once the answer holds them (RenderedPdfReader.discard).
 */
@Injectable()
export class RenderEnvelopePresenter {
  constructor(
    private readonly pdfs: RenderedPdfReader,
    private readonly viewUrls: ViewUrlSigner,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async envelope(
    result: BatchRenderResult,
    target: RenderTarget,
    includeDocument: boolean,
    now: Date = new Date(),
  ): Promise<RenderEnvelopeDto> {
    if (result.interruption !== null) {
      // Answered 200 with what was paid for (decision 0028): the error reaches no exception filter, so it is logged here.
      this.logger.error('sync batch interrupted; answering the documents paid for', {
        err: result.interruption.cause,
        rendered: result.rendered.length,
        requested: result.requestedCount,
        uncertain: result.uncertain.join(','),
      });
    }
    const documents = await Promise.all(result.rendered.map((d) => this.document(d, target, includeDocument, now)));
    return {
      status: renderStatusOf(result.requestedCount, result.rendered.length, result.creditStopped),
      message: envelopeMessage(result),
      requestedCount: result.requestedCount,
      renderedCount: result.rendered.length,
      missingCount: result.requestedCount - result.rendered.length,
      issues: result.issues as RenderIssueDto[],
      documents,
    };
  }

  private async document(document: RenderedDocument, target: RenderTarget, includeDocument: boolean, now: Date): Promise<RenderedDocumentDto> {
    const source = target.source;
    // A stateless render answers with the PDF itself; its envelope (422) never lists documents.
    if (source === null) throw new Error('a stateless render has no documents in an envelope');
    let documentBase64: string | null = null;
    if (includeDocument || document.transient) {
      documentBase64 = await this.pdfs.readBase64(document);
    }
    return {
      id: document.id,
      viewUrl: document.id === null ? null : this.viewUrls.sign(document.id, now),
      documentBase64,
      documentIndex: document.documentIndex,
      documentName: document.documentName,
      templateId: source.templateId,
      versionNumber: source.versionNumber,
      environment: target.environment,
      fileSizeBytes: document.fileSizeBytes,
      pageCount: document.pageCount,
      renderedAt: document.renderedAt.toISOString(),
      renderDuration: document.renderDurationMs,
      documentType: DocumentType.Template,
      language: target.language,
      conformance: document.conformance,
    };
  }
}
