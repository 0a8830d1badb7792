import { Module } from '@nestjs/common';
import type { RenderApiSettings } from '@docrender/config';
import { RenderedDocumentLedger, UsageRepository } from '@docrender/persistence';
import { RenderBatch } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { RequestBodyModule } from './body/request-body.module';
import { RenderServiceClient } from './render-service.client';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { renderBudgetProvider } from './render-budget.provider';
import { renderTargetProvider } from './render-target.provider';
import { RENDER_API_SETTINGS } from './render.tokens';
import { RenderController } from './render.controller';
import { RenderedPdfReader } from './rendered-pdf.reader';
import { RenderValidationService } from './render-validation.service';
import { StatelessRenderController } from './stateless-render.controller';

/**
 * The render endpoints of the gateway: single and batch render (spec 4.2), stateless render (4.3), validate (4.4).
 * Bodies are read by RequestBodyModule; the documents are rendered by the use case in libs/rendering (RenderBatch).
 */
@Module({
  imports: [RequestBodyModule],
  controllers: [RenderController, StatelessRenderController],
  providers: [
    renderTargetProvider,
    renderBudgetProvider,
    RenderServiceClient,
    // The sync batch use case (libs/rendering) over the gateway's ledger, usage and blob store.
    {
      provide: RenderBatch,
      useFactory: (store: RenderedDocumentLedger, credit: UsageRepository, pdfs: BlobStore, settings: RenderApiSettings) =>
        new RenderBatch({ store, credit, pdfs, concurrency: settings.batchConcurrency }),
      inject: [RenderedDocumentLedger, UsageRepository, BLOB_STORE, RENDER_API_SETTINGS],
    },
    RenderedPdfReader,
    RenderEnvelopePresenter,
    RenderValidationService,
  ],
})
export class RenderModule {}
