import { Module } from '@nestjs/common';
import { MessageName, WebhookEvent } from '@docrender/contracts';
import { jobsSettings, Settings } from '@docrender/config';
import { MESSAGE_BUS, outboxRelayTo, type MessageBus, type OutboxRelay } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import {
  DatabaseHealth,
  FontRepository,
  OutboxSqlStore,
  RenderJobLedger,
  RenderJobRepository,
  TemplateRepository,
  UsageRepository,
} from '@docrender/persistence';
import { LOGGER, PersistenceModule, renderServiceProviders, RunJobOutboxRelay, signedLinkConfig, ViewUrlSigner } from '@docrender/platform';
import { JobDocumentRecorder, RenderJobHandler, RenderServiceClient, RenderTargetResolver } from '@docrender/rendering';
import { BLOB_STORE, type BlobStore } from '@docrender/storage';
import { CALLBACK_RELAY, JobWorkerShutdown } from './render-jobs.tokens';
import { OutageDetector } from './outage';
import { RenderJobConsumer } from './render-job.consumer';
import { jobMetrics } from './job-metrics';

/**
 * The job worker publishes each callback itself once its transaction committed (no relay transaction per callback);
 * the relay leaves callbacks this young to it and publishes the ones a failed publish or a crash left.
 */
const CALLBACK_HEAD_START_MS = 5_000;

/** The outbox relay of the callbacks the jobs store (webhook.deliver). */
function callbackRelay(outbox: OutboxSqlStore, bus: MessageBus, logger: Logger, settings: Settings): OutboxRelay {
  const jobs = settings.get(jobsSettings);
  return outboxRelayTo(
    bus,
    outbox,
    {
      messageNames: [MessageName.DeliverWebhook],
      pollIntervalMs: jobs.outboxPollMs,
      minAgeMs: CALLBACK_HEAD_START_MS,
      gatherMs: jobs.callbackGatherMs,
      keepPublishedMs: jobs.outboxKeepHours * 3_600_000,
    },
    logger.child({ component: 'callback-outbox-relay' }),
  );
}

/** The render use case as a job runs it: the job's repositories, the one render-service client, the recording. */
function renderJobHandler(
  jobs: RenderJobRepository,
  ledger: RenderJobLedger,
  credit: UsageRepository,
  templates: TemplateRepository,
  fonts: FontRepository,
  blobStore: BlobStore,
  renderService: RenderServiceClient,
  logger: Logger,
  settings: Settings,
  relay: OutboxRelay,
  shutdown: JobWorkerShutdown,
): RenderJobHandler {
  return new RenderJobHandler(
    {
      jobs,
      ledger,
      credit,
      targets: new RenderTargetResolver(templates, fonts),
      documents: new JobDocumentRecorder(ledger),
      blobStore,
      renderService,
      logger,
      viewUrl: new ViewUrlSigner(signedLinkConfig(settings)),
      counters: {
        documentEnded: (outcome) => jobMetrics.documents.inc({ outcome }),
        jobEnded: (state, status) => jobMetrics.jobs.inc({ state, status }),
      },
      // progress callbacks are gathered (JOBS_CALLBACK_GATHER_MS); a completion callback sends those gathered and follows them
      callbackStored: (callback) =>
        relay.publishCommitted(
          { id: callback.deliveryId, name: MessageName.DeliverWebhook, payload: callback, createdAt: new Date() },
          { now: callback.event !== WebhookEvent.Progress },
        ),
      isStopping: () => shutdown.stopping,
    },
    { renderConcurrency: settings.get(jobsSettings).renderConcurrency },
  );
}

/**
 * Runs async render jobs from the job.run queue and relays their callbacks to the webhook dispatcher; relays the
 * job.run messages of accepted jobs too (as the gateway does), so they do not wait for a gateway that can publish.
 * Wired as every app is, through this module's providers; the consumer only subscribes and waits out outages.
 */
@Module({
  imports: [
    PersistenceModule.forFeature({
      repositories: [RenderJobRepository, RenderJobLedger, UsageRepository, TemplateRepository, FontRepository],
      outboxStore: true,
      health: true,
    }),
  ],
  providers: [
    JobWorkerShutdown,
    ...renderServiceProviders,
    { provide: CALLBACK_RELAY, useFactory: callbackRelay, inject: [OutboxSqlStore, MESSAGE_BUS, LOGGER, Settings] },
    {
      provide: OutageDetector,
      useFactory: (database: DatabaseHealth, bus: MessageBus, blobStore: BlobStore) => new OutageDetector({ database, bus, blobStore }),
      inject: [DatabaseHealth, MESSAGE_BUS, BLOB_STORE],
    },
    {
      provide: RenderJobHandler,
      useFactory: renderJobHandler,
      inject: [RenderJobRepository, RenderJobLedger, UsageRepository, TemplateRepository, FontRepository, BLOB_STORE, RenderServiceClient, LOGGER, Settings, CALLBACK_RELAY, JobWorkerShutdown],
    },
    RenderJobConsumer,
    RunJobOutboxRelay,
  ],
})
export class RenderJobsModule {}
