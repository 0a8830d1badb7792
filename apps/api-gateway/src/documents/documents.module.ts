import { Module } from '@nestjs/common';
import { DocumentListingQuery, OrganisationRepository, SignedLinkQuery, StoredDocumentRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { DocumentFileAccessGuard } from './document-file-access.guard';
import { DocumentsController } from './documents.controller';
import { DocumentsService } from './documents.service';

/**
 * Spec 4.13–4.15. ViewUrlSigner comes from ViewUrlModule, the guards from AuthModule and RateLimitModule.
 */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [StoredDocumentRepository, DocumentListingQuery, SignedLinkQuery, OrganisationRepository] })],
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentFileAccessGuard],
})
export class DocumentsModule {}
