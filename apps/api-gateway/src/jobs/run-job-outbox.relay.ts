import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MessageName } from '@docrender/contracts';
import type { JobsSettings } from '@docrender/config';
import { MESSAGE_BUS, type MessageBus } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { Database, type OutboxRelay } from '@docrender/persistence';
import { LOGGER } from '@docrender/platform';
import { JOBS_SETTINGS } from './jobs.tokens';

/** The enqueue publishes its own message at once; the relay leaves messages this young to it. */
const ENQUEUE_HEAD_START_MS = 1_000;

/**
 * Publishes the job.run messages the enqueue could not (RabbitMQ away, slower than JOBS_ENQUEUE_PUBLISH_WAIT_MS, or
 * the gateway died between commit and publish), with publisher confirms, every JOBS_OUTBOX_POLL_MS. Safe on every
 * gateway replica at once (SKIP LOCKED). A full queue keeps them waiting in the outbox until it has room.
 */
@Injectable()
export class RunJobOutboxRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly relay: OutboxRelay;

  constructor(
    database: Database,
    @Inject(MESSAGE_BUS) bus: MessageBus,
    @Inject(JOBS_SETTINGS) settings: JobsSettings,
    @Inject(LOGGER) logger: Logger,
  ) {
    this.relay = database.outboxRelay(
      (message) => bus.publish(message.name, message.payload, { messageId: message.id }),
      {
        messageNames: [MessageName.RunJob],
        pollIntervalMs: settings.outboxPollMs,
        minAgeMs: ENQUEUE_HEAD_START_MS,
        keepPublishedMs: settings.outboxKeepHours * 3_600_000,
        // No database transaction waits for a broker that is away (issue 18: the pool stays free for requests).
        ready: () => bus.ping(),
      },
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
