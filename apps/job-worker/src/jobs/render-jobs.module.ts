import { Module } from '@nestjs/common';
import { RenderJobConsumer } from './render-job.consumer';

/** Runs async render jobs from the job.run queue and relays their callbacks to the webhook dispatcher. */
@Module({ providers: [RenderJobConsumer] })
export class RenderJobsModule {}
