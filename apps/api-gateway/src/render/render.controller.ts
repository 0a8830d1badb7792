import { Controller, HttpCode, Inject, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { conformanceHeader, DomainError, Environment, ErrorCode, Limits, RateLimitCategory, type RenderEnvelopeDto, type ValidateResponseDto } from '@docrender/contracts';
import { ApiBearerKey, ApiKeyGuard, CurrentCaller, type Caller } from '../auth';
import { OverlapRateLimit, RateLimited, RateLimitGuard, withPermit } from '../rate-limit';
import { RenderBodyParser } from '../request-body/render-body.parser';
import { wantsRawPdf } from './pdf-response';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { templateIdOf, versionNumberOf } from '../listing/path-params';
import { RenderQueryDto } from './render-request.dto';
import { ApiRenderEndpoint, ApiTemplateIdParam, ApiValidateEndpoint, ApiVersionParam } from './render.openapi';
import { RenderValidationService } from './render-validation.service';
import { SyncDocumentSender } from './sync-document.sender';
import { RenderBatch, RenderTargetResolver, UndeliveredAnswers, type BatchRenderResult, type RenderTarget } from '@docrender/rendering';
import { contentDisposition, LOGGER, ViewUrlSigner } from '@docrender/platform';
import type { Logger } from '@docrender/observability';
import { RenderedPdfReader } from './rendered-pdf.reader';

/**
 * Spec 4.2: render stored templates, one document or a synchronous batch. The answer is the render envelope (2.6)
 * for every outcome, or, for `Accept: application/pdf` and one document, the PDF itself (422 with the envelope when
 * that document is blocked, fails or finds no credit). Spec 4.4: validate documents against a stored template.
 */
@ApiTags('render')
@ApiBearerKey()
@RateLimited(RateLimitCategory.Render)
// The template lookup of every route here overlaps the rate-limit round trip (withPermit).
@OverlapRateLimit()
@UseGuards(ApiKeyGuard, RateLimitGuard)
@Controller('v1/render')
export class RenderController {
  constructor(
    private readonly bodies: RenderBodyParser,
    private readonly targets: RenderTargetResolver,
    private readonly batches: RenderBatch,
    private readonly sender: SyncDocumentSender,
    private readonly envelopes: RenderEnvelopePresenter,
    private readonly pdfs: RenderedPdfReader,
    private readonly viewUrls: ViewUrlSigner,
    private readonly validation: RenderValidationService,
    private readonly undelivered: UndeliveredAnswers,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Post(':templateId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Render the latest published version', operationId: 'renderLatestVersion' })
  @ApiTemplateIdParam()
  @ApiRenderEndpoint()
  async renderLatest(
    @CurrentCaller() caller: Caller,
    @Param('templateId') templateId: string,
    @Query() query: RenderQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.render(caller, templateIdOf(templateId), null, query, req, res);
  }

  @Post(':templateId/versions/:version')
  @HttpCode(200)
  @ApiOperation({ summary: 'Render a specific version (a draft may be addressed this way)', operationId: 'renderVersion' })
  @ApiTemplateIdParam()
  @ApiVersionParam()
  @ApiRenderEndpoint()
  async renderVersion(
    @CurrentCaller() caller: Caller,
    @Param('templateId') templateId: string,
    @Param('version') version: string,
    @Query() query: RenderQueryDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const template = templateIdOf(templateId);
    await this.render(caller, template, versionNumberOf(version, template), query, req, res);
  }

  @Post(':templateId/validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate documents against the latest published version (no render, no credit)', operationId: 'validateLatestVersion' })
  @ApiTemplateIdParam()
  @ApiValidateEndpoint()
  validateLatest(@CurrentCaller() caller: Caller, @Param('templateId') templateId: string, @Req() req: Request): Promise<ValidateResponseDto> {
    return this.validate(caller, templateIdOf(templateId), null, req);
  }

  @Post(':templateId/versions/:version/validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate documents against a specific version (no render, no credit)', operationId: 'validateVersion' })
  @ApiTemplateIdParam()
  @ApiVersionParam()
  @ApiValidateEndpoint()
  validateVersion(
    @CurrentCaller() caller: Caller,
    @Param('templateId') templateId: string,
    @Param('version') version: string,
    @Req() req: Request,
  ): Promise<ValidateResponseDto> {
    const template = templateIdOf(templateId);
    return this.validate(caller, template, versionNumberOf(version, template), req);
  }

  private async validate(caller: Caller, templateId: string, version: number | null, req: Request): Promise<ValidateResponseDto> {
    const target = await withPermit(req, this.targets.forStoredTemplate(caller, templateId, version, { requested: null }));
    const body = await this.bodies.validateBody(req);
    return { issues: await this.validation.validate(target, body) };
  }

  private async render(caller: Caller, templateId: string, version: number | null, query: RenderQueryDto, req: Request, res: Response): Promise<void> {
    const target = await withPermit(req, this.targets.forStoredTemplate(caller, templateId, version, { requested: query.language ?? null }));
    const body = await this.bodies.renderBody(req);
    const rawPdf = wantsRawPdf(req.headers.accept);
    if (rawPdf && body.documents.length > 1) {
      throw new DomainError(ErrorCode.NotAcceptable, `Accept: application/pdf needs exactly one document; got ${body.documents.length}`);
    }
    if (caller.environment === Environment.Test && body.documents.length > Limits.testKeyBatchCap) {
      throw new DomainError(
        ErrorCode.ValidationError,
        `a test key renders at most ${Limits.testKeyBatchCap} documents per request; got ${body.documents.length}`,
      );
    }
    const persist = query.persist ?? true;
    const wantsPdfBytes = rawPdf || !persist || body.includeDocument;
    const render = this.sender.documentsOf(target, body.raw, wantsPdfBytes);
    // A retry after a 5xx never pays twice for the same input (decision 0041): what an earlier answer of this very
    // request paid for and could not deliver is answered as it is.
    const how = { environment: caller.environment, templateId, version, persist, language: query.language ?? null, rawPdf, includeDocument: body.includeDocument };
    const { result, answer: send } = await this.undelivered.renderOnce(
      { organisationId: target.organisationId, fingerprint: UndeliveredAnswers.fingerprint(how, body.raw) },
      (paid) => this.batches.render({ target, documents: body.documents, persist, render, requestId: randomUUID(), paid }),
      async (rendered) => {
        if (rawPdf) return this.pdfAnswer(rendered, target, res);
        const envelope = await this.envelopes.envelope(rendered, target, body.includeDocument);
        return () => void res.status(200).json(envelope);
      },
      (error, documents) => this.logger.error('paid documents whose answer failed could not be kept for the retry', { err: error, documents }),
    );
    // the answer holds every PDF it sends: the persist=false ones are no longer needed
    await this.pdfs.discard(result.rendered);
    send();
  }

  /** The raw PDF variant, made and ready to send: the one document's PDF with the headers of spec 4.2, or 422 with the envelope. */
  private async pdfAnswer(result: BatchRenderResult, target: RenderTarget, res: Response): Promise<() => void> {
    const [document] = result.rendered;
    if (document === undefined) {
      const envelope: RenderEnvelopeDto = await this.envelopes.envelope(result, target, false);
      return () => res.status(422).json(envelope);
    }
    const pdf = await this.pdfs.read(document);
    const headers: Record<string, string> = {
      'Content-Type': 'application/pdf',
      'Content-Disposition': contentDisposition('attachment', document.documentName),
      'X-Service-Page-Count': String(document.pageCount),
      'X-Service-Render-Duration-Ms': String(document.renderDurationMs),
      'X-Service-Conformance': conformanceHeader(document.conformance),
    };
    if (document.id !== null) {
      headers['X-Service-Document-Id'] = document.id;
      headers['X-Service-View-Url'] = this.viewUrls.sign(document.id);
    }
    if (document.issues.length > 0) headers['X-Service-Issue-Count'] = String(document.issues.length);
    return () => res.status(200).set(headers).end(pdf);
  }
}
