import { Module } from '@nestjs/common';
import { egressSettings, jobsSettings, Settings } from '@docrender/config';
import { FontRepository, RenderJobRepository, TemplateRepository } from '@docrender/persistence';
import { PersistenceModule, RunJobOutboxRelay } from '@docrender/platform';
import { RequestBodyModule } from '../request-body/request-body.module';
import { renderTargetProvider } from '../render/render-target.provider';
import { CALLBACK_EGRESS_POLICY, JOBS_SETTINGS } from './jobs.tokens';
import { RenderJobEnqueueService } from './render-job-enqueue.service';
import { RenderJobStatusService } from './render-job-status.service';
import { RenderJobsController } from './render-jobs.controller';

/**
 * Async render jobs on the gateway: enqueue (spec 4.5), status (4.6) and the relay of job.run outbox messages.
 * The template, version and language checks are the sync render's (RenderTargetResolver of libs/rendering). JOBS_* and EGRESS_* settings are
 * read at start.
 */
@Module({
  imports: [
    RequestBodyModule,
    PersistenceModule.forFeature({
      repositories: [TemplateRepository, FontRepository, RenderJobRepository],
      transactions: ['renderJobs', 'runJobOutbox'],
      outboxStore: true,
    }),
  ],
  controllers: [RenderJobsController],
  providers: [
    { provide: JOBS_SETTINGS, useFactory: (settings: Settings) => settings.get(jobsSettings), inject: [Settings] },
    { provide: CALLBACK_EGRESS_POLICY, useFactory: (settings: Settings) => settings.get(egressSettings), inject: [Settings] },
    renderTargetProvider,
    RenderJobEnqueueService,
    RenderJobStatusService,
    RunJobOutboxRelay,
  ],
})
export class RenderJobsModule {}
