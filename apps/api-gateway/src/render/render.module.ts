import { Module } from '@nestjs/common';
import { egressSettings, Settings, type RenderApiSettings } from '@docrender/config';
import { FontRepository, RenderedDocumentLedger, TemplateRepository, UndeliveredRenderRepository, UsageRepository } from '@docrender/persistence';
import { RenderBatch, UndeliveredAnswers } from '@docrender/rendering';
import { PersistenceModule, renderServiceProviders } from '@docrender/platform';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { RequestBodyModule } from '../request-body/request-body.module';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { SyncDocumentSender } from './sync-document.sender';
import { SyncRenderService } from './sync-render.service';
import { renderTargetProvider } from './render-target.provider';
import { RENDER_API_SETTINGS } from '../request-body/request-body.tokens';
import { VALIDATION_EGRESS_POLICY } from './render.tokens';
import { RenderController } from './render.controller';
import { RenderedPdfReader } from './rendered-pdf.reader';
import { shareValidationEgressPolicy } from './render-validation';
import { RenderValidationService } from './render-validation.service';
import { StatelessRenderController } from './stateless-render.controller';

/**
 * The render endpoints of the gateway: single and batch render (spec 4.2), stateless render (4.3), validate (4.4).
 * Bodies are read by RequestBodyModule; the documents are rendered by the use case in libs/rendering (RenderBatch).
 */
@Module({
  imports: [
    RequestBodyModule,
    PersistenceModule.forFeature({ repositories: [TemplateRepository, FontRepository, RenderedDocumentLedger, UsageRepository, UndeliveredRenderRepository] }),
  ],
  controllers: [RenderController, StatelessRenderController],
  providers: [
    renderTargetProvider,
    ...renderServiceProviders,
    SyncDocumentSender,
    SyncRenderService,
    // The sync batch use case (libs/rendering) over the gateway's ledger, usage and blob store.
    {
      provide: RenderBatch,
      useFactory: (store: RenderedDocumentLedger, credit: UsageRepository, pdfs: BlobStore, settings: RenderApiSettings) =>
        new RenderBatch({ store, credit, pdfs, concurrency: settings.batchConcurrency }),
      inject: [RenderedDocumentLedger, UsageRepository, BLOB_STORE, RENDER_API_SETTINGS],
    },
    // Paid documents whose answer failed, kept for the same request's retry (decision 0041).
    { provide: UndeliveredAnswers, useFactory: (store: UndeliveredRenderRepository) => new UndeliveredAnswers(store), inject: [UndeliveredRenderRepository] },
    RenderedPdfReader,
    RenderEnvelopePresenter,
    // Before any validation worker starts (they start on first use): the policy its image checks apply.
    {
      provide: VALIDATION_EGRESS_POLICY,
      useFactory: (settings: Settings) => {
        const policy = settings.get(egressSettings);
        shareValidationEgressPolicy(policy);
        return policy;
      },
      inject: [Settings],
    },
    RenderValidationService,
  ],
})
export class RenderModule {}
