import { Controller, HttpCode, type OnModuleInit, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { conformanceHeader, DomainError, ERROR_HTTP_STATUS, ErrorCode, RateLimitCategory } from '@docrender/contracts';
import { compileTemplateValidator, validateTemplate } from '@docrender/template-dsl/checks';
import { ApiBearerKey, ApiKeyGuard, CurrentCaller, type Caller } from '../auth';
import { RateLimited, RateLimitGuard } from '../rate-limit';
import { RenderBodyParser } from '../request-body/render-body.parser';
import { textOf } from '../request-body/render-body.binder';
import { StatelessRenderQueryDto } from './render-request.dto';
import { ApiStatelessRenderEndpoint } from './render.openapi';
import { SyncRenderService } from './sync-render.service';
import { RenderTargetResolver, type BatchRenderResult, type RenderTarget } from '@docrender/rendering';

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
export class StatelessRenderController implements OnModuleInit {
  constructor(
    private readonly bodies: RenderBodyParser,
    private readonly targets: RenderTargetResolver,
    private readonly renders: SyncRenderService,
  ) {}

  /** The template validator compiled at start: the first stateless render does not hold the event loop for it. */
  onModuleInit(): void {
    compileTemplateValidator();
  }

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
    const how = { environment: caller.environment, stateless: true, language: query.language ?? null };
    await this.renders.renderAndAnswer({ target, raw: body.raw, documents: [body.data], persist: false, wantsPdfBytes: true, how }, (rendered) =>
      this.answer(rendered, target, res),
    );
  }

  /** The answer, made and ready to send: the PDF (200), or the envelope of a blocked render (422); a failed render throws. */
  private answer(result: BatchRenderResult, target: RenderTarget, res: Response): Promise<() => void> {
    const [document] = result.rendered;
    // the conformance of the PDF is the one header a stateless render answers (decision 0032)
    if (document !== undefined) return this.renders.pdfAnswer(document, res, () => ({ 'Content-Type': 'application/pdf', 'X-Service-Conformance': conformanceHeader(document.conformance) }));
    this.throwWhenFailed(result);
    return this.renders.envelopeAnswer(result, target, false, 422, res);
  }

  /** Spec 4.3: a render that failed (rather than being blocked) is a 500, RenderTimeout past the budget. */
  private throwWhenFailed(result: BatchRenderResult): void {
    if (result.failedCount === 0) return;
    const failure = result.firstFailure;
    throw new DomainError(failureCode(failure?.code), `the render failed: ${failure?.message ?? 'no reason given'}`);
  }
}
