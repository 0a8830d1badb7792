import { Module } from '@nestjs/common';
import { FontRepository, TemplateRepository } from '@docrender/persistence';
import { PersistenceModule, renderServiceProviders } from '@docrender/platform';
import { RenderTargetResolver } from '@docrender/rendering';
import { PreviewController } from './preview.controller';
import { PreviewService } from './preview.service';

/** The live preview: a draft rendered by the render service through the one client, as a sync render is. */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [TemplateRepository, FontRepository] })],
  controllers: [PreviewController],
  providers: [
    ...renderServiceProviders,
    {
      provide: RenderTargetResolver,
      useFactory: (templates: TemplateRepository, fonts: FontRepository) => new RenderTargetResolver(templates, fonts),
      inject: [TemplateRepository, FontRepository],
    },
    PreviewService,
  ],
})
export class PreviewModule {}
