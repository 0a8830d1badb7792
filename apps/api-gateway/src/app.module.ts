import { DynamicModule, Module } from '@nestjs/common';
import { blobStoreCheck, databaseCheck, Infrastructure, ProbesModule } from '@docrender/platform';
import { GatewayMetricsServer } from './http/gateway-metrics.server';
import { AuthModule } from './auth/auth.module';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { ViewUrlModule } from './documents/view-url.module';
import { DocumentsModule } from './documents/documents.module';
import { StatsModule } from './stats/stats.module';
import { FontsModule } from './fonts/fonts.module';
import { TemplatesModule } from './templates/templates.module';
import { RenderJobsModule } from './jobs/render-jobs.module';
import { RenderModule } from './render/render.module';

/** The API gateway's root module: every /v1 endpoint of the contract (on the infrastructure the bootstrap provides). */
@Module({})
export class ApiGatewayModule {
  static register(infrastructure: Infrastructure): DynamicModule {
    return {
      module: ApiGatewayModule,
      imports: [
        AuthModule,
        RateLimitModule,
        ViewUrlModule,
        TemplatesModule,
        DocumentsModule,
        StatsModule,
        FontsModule,
        RenderJobsModule,
        RenderModule,
        // Spec 4.17: the gateway's status probe checks the database and blob storage.
        ProbesModule.register({
          checks: () => [databaseCheck(infrastructure.database), blobStoreCheck(infrastructure.blobStore)],
          bus: infrastructure.bus,
          // The gateway's port is public: its metrics have a port of their own (GatewayMetricsServer).
          metricsOnAppPort: false,
        }),
      ],
      providers: [GatewayMetricsServer],
    };
  }
}
