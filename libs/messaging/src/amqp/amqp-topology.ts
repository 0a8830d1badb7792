import type { MessageName } from '@docrender/contracts';
import type { MessagingSettings } from '@docrender/config';
import type { Channel } from 'amqplib';
import { ALL_MESSAGE_NAMES, queueBound } from '../queue-bounds';

export type TopologySettings = Pick<
  MessagingSettings,
  'queuePrefix' | 'deliveryLimit' | 'jobQueueMaxLength' | 'webhookQueueMaxLength' | 'deadLetterMaxLength'
>;

type QueueArguments = Record<string, string | number>;

/**
 * The RabbitMQ topology (docs/decisions/0002-rabbitmq-topology.md). Per message name N, with the prefix P:
 * - `P<N>`: the work queue, a quorum queue every consumer of N shares (competing consumers), with a delivery limit
 *   and dead-lettering into the dead-letter exchange; job.run and webhook.deliver are bounded;
 * - `P<N>.dead-letter`: its dead-letter queue, bound to the exchange `Pdocrender.dead-letter` with routing key N;
 * - `P<N>.delay.<ms>`: declared on first use, one per delay: messages wait there for their TTL and are then
 *   dead-lettered through the default exchange into `P<N>` (durable delayed delivery without plugins);
 * - `P<N>.dead-letter.delay.<ms>`: the same in front of the dead-letter queue (a dead letter waiting out an outage).
 * Everything is durable; declaring is idempotent as long as the arguments do not change.
 */
export class AmqpTopology {
  constructor(private readonly settings: TopologySettings) {}

  get deadLetterExchange(): string {
    return `${this.settings.queuePrefix}docrender.dead-letter`;
  }

  workQueue(name: MessageName): string {
    return `${this.settings.queuePrefix}${name}`;
  }

  deadLetterQueue(name: MessageName): string {
    return `${this.workQueue(name)}.dead-letter`;
  }

  delayQueue(name: MessageName, delayMs: number): string {
    return this.delayQueueFor(this.workQueue(name), delayMs);
  }

  /** The delay queue in front of `target` (a work or dead-letter queue). */
  delayQueueFor(target: string, delayMs: number): string {
    return `${target}.delay.${delayMs}`;
  }

  workQueueArguments(name: MessageName): QueueArguments {
    const args: QueueArguments = {
      'x-queue-type': 'quorum',
      'x-delivery-limit': this.settings.deliveryLimit,
      'x-dead-letter-exchange': this.deadLetterExchange,
      'x-dead-letter-routing-key': name,
    };
    const bound = queueBound(name, this.settings);
    if (bound) {
      args['x-max-length'] = bound.maxLength;
      args['x-overflow'] = bound.overflow;
    }
    return args;
  }

  /** Dead letters are kept up to a bound (oldest discarded); a dead-letter handler that keeps failing drops its message. */
  deadLetterQueueArguments(): QueueArguments {
    return {
      'x-queue-type': 'quorum',
      'x-max-length': this.settings.deadLetterMaxLength,
      'x-overflow': 'drop-head',
      'x-delivery-limit': this.settings.deliveryLimit,
    };
  }

  delayQueueArguments(name: MessageName, delayMs: number): QueueArguments {
    return this.delayQueueArgumentsFor(this.workQueue(name), delayMs);
  }

  delayQueueArgumentsFor(target: string, delayMs: number): QueueArguments {
    return {
      'x-queue-type': 'quorum',
      'x-message-ttl': delayMs,
      'x-dead-letter-exchange': '',
      'x-dead-letter-routing-key': target,
    };
  }

  /** Declares the exchange and the work and dead-letter queues of every message name. */
  async declare(channel: Channel): Promise<void> {
    await channel.assertExchange(this.deadLetterExchange, 'direct', { durable: true });
    for (const name of ALL_MESSAGE_NAMES) {
      const deadLetterQueue = this.deadLetterQueue(name);
      await channel.assertQueue(deadLetterQueue, { durable: true, arguments: this.deadLetterQueueArguments() });
      await channel.bindQueue(deadLetterQueue, this.deadLetterExchange, name);
      await channel.assertQueue(this.workQueue(name), { durable: true, arguments: this.workQueueArguments(name) });
    }
  }

  /** Declares the delay queue in front of `target` (a work or dead-letter queue) for `delayMs`. */
  async declareDelayQueue(channel: Channel, target: string, delayMs: number): Promise<void> {
    await channel.assertQueue(this.delayQueueFor(target, delayMs), { durable: true, arguments: this.delayQueueArgumentsFor(target, delayMs) });
  }
}
