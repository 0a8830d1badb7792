import { Module } from '@nestjs/common';
import { WebhookDeliveryRepository } from '@docrender/persistence';
import { PersistenceModule } from '@docrender/platform';
import { DeliveriesController } from './deliveries.controller';

/** The organisation's webhook deliveries, their attempts, and redelivery. */
@Module({
  imports: [PersistenceModule.forFeature({ repositories: [WebhookDeliveryRepository], transactions: ['webhookDeliveries'] })],
  controllers: [DeliveriesController],
})
export class DeliveriesModule {}
