import { DynamicModule, Module } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, Infrastructure, messageBusCheck, ProbesModule } from '@docrender/platform';
import { RenderJobsModule } from './jobs/render-jobs.module';
import { RetentionModule } from './retention/retention.module';

/** The job-worker's root module: async render jobs (job.run), their callbacks' outbox relay, the retention sweep. */
@Module({})
export class JobWorkerModule {
  static register(infrastructure: Infrastructure): DynamicModule {
    return {
      module: JobWorkerModule,
      imports: [
        ProbesModule.register({
          checks: () => [databaseCheck(infrastructure.database), blobStoreCheck(infrastructure.blobStore), messageBusCheck(infrastructure.bus)],
          bus: infrastructure.bus,
        }),
        RenderJobsModule,
        RetentionModule,
      ],
    };
  }
}
