import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MessageName } from '@docrender/contracts';
import { jobsSettings, Settings } from '@docrender/config';
import { MESSAGE_BUS, outboxRelayTo, type MessageBus, type OutboxRelay } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { OutboxSqlStore } from '@docrender/persistence';
import { LOGGER } from '../infrastructure/infrastructure.module';

/** The enqueue publishes its own message at once; the relay leaves messages this young to it. */
const ENQUEUE_HEAD_START_MS = 1_000;

/**
 * Publishes the job.run messages the enqueue could not (RabbitMQ away, slower than JOBS_ENQUEUE_PUBLISH_WAIT_MS, or
 * the gateway died between commit and publish), with publisher confirms, every JOBS_OUTBOX_POLL_MS, and keeps trying
 * while RabbitMQ is away (each pass first asks the bus whether it is connected). Provided by the gateway and by the
 * job worker, so accepted jobs leave the outbox once the broker is back whichever of them is running (a gateway that
 * cannot reach the broker, or none at all, does not hold them). Safe on every replica at once (SKIP LOCKED). A full
 * queue keeps them waiting in the outbox until it has room. Its module declares the outbox store
 * (`PersistenceModule.forFeature({ outboxStore: true })`).
 */
@Injectable()
export class RunJobOutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(outbox: OutboxSqlStore, @Inject(MESSAGE_BUS) bus: MessageBus, settings: Settings, @Inject(LOGGER) logger: Logger) {
    const jobs = settings.get(jobsSettings);
    this.relay = outboxRelayTo(
      bus,
      outbox,
      { messageNames: [MessageName.RunJob], pollIntervalMs: jobs.outboxPollMs, minAgeMs: ENQUEUE_HEAD_START_MS, keepPublishedMs: jobs.outboxKeepHours * 3_600_000 },
      logger.child({ component: 'job-outbox-relay' }),
    );
  }

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}
