import { Module } from '@nestjs/common';
import { RequestBodyModule } from '../request-body/request-body.module';
import {
  FontRepository,
  OrganisationRepository,
  ProjectRepository,
  SignedLinkQuery,
  TemplateListingQuery,
  TemplateRepository,
  TemplateVersionListingQuery,
  TemplateVersionRepository,
} from '@docrender/persistence';
import { PersistenceModule, renderServiceProviders } from '@docrender/platform';
import { PreviewImageFileController } from './preview-image-file.controller';
import { PreviewImageService } from './preview-image.service';
import { previewImageLinksProvider } from './preview-image-link';
import { TemplatesController } from './templates.controller';
import { TemplatesService } from './templates.service';

/** Spec 4.7–4.12. Exports TemplatesService (organisation-scoped template and version lookups with the spec's 404 codes). */
@Module({
  imports: [
    RequestBodyModule,
    PersistenceModule.forFeature({
      repositories: [
        TemplateRepository,
        TemplateVersionRepository,
        ProjectRepository,
        TemplateListingQuery,
        TemplateVersionListingQuery,
        FontRepository,
        SignedLinkQuery,
        OrganisationRepository,
      ],
    }),
  ],
  controllers: [TemplatesController, PreviewImageFileController],
  providers: [TemplatesService, PreviewImageService, previewImageLinksProvider, ...renderServiceProviders],
  exports: [TemplatesService],
})
export class TemplatesModule {}
