import { Module } from '@nestjs/common';
import { loadSettings, renderApiSettings } from '@docrender/config';
import { FontRepository } from '@docrender/persistence';
import { DATA_SOURCE } from '@docrender/platform';
import type { DataSource } from 'typeorm';
import { RenderBodyParser } from './body/render-body.parser';
import { DocumentRenderer } from './document.renderer';
import { RenderBatchService } from './render-batch.service';
import { RenderEnvelopePresenter } from './render-envelope.presenter';
import { RenderTargetFactory } from './render-target.factory';
import { RenderTemplateResolver } from './render-template.resolver';
import { RenderController } from './render.controller';
import { RENDER_API_SETTINGS } from './render.tokens';
import { RenderedPdfReader } from './rendered-pdf.reader';
import { RenderValidationService } from './render-validation.service';
import { StatelessRenderController } from './stateless-render.controller';

/**
 * The render endpoints of the gateway: single and batch render (spec 4.2), stateless render (4.3), validate (4.4).
 * RENDER_API_* settings are read at start.
 */
@Module({
  controllers: [RenderController, StatelessRenderController],
  providers: [
    { provide: RENDER_API_SETTINGS, useFactory: () => loadSettings(renderApiSettings, process.env) },
    { provide: FontRepository, useFactory: (dataSource: DataSource) => new FontRepository(dataSource.manager), inject: [DATA_SOURCE] },
    RenderBodyParser,
    RenderTemplateResolver,
    RenderTargetFactory,
    DocumentRenderer,
    RenderBatchService,
    RenderedPdfReader,
    RenderEnvelopePresenter,
    RenderValidationService,
  ],
})
export class RenderModule {}
