import { Controller, HttpCode, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { conformanceHeader, DomainError, Environment, ErrorCode, Limits, RateLimitCategory, type ValidateResponseDto } from '@docrender/contracts';
import { ApiBearerKey, ApiKeyGuard, CurrentCaller, type Caller } from '../auth';
import { OverlapRateLimit, RateLimited, RateLimitGuard, withPermit } from '../rate-limit';
import { RenderBodyParser } from '../request-body/render-body.parser';
import { wantsRawPdf } from './pdf-response';
import { templateIdOf, versionNumberOf } from '../listing/path-params';
import { RenderQueryDto } from './render-request.dto';
import { ApiRenderEndpoint, ApiTemplateIdParam, ApiValidateEndpoint, ApiVersionParam } from './render.openapi';
import { RenderValidationService } from './render-validation.service';
import { SyncRenderService } from './sync-render.service';
import { RenderTargetResolver, type BatchRenderResult, type RenderTarget } from '@docrender/rendering';
import { contentDisposition, ViewUrlSigner } from '@docrender/platform';

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
    private readonly renders: SyncRenderService,
    private readonly viewUrls: ViewUrlSigner,
    private readonly validation: RenderValidationService,
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
    const how = { environment: caller.environment, templateId, version, persist, language: query.language ?? null, rawPdf, includeDocument: body.includeDocument };
    await this.renders.renderAndAnswer(
      { target, raw: body.raw, documents: body.documents, persist, wantsPdfBytes: rawPdf || !persist || body.includeDocument, how },
      (rendered) => (rawPdf ? this.pdfAnswer(rendered, target, res) : this.renders.envelopeAnswer(rendered, target, body.includeDocument, 200, res)),
    );
  }

  /** The raw PDF variant, made and ready to send: the one document's PDF with the headers of spec 4.2, or 422 with the envelope. */
  private pdfAnswer(result: BatchRenderResult, target: RenderTarget, res: Response): Promise<() => void> {
    const [document] = result.rendered;
    if (document === undefined) return this.renders.envelopeAnswer(result, target, false, 422, res);
    return this.renders.pdfAnswer(document, res, () => {
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
      return headers;
    });
  }
}
