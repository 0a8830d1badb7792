import { DynamicModule, Module } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, Infrastructure, InfrastructureModule, messageBusCheck, ProbesModule } from '@docrender/platform';
import type { Logger } from '@docrender/observability';
import { RenderJobsModule } from './jobs/render-jobs.module';
import { RetentionModule } from './retention/retention.module';

/** The job-worker's root module: async render jobs (job.run), their callbacks' outbox relay, the retention sweep. */
@Module({})
export class JobWorkerModule {
  static register(infrastructure: Infrastructure, logger: Logger): DynamicModule {
    return {
      module: JobWorkerModule,
      imports: [
        InfrastructureModule.forRoot(infrastructure, logger),
        ProbesModule.register({
          checks: () => [databaseCheck(infrastructure.dataSource), blobStoreCheck(infrastructure.blobStore), messageBusCheck(infrastructure.bus)],
          bus: infrastructure.bus,
        }),
        RenderJobsModule,
        RetentionModule,
      ],
    };
  }
}
