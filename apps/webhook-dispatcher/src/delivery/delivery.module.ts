import { Module } from '@nestjs/common';
import { CallbackConsumer } from './callback.consumer';
import { CallbackReaperService } from './callback-reaper.service';

/** Signs and delivers job callbacks with durable retries (spec part 6); re-sends those whose message was lost. */
@Module({ providers: [CallbackConsumer, CallbackReaperService] })
export class DeliveryModule {}
