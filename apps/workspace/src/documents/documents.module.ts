import { Module } from '@nestjs/common';
import { DocumentListingQuery, OrganisationRepository, StoredDocumentRepository, UsageRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { DocumentsController } from './documents.controller';

/** The organisation's stored documents and its usage. */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [OrganisationRepository, UsageRepository, DocumentListingQuery, StoredDocumentRepository] })],
  controllers: [DocumentsController],
})
export class DocumentsModule {}
