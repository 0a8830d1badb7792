import { DynamicModule, Module } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, Infrastructure, messageBusCheck, ProbesModule } from '@docrender/platform';
import { DeliveryModule } from './delivery/delivery.module';

/** The webhook-dispatcher's root module: delivers the callbacks of async jobs (webhook.deliver). */
@Module({})
export class WebhookDispatcherModule {
  static register(infrastructure: Infrastructure): DynamicModule {
    return {
      module: WebhookDispatcherModule,
      imports: [
        ProbesModule.register({
          checks: () => [databaseCheck(infrastructure.database), blobStoreCheck(infrastructure.blobStore), messageBusCheck(infrastructure.bus)],
          bus: infrastructure.bus,
        }),
        DeliveryModule,
      ],
    };
  }
}
