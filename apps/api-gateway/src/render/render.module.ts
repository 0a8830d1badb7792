import { Module } from '@nestjs/common';
import { renderBudgetSettings, Settings } from '@docrender/config';
import { RenderBudget } from '@docrender/rendering';
import { RequestBodyModule } from './body/request-body.module';
import { RenderServiceClient } from './render-service.client';
import { RenderBatchService } from './render-batch.service';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { RenderTargetFactory } from './render-target.factory';
import { RenderController } from './render.controller';
import { RenderedPdfReader } from './rendered-pdf.reader';
import { RenderValidationService } from './render-validation.service';
import { StatelessRenderController } from './stateless-render.controller';

/**
 * The render endpoints of the gateway: single and batch render (spec 4.2), stateless render (4.3), validate (4.4).
 * Bodies are read by RequestBodyModule.
 */
@Module({
  imports: [RequestBodyModule],
  controllers: [RenderController, StatelessRenderController],
  providers: [
    RenderTargetFactory,
    { provide: RenderBudget, useFactory: (settings: Settings) => new RenderBudget(settings.get(renderBudgetSettings).renderBudgetMs), inject: [Settings] },
    RenderServiceClient,
    RenderBatchService,
    RenderedPdfReader,
    RenderEnvelopePresenter,
    RenderValidationService,
  ],
})
export class RenderModule {}
