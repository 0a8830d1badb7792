import { Module } from '@nestjs/common';
import { CallbackConsumer } from './callback.consumer';

/** Signs and delivers job callbacks with durable retries (spec part 6). */
@Module({ providers: [CallbackConsumer] })
export class DeliveryModule {}
