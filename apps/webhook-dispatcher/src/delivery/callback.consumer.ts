import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { MessageName } from '@docrender/contracts';
import { type ConfigOf, egressSettings, Settings, webhookSettings } from '@docrender/config';
import { guardedFetch, PinnedConnections } from '@docrender/egress';
import { MESSAGE_BUS, type MessageBus, type Subscription } from '@docrender/messaging';
import { withLogFields, type Logger } from '@docrender/observability';
import { WebhookDeliveryRepository, WebhookSecretRepository } from '@docrender/persistence';
import { LOGGER } from '@docrender/platform';
import { signingSecretsAt } from '@docrender/webhooks';
import { CallbackDeliveryService } from './callback-delivery.service';

/**
 * How long a connection to a receiver stays open after its last callback (less when the receiver's Keep-Alive header
 * says so). Short: below the idle timeouts common servers close on (Node's 5 s), long enough for a job's progress.
 */
const CONNECTION_IDLE_MS = 4_000;

/**
 * Consumes webhook.deliver with WEBHOOK_IN_FLIGHT deliveries in flight (spec 6.3: 16; the consumer holds twice as
 * many messages so that a host held to its share does not keep other hosts' callbacks out of reach), and
 * its dead letters: callbacks the bounded queue dropped as the oldest under overload, counted and recorded.
 */
@Injectable()
export class CallbackConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly settings: ConfigOf<typeof webhookSettings>;
  private readonly delivery: CallbackDeliveryService;
  /** Kept-alive connections to the receivers: a stream of callbacks to one receiver does not open one per callback. */
  private readonly connections: PinnedConnections;
  private subscriptions: Subscription[] = [];

  constructor(
    secrets: WebhookSecretRepository,
    deliveries: WebhookDeliveryRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LOGGER) logger: Logger,
    settings: Settings,
  ) {
    this.settings = settings.get(webhookSettings);
    this.connections = new PinnedConnections({ idleTimeoutMs: CONNECTION_IDLE_MS, maxIdlePerDestination: this.settings.inFlight });
    const connections = this.connections;
    this.delivery = new CallbackDeliveryService(
      {
        bus,
        deliveries,
        firstSecrets: async (organisationId, now) => signingSecretsAt(await secrets.ensure(organisationId, now), now),
        send: (url, options) => guardedFetch(url, { ...options, connections }),
        logger,
      },
      { ...this.settings, policy: settings.get(egressSettings) },
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions = [
      await this.bus.consume(
        MessageName.DeliverWebhook,
        (command, { abandoned }) => withLogFields({ jobId: command.jobId, deliveryId: command.deliveryId }, () => this.delivery.handle(command, abandoned)),
        // Twice the slots: callbacks of other hosts are at hand when one host holds its share (they wait in memory).
        { prefetch: this.settings.inFlight * 2 },
      ),
      await this.bus.consumeDeadLetters(MessageName.DeliverWebhook, (command, { reason }) => this.delivery.dropped(command, reason), { prefetch: 16 }),
    ];
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.cancel()));
    this.subscriptions = [];
    this.connections.close();
  }
}
