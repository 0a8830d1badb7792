import { Module } from '@nestjs/common';
import { StoredDocumentRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { RetentionSweepService } from './retention-sweep.service';

/** The periodic retention sweep of stored PDFs (spec 3.3). */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [StoredDocumentRepository], exclusivePasses: true })],
  providers: [RetentionSweepService],
  exports: [RetentionSweepService],
})
export class RetentionModule {}
