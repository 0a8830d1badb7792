import { Module } from '@nestjs/common';
import { DocumentFileAccessGuard } from './document-file-access.guard';
import { DocumentsController } from './documents.controller';
import { DocumentsService } from './documents.service';

/**
 * Spec 4.13–4.15. ViewUrlSigner comes from ViewUrlModule, the guards from AuthModule and RateLimitModule, the listing
 * and signed-link queries from the global InfrastructureModule.
 */
@Module({
  controllers: [DocumentsController],
  providers: [DocumentsService, DocumentFileAccessGuard],
})
export class DocumentsModule {}
