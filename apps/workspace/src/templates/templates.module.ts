import { Module } from '@nestjs/common';
import { TemplateListingQuery, TemplateRepository, TemplateVersionRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { ExamplesCatalog, findExamplesDir } from './examples.catalog';
import { TemplatesController } from './templates.controller';
import { WorkspaceTemplates } from './templates.service';

/** The organisation's templates and their versions, and the examples a new template starts from. */
@Module({
  imports: [
    PersistenceModule.forFeature({
      repositories: [TemplateRepository, TemplateVersionRepository, TemplateListingQuery],
      transactions: ['templates', 'templateVersions'],
    }),
  ],
  controllers: [TemplatesController],
  providers: [{ provide: ExamplesCatalog, useFactory: () => new ExamplesCatalog(findExamplesDir()) }, WorkspaceTemplates],
})
export class TemplatesModule {}
