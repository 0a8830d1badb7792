import {
  DomainError,
  ErrorCode,
  MessageName,
  renderIssue,
  RenderIssueType,
  type RenderDocumentResult,
  type RenderPreviewCommand,
  type RenderPreviewResult,
} from '@docrender/contracts';
import { MessageBusUnavailableError, RequestTimeoutError, type MessageBus } from '@docrender/messaging';
import { renderCommand, type DocumentToRender, type RenderBudget } from './render-command';
import type { RenderTarget } from './render-target';

/** The message bus as the client uses it: request/reply. */
export type RenderServiceBus = Pick<MessageBus, 'request'>;

/**
 * The one way to the render service for every sender — the gateway's sync renders and template preview images, the
 * job worker, the workspace's live preview: request/reply over the message bus, the render budget counted from the
 * send, and one grace past it for the reply (RENDER_REPLY_GRACE_MS). What no answer means depends on who waits, and
 * is decided here, once:
 * - a caller holding a client's connection (`renderForClient`): no reply in time is the document's RenderTimeout issue
 *   (the render service abandoned it at its deadline); the bus unreachable is 500 ExternalServiceError;
 * - an async job (`renderForJob`): either is an outage of the render service, thrown as the bus's RequestTimeoutError
 *   or MessageBusUnavailableError for the job's outage handling, which waits and renders the document again;
 * - a template preview image (`previewImage`): either is 500 ExternalServiceError.
 */
export class RenderServiceClient {
  constructor(
    private readonly bus: RenderServiceBus,
    readonly budget: RenderBudget,
    private readonly replyGraceMs: number,
  ) {}

  /** How long a sender waits for a reply: the budget and the grace past it. */
  get replyTimeoutMs(): number {
    return this.budget.replyTimeoutMs(this.replyGraceMs);
  }

  /** One document of an async job; no reply in time, or no bus, is thrown as an outage. */
  renderForJob(target: RenderTarget, document: DocumentToRender): Promise<RenderDocumentResult> {
    return this.bus.request(MessageName.RenderDocument, renderCommand(target, document, this.budget), { timeoutMs: this.replyTimeoutMs });
  }

  /** One document for a caller holding a client's connection; no reply in time is a failed document (RenderTimeout). */
  async renderForClient(target: RenderTarget, document: DocumentToRender): Promise<RenderDocumentResult> {
    const started = Date.now();
    try {
      return await this.renderForJob(target, document);
    } catch (error) {
      if (error instanceof RequestTimeoutError) return this.timedOut(target, Date.now() - started);
      if (error instanceof MessageBusUnavailableError) throw new DomainError(ErrorCode.ExternalServiceError, 'the render service cannot be reached; retry later');
      throw error;
    }
  }

  /** A template version's preview image (spec 2.3); the deadline is the render budget from now. */
  async previewImage(command: Omit<RenderPreviewCommand, 'deadline'>): Promise<RenderPreviewResult> {
    try {
      return await this.bus.request(MessageName.RenderPreview, { ...command, deadline: this.budget.deadline() }, { timeoutMs: this.replyTimeoutMs });
    } catch (error) {
      if (error instanceof RequestTimeoutError || error instanceof MessageBusUnavailableError) {
        throw new DomainError(ErrorCode.ExternalServiceError, `the render service could not make the preview image now: ${error.message}`);
      }
      throw error;
    }
  }

  private timedOut(target: RenderTarget, elapsedMs: number): RenderDocumentResult {
    const message = `no render result within the ${this.budget.budgetMs} ms render budget`;
    return {
      outcome: 'failed',
      issues: [renderIssue(RenderIssueType.RenderTimeout, message)],
      documentName: target.fallbackDocumentName,
      pdf: null,
      renderDurationMs: elapsedMs,
      failure: { code: ErrorCode.RenderTimeout, message },
    };
  }
}
