import { Controller, HttpCode, Inject, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { conformanceHeader, DomainError, ERROR_HTTP_STATUS, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import { validateTemplate } from '@docrender/template-dsl/checks';
import { ApiBearerKey, ApiKeyGuard, CurrentCaller, type Caller } from '../auth';
import { RateLimited, RateLimitGuard } from '../rate-limit';
import { RenderBodyParser } from '../request-body/render-body.parser';
import { textOf } from '../request-body/render-body.binder';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { StatelessRenderQueryDto } from './render-request.dto';
import { ApiStatelessRenderEndpoint } from './render.openapi';
import { SyncDocumentSender } from './sync-document.sender';
import { RenderedPdfReader } from './rendered-pdf.reader';
import { RenderBatch, RenderTargetResolver, UndeliveredAnswers, type BatchRenderResult, type RenderTarget } from '@docrender/rendering';
import { LOGGER } from '@docrender/platform';
import type { Logger } from '@docrender/observability';

/** Template errors named in a 422 message; the rest are counted. */
const TEMPLATE_ERRORS_NAMED = 5;

/** The 500 code a failed render answers with: the render service's when it is one of ours, InternalError otherwise. */
function failureCode(code: string | undefined): ErrorCode {
  const known = Object.values(ErrorCode).find((c) => c === code);
  return known !== undefined && ERROR_HTTP_STATUS[known] === 500 ? known : ErrorCode.InternalError;
}

/**
 * Spec 4.3: render a template given in the body, answer with the PDF, store nothing. An invalid DSL is 422
 * BindingError naming the JSON path (`template.body[2].text: …`); a render past the 60 s budget is 500 RenderTimeout;
 * a render blocked by issues (or a production render without credit) answers 422 with the render envelope, like the
 * raw PDF variant of 4.2. A test key watermarks the output. A retry after a 5xx never pays twice for the same input
 * (decision 0041): a PDF paid for whose answer failed is kept for the same request's retry, as on the stored-template
 * route.
 */
@ApiTags('render')
@ApiBearerKey()
@RateLimited(RateLimitCategory.Render)
@UseGuards(ApiKeyGuard, RateLimitGuard)
@Controller('v1/render')
export class StatelessRenderController {
  constructor(
    private readonly bodies: RenderBodyParser,
    private readonly targets: RenderTargetResolver,
    private readonly batches: RenderBatch,
    private readonly sender: SyncDocumentSender,
    private readonly envelopes: RenderEnvelopePresenter,
    private readonly pdfs: RenderedPdfReader,
    private readonly undelivered: UndeliveredAnswers,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: 'Render a template given in the body (nothing is stored)', operationId: 'renderStateless' })
  @ApiStatelessRenderEndpoint()
  async render(@CurrentCaller() caller: Caller, @Query() query: StatelessRenderQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const body = await this.bodies.statelessBody(req);
    const template = JSON.parse(textOf(body.raw, body.template)) as unknown;
    const validation = validateTemplate(template);
    if (!validation.ok) {
      const named = validation.errors.slice(0, TEMPLATE_ERRORS_NAMED).map((e) => `template${e.path.slice(1)}: ${e.message}`);
      const more = validation.errors.length - named.length;
      throw new DomainError(ErrorCode.BindingError, `invalid template DSL: ${named.join('; ')}${more > 0 ? `; and ${more} more` : ''}`);
    }
    const translations = body.translations === null ? null : (JSON.parse(textOf(body.raw, body.translations)) as unknown);
    const target = await this.targets.forStatelessTemplate(caller, template, translations, query.language ?? null);
    const render = this.sender.documentsOf(target, body.raw, true);
    const how = { environment: caller.environment, stateless: true, language: query.language ?? null };
    const { result, answer: send } = await this.undelivered.renderOnce(
      { organisationId: target.organisationId, fingerprint: UndeliveredAnswers.fingerprint(how, body.raw) },
      (paid) => this.batches.render({ target, documents: [body.data], persist: false, render, requestId: randomUUID(), paid }),
      (rendered) => this.answer(rendered, target, res),
      (error, documents) => this.logger.error('paid documents whose answer failed could not be kept for the retry', { err: error, documents }),
    );
    // the answer holds the PDF it sends
    await this.pdfs.discard(result.rendered);
    send();
  }

  /** The answer, made and ready to send: the PDF (200), or the envelope of a blocked render (422); a failed render throws. */
  private async answer(result: BatchRenderResult, target: RenderTarget, res: Response): Promise<() => void> {
    const [document] = result.rendered;
    if (document !== undefined) {
      const pdf = await this.pdfs.read(document);
      // the conformance of the PDF is the one header a stateless render answers (decision 0032)
      return () => void res.status(200).set({ 'Content-Type': 'application/pdf', 'X-Service-Conformance': conformanceHeader(document.conformance) }).end(pdf);
    }
    this.throwWhenFailed(result);
    const envelope = await this.envelopes.envelope(result, target, false);
    return () => void res.status(422).json(envelope);
  }

  /** Spec 4.3: a render that failed (rather than being blocked) is a 500, RenderTimeout past the budget. */
  private throwWhenFailed(result: BatchRenderResult): void {
    if (result.failedCount === 0) return;
    const failure = result.firstFailure;
    throw new DomainError(failureCode(failure?.code), `the render failed: ${failure?.message ?? 'no reason given'}`);
  }
}
