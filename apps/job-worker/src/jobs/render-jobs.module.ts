import { Module } from '@nestjs/common';
import { RunJobOutboxRelay } from '@docrender/platform';
import { RenderJobConsumer } from './render-job.consumer';

/**
 * Runs async render jobs from the job.run queue and relays their callbacks to the webhook dispatcher; relays the
 * job.run messages of accepted jobs too (as the gateway does), so they do not wait for a gateway that can publish.
 */
@Module({ providers: [RenderJobConsumer, RunJobOutboxRelay] })
export class RenderJobsModule {}
