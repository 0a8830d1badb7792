import { DynamicModule, Module } from '@nestjs/common';
import type { BlobStore } from '@docrender/storage';
import type { MessageBus } from '@docrender/messaging';
import type { Database } from '@docrender/persistence';
import { MetricsController } from '../metrics/metrics.controller';
import { registerQueueDepthGauge } from '../metrics/queue-depth.metrics';
import { MetaController } from './meta.controller';
import { READINESS_CHECKS, ReadinessCheck } from './readiness';

/** PostgreSQL answers a query, asked through the persistence `Database` (what each app's root module is given). */
export const databaseCheck = (database: Pick<Database, 'ping'>): ReadinessCheck => ({ name: 'database', check: () => database.ping() });

export const blobStoreCheck = (blobStore: BlobStore): ReadinessCheck => ({ name: 'blob storage', check: () => blobStore.ping() });

export const messageBusCheck = (bus: MessageBus): ReadinessCheck => ({ name: 'message bus', check: () => bus.ping() });

/**
 * The probes of spec 4.17 (`/v1/meta/status`, `/v1/meta/version`) for one app, with the dependencies it checks, and
 * its Prometheus metrics at `/metrics` (with the queue depths when `bus` is given) unless `metricsOnAppPort` is false
 * (the gateway, whose port is public, serves them on a port of their own: metrics-server.ts).
 * `inject` lists providers handed to `checks` (e.g. the render service's browser pool).
 */
@Module({})
export class ProbesModule {
  static register(options: { checks: (...deps: never[]) => ReadinessCheck[]; inject?: unknown[]; bus?: MessageBus; metricsOnAppPort?: boolean }): DynamicModule {
    if (options.bus) registerQueueDepthGauge(options.bus);
    return {
      module: ProbesModule,
      controllers: options.metricsOnAppPort === false ? [MetaController] : [MetaController, MetricsController],
      providers: [{ provide: READINESS_CHECKS, useFactory: options.checks, inject: (options.inject ?? []) as never[] }],
    };
  }
}
