import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MessageName } from '@docrender/contracts';
import { type ConfigOf, jobsSettings, messagingSettings, Settings } from '@docrender/config';
import { DependencyOutageError, MESSAGE_BUS, type MessageBus, type OutboxRelay, type Subscription } from '@docrender/messaging';
import { withLogFields, type Logger } from '@docrender/observability';
import { LOGGER } from '@docrender/platform';
import { JobInterruptedError, RenderJobHandler } from '@docrender/rendering';
import { jobMetrics } from './job-metrics';
import { OutageDetector } from './outage';
import { CALLBACK_RELAY, JobWorkerShutdown } from './render-jobs.tokens';

const FIRST_OUTAGE_PAUSE_MS = 500;
const LONGEST_OUTAGE_PAUSE_MS = 10_000;

/**
 * Consumes job.run (a quorum queue with a delivery limit and a dead-letter exchange; manual ack after the job is
 * terminal; prefetch JOBS_CONCURRENT_JOBS) and runs each job with RenderJobHandler:
 * - an outage (PostgreSQL, RabbitMQ, the blob store or the render service unreachable) pauses the job and resumes it
 *   when the dependency is back, for up to JOBS_OUTAGE_RETRY_MS; then the message waits out the outage in RabbitMQ
 *   (the shared outage policy of @docrender/messaging: not counted against its delivery limit);
 * - any other failure returns the message to the queue at once; after AMQP_DELIVERY_LIMIT redeliveries it is
 *   dead-lettered, and the dead-letter consumer ends the job (failed, with the reason);
 * - a second delivery of a job this process is running (RabbitMQ redelivered it after a connection loss) waits for
 *   the first run and then finds the job finished.
 * It starts and stops the outbox relay that publishes the callbacks a failed publish or a crash left (the jobs publish
 * theirs once their transactions committed). Its collaborators are the module's providers (render-jobs.module.ts).
 */
@Injectable()
export class RenderJobConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly settings: ConfigOf<typeof jobsSettings>;
  private readonly deliveryLimit: number;
  private readonly running = new Map<string, Promise<void>>();
  private subscriptions: Subscription[] = [];

  constructor(
    private readonly handler: RenderJobHandler,
    private readonly outages: OutageDetector,
    @Inject(CALLBACK_RELAY) private readonly relay: OutboxRelay,
    private readonly shutdown: JobWorkerShutdown,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LOGGER) private readonly logger: Logger,
    settings: Settings,
  ) {
    this.settings = settings.get(jobsSettings);
    this.deliveryLimit = settings.get(messagingSettings).deliveryLimit;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.relay.start();
    this.subscriptions = [
      await this.bus.consume(MessageName.RunJob, ({ jobId }) => this.handle(jobId), { prefetch: this.settings.concurrentJobs }),
      await this.bus.consumeDeadLetters(MessageName.RunJob, ({ jobId }, { reason }) => this.abandon(jobId, reason), { prefetch: 1 }),
    ];
  }

  async onModuleDestroy(): Promise<void> {
    this.shutdown.stopping = true;
    await Promise.all(this.subscriptions.map((s) => s.cancel()));
    this.subscriptions = [];
    await this.relay.stop();
  }

  private async handle(jobId: string): Promise<void> {
    const earlier = this.running.get(jobId);
    if (earlier) {
      this.logger.info('job redelivered while this process still runs it; waiting for that run', { jobId });
      await earlier.catch(() => undefined);
    }
    const run = withLogFields({ jobId }, () => this.runThroughOutages(jobId));
    this.running.set(jobId, run);
    try {
      await run;
    } finally {
      if (this.running.get(jobId) === run) this.running.delete(jobId);
    }
  }

  private async runThroughOutages(jobId: string): Promise<void> {
    const started = Date.now();
    let pause = FIRST_OUTAGE_PAUSE_MS;
    for (;;) {
      try {
        await this.handler.run(jobId);
        return;
      } catch (error) {
        if (error instanceof JobInterruptedError || this.shutdown.stopping) throw error;
        const outage = await this.outages.describe(error);
        if (outage === null) {
          this.logger.error('job run failed; its message returns to the queue', { jobId, err: error });
          throw error;
        }
        if (Date.now() - started + pause > this.settings.outageRetryMs) {
          this.logger.error('job paused by an outage for too long; its message waits in RabbitMQ (not counted against its delivery limit)', { jobId, outage, err: error });
          throw new DependencyOutageError(outage, `job ${jobId} interrupted by an outage: ${outage}`, { cause: error });
        }
        jobMetrics.outagePauses.inc();
        this.logger.warn('job paused by an outage; it resumes when the dependency answers', { jobId, outage, pauseMs: pause });
        await sleep(pause);
        pause = Math.min(pause * 2, LONGEST_OUTAGE_PAUSE_MS);
      }
    }
  }

  private async abandon(jobId: string, reason: string): Promise<void> {
    jobMetrics.deadLettered.inc();
    this.logger.error('job.run message dead-lettered; the job is ended', { jobId, reason });
    await this.handler.abandon(
      jobId,
      reason === 'delivery-limit'
        ? `running the job failed ${this.deliveryLimit + 1} times (see the job worker's logs for the errors)`
        : `its job.run message was dead-lettered (${reason})`,
    );
  }
}
