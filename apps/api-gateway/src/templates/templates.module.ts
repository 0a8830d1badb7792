import { Module } from '@nestjs/common';
import { RequestBodyModule } from '../request-body/request-body.module';
import { renderServiceProviders } from '@docrender/platform';
import { PreviewImageFileController } from './preview-image-file.controller';
import { PreviewImageService } from './preview-image.service';
import { previewImageLinksProvider } from './preview-image-link';
import { TemplatesController } from './templates.controller';
import { TemplatesService } from './templates.service';

/** Spec 4.7–4.12. Exports TemplatesService (organisation-scoped template and version lookups with the spec's 404 codes). */
@Module({
  imports: [RequestBodyModule],
  controllers: [TemplatesController, PreviewImageFileController],
  providers: [TemplatesService, PreviewImageService, previewImageLinksProvider, ...renderServiceProviders],
  exports: [TemplatesService],
})
export class TemplatesModule {}
