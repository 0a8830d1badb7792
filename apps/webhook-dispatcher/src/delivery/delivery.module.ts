import { Module } from '@nestjs/common';
import { WebhookDeliveryRepository, WebhookSecretRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { CallbackConsumer } from './callback.consumer';
import { CallbackReaperService } from './callback-reaper.service';

/** Signs and delivers job callbacks with durable retries (spec part 6); re-sends those whose message was lost. */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [WebhookDeliveryRepository, WebhookSecretRepository], exclusivePasses: true })],
  providers: [CallbackConsumer, CallbackReaperService],
})
export class DeliveryModule {}
