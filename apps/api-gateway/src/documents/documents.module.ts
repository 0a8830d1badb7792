import { Module } from '@nestjs/common';
import { DocumentListingQuery, SignedLinkQuery } from '@docrender/persistence';
import { queryProvider } from '../listing/query-provider';
import { DocumentFileAccessGuard } from './document-file-access.guard';
import { DocumentsController } from './documents.controller';
import { DocumentsService } from './documents.service';

/** Spec 4.13–4.15. ViewUrlSigner comes from ViewUrlModule, the guards from AuthModule and RateLimitModule. */
@Module({
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentFileAccessGuard, queryProvider(DocumentListingQuery), queryProvider(SignedLinkQuery)],
})
export class DocumentsModule {}
