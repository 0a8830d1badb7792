import { randomUUID } from 'node:crypto';
import type { MessagingSettings } from '@docrender/config';
import type { EventMessageName, MessageName, MessagePayloads, MessageReplies, RequestMessageName } from '@docrender/contracts';
import {
  MessageBusUnavailableError,
  QueueFullError,
  RequestTimeoutError,
  type ConsumeOptions,
  type DeadLetterHandler,
  type DeadLetterReason,
  type Handler,
  type MessageBus,
  type PublishOptions,
  type RequestOptions,
  type Subscription,
} from '../message-bus';
import { dependencyOutageOf, outageWaitMs } from '../dependency-outage';
import type { MessagingLogger } from '../messaging-logger';
import { ALL_MESSAGE_NAMES, queueBound } from '../queue-bounds';
import { InProcessQueue, type Envelope } from './in-process-queue';
import { consumeInSpan, publishInSpan } from '../message-tracing';
import { decodeMessage, encodeMessage, type EncodedMessage } from '../message-codec';
import type { TraceCarrier } from '@docrender/observability';

/** `messaging.system` of the spans around in-process messages. */
const SYSTEM = 'in-process';

type Queues = { work: InProcessQueue; deadLetters: InProcessQueue };

/** In-process deliveries cannot be lost (close waits for the handlers in flight): their signal never aborts. */
const NEVER_ABANDONED = new AbortController().signal;

/**
 * MessageBus inside one process, for one-process mode and unit tests, with the semantics of the AMQP adapter:
 * competing consumers (round-robin within their prefetch), acknowledgement after the handler resolved, redelivery
 * of a failed message up to AMQP_DELIVERY_LIMIT and then a dead-letter queue, the same queue bounds, delayed
 * publish, request/reply with timeout. Payloads and replies travel encoded as over AMQP (JSON, byte arrays as binary
 * parts: decision 0022), so a handler and a requester see what they would see over AMQP.
 *
 * Not durable: queued, delayed and dead-lettered messages live in memory and are lost when the process stops.
 * Durability (a pending webhook retry surviving a restart) needs RabbitMQ (AMQP_URL).
 */
export class InProcessMessageBus implements MessageBus {
  private readonly queues: Map<MessageName, Queues>;
  private readonly delayTimers = new Set<NodeJS.Timeout>();
  private readonly pendingReplies = new Map<string, { timer: NodeJS.Timeout; reject(error: Error): void }>();
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;

  constructor(
    private readonly settings: MessagingSettings,
    private readonly logger: MessagingLogger,
  ) {
    this.queues = new Map(ALL_MESSAGE_NAMES.map((name) => [name, this.createQueues(name)]));
  }

  async publish<N extends EventMessageName>(name: N, payload: MessagePayloads[N], options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const messageId = options.messageId ?? randomUUID();
    // The span's callback runs at once: the message is queued before publish returns, as without tracing.
    await publishInSpan(SYSTEM, name, messageId, payload, async (trace) => this.enqueue(name, this.envelope(messageId, payload, trace), options.delayMs));
  }

  private enqueue(name: EventMessageName, envelope: Envelope, delay: number | undefined): void {
    const delayMs = Math.max(0, Math.round(delay ?? 0));
    if (delayMs === 0) {
      this.enqueueOrThrow(name, envelope);
      return;
    }
    const timer = setTimeout(() => {
      this.delayTimers.delete(timer);
      if (!this.queuesOf(name).work.enqueue(envelope)) {
        this.logger.warn('delayed message arrived at a full queue and is dead-lettered', { messageName: name, messageId: envelope.messageId });
        this.deadLetter(name, envelope, 'max-length');
      }
    }, delayMs);
    this.delayTimers.add(timer);
  }

  request<N extends RequestMessageName>(name: N, payload: MessagePayloads[N], options: RequestOptions): Promise<MessageReplies[N]> {
    if (this.closed) return Promise.reject(new MessageBusUnavailableError('the message bus is closed'));
    const correlationId = randomUUID();
    return publishInSpan(SYSTEM, name, correlationId, payload, (trace) => new Promise<MessageReplies[N]>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pendingReplies.delete(correlationId)) reject(new RequestTimeoutError(name, options.timeoutMs));
      }, options.timeoutMs);
      this.pendingReplies.set(correlationId, { timer, reject });
      const envelope: Envelope = {
        ...this.envelope(correlationId, payload, trace),
        requesterWaiting: () => this.pendingReplies.has(correlationId),
        reply: (body) => {
          if (!this.pendingReplies.delete(correlationId)) return;
          clearTimeout(timer);
          resolve(decoded(body) as MessageReplies[N]);
        },
      };
      try {
        this.enqueueOrThrow(name, envelope);
      } catch (error) {
        this.pendingReplies.delete(correlationId);
        clearTimeout(timer);
        reject(error as Error);
      }
    }));
  }

  async consume<N extends MessageName>(name: N, handler: Handler<N>, options: ConsumeOptions = {}): Promise<Subscription> {
    this.assertOpen();
    return this.subscribe(this.queuesOf(name).work, options, async (envelope) => {
      const fields = { messageId: envelope.messageId, redeliveries: envelope.redeliveries };
      if (envelope.requesterWaiting && !envelope.requesterWaiting()) {
        this.logger.warn('request dropped unhandled: its requester stopped waiting', { messageName: name, ...fields });
        return;
      }
      const payload = decoded(envelope.body) as MessagePayloads[N];
      const result = await consumeInSpan(SYSTEM, name, envelope.messageId, payload, envelope.trace, () => handler(payload, { ...fields, abandoned: NEVER_ABANDONED }));
      envelope.reply?.(encodeMessage(result));
    });
  }

  async consumeDeadLetters<N extends MessageName>(name: N, handler: DeadLetterHandler<N>, options: ConsumeOptions = {}): Promise<Subscription> {
    this.assertOpen();
    return this.subscribe(this.queuesOf(name).deadLetters, options, (envelope) =>
      handler(decoded(envelope.body) as MessagePayloads[N], { messageId: envelope.messageId, reason: envelope.deadLetterReason ?? 'rejected' }),
    );
  }

  async queueDepth(name: MessageName): Promise<number> {
    this.assertOpen();
    return this.queuesOf(name).work.depth;
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.delayTimers.size > 0) this.logger.warn('in-process bus closed with delayed messages pending; they are lost', { delayed: this.delayTimers.size });
    for (const timer of this.delayTimers) clearTimeout(timer);
    this.delayTimers.clear();
    for (const [correlationId, pending] of this.pendingReplies) {
      this.pendingReplies.delete(correlationId);
      clearTimeout(pending.timer);
      pending.reject(new MessageBusUnavailableError('the message bus is closed'));
    }
    await Promise.all([...this.subscriptions].map((subscription) => subscription.cancel()));
  }

  private createQueues(name: MessageName): Queues {
    const deadLetters: InProcessQueue = new InProcessQueue({ maxLength: this.settings.deadLetterMaxLength, overflow: 'drop-head' }, this.settings.deliveryLimit, {
      handlerFailed: (envelope, error, final) => this.logFailure(name, envelope, error, final),
      deadLettered: (envelope, reason) =>
        this.logger.warn('dead letter discarded', { messageName: name, messageId: envelope.messageId, reason }),
      setAsideForOutage: (envelope, error) => this.setAsideForOutage(name, deadLetters, envelope, error),
    });
    const work: InProcessQueue = new InProcessQueue(queueBound(name, this.settings), this.settings.deliveryLimit, {
      handlerFailed: (envelope, error, final) => this.logFailure(name, envelope, error, final),
      deadLettered: (envelope, reason) => this.deadLetter(name, envelope, reason),
      setAsideForOutage: (envelope, error) => this.setAsideForOutage(name, work, envelope, error),
    });
    return { work, deadLetters };
  }

  /**
   * The shared outage policy (as on AMQP): a handler that could not reach a dependency gets its message back after
   * AMQP_OUTAGE_WAIT_MS, doubling up to AMQP_OUTAGE_WAIT_MAX_MS, with its delivery count unchanged.
   */
  private setAsideForOutage(name: MessageName, queue: InProcessQueue, envelope: Envelope, error: unknown): boolean {
    const outage = dependencyOutageOf(error);
    if (outage === null || this.closed) return false;
    const waitMs = outageWaitMs(envelope.outageWaits, this.settings);
    const later = { ...envelope, outageWaits: envelope.outageWaits + 1 };
    this.logger.warn('dependency outage: the message waits and is tried again (not counted against its delivery limit)', {
      messageName: name,
      messageId: envelope.messageId,
      redeliveries: envelope.redeliveries,
      dependency: outage.dependency,
      reason: outage.reason,
      waitMs,
      outageWaits: later.outageWaits,
    });
    const timer = setTimeout(() => {
      this.delayTimers.delete(timer);
      if (queue.enqueue(later)) return;
      this.logger.warn('a message back from an outage wait found its queue full and is dead-lettered', { messageName: name, messageId: envelope.messageId });
      this.deadLetter(name, later, 'max-length');
    }, waitMs);
    this.delayTimers.add(timer);
    return true;
  }

  private queuesOf(name: MessageName): Queues {
    const queues = this.queues.get(name);
    if (!queues) throw new Error(`unknown message name ${String(name)}`);
    return queues;
  }

  private envelope(messageId: string, payload: unknown, trace: TraceCarrier | null): Envelope {
    return { messageId, body: encodeMessage(payload), redeliveries: 0, requesterWaiting: null, reply: null, deadLetterReason: null, outageWaits: 0, trace };
  }

  private enqueueOrThrow(name: MessageName, envelope: Envelope): void {
    if (this.queuesOf(name).work.enqueue(envelope)) return;
    throw new QueueFullError(name, queueBound(name, this.settings)?.maxLength ?? 0);
  }

  private deadLetter(name: MessageName, envelope: Envelope, reason: DeadLetterReason): void {
    this.queuesOf(name).deadLetters.enqueue({ ...envelope, redeliveries: 0, reply: null, requesterWaiting: null, deadLetterReason: reason });
  }

  private subscribe(queue: InProcessQueue, options: ConsumeOptions, handle: (envelope: Envelope) => Promise<void>): Subscription {
    const consumer = queue.addConsumer(handle, options.prefetch ?? this.settings.prefetch);
    let cancelling: Promise<void> | null = null;
    const subscription: Subscription = {
      cancel: () => {
        cancelling ??= queue.removeConsumer(consumer).finally(() => this.subscriptions.delete(subscription));
        return cancelling;
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  private logFailure(name: MessageName, envelope: Envelope, error: unknown, final: boolean): void {
    const fields = { messageName: name, messageId: envelope.messageId, redeliveries: envelope.redeliveries };
    if (final) this.logger.error('handler failed on the last allowed delivery; the message is dead-lettered', { ...fields, err: error });
    else this.logger.warn('handler failed; the message returns to the queue', { ...fields, errorMessage: error instanceof Error ? error.message : String(error) });
  }

  private assertOpen(): void {
    if (this.closed) throw new MessageBusUnavailableError('the message bus is closed');
  }
}

/**
 * The value of an encoded message, fresh for each delivery: a handler that changes its payload (its bytes included)
 * does not change what a redelivery sees.
 */
function decoded(encoded: EncodedMessage): unknown {
  return decodeMessage(encoded.binaryParts === null ? encoded.body : Buffer.from(encoded.body), encoded.binaryParts);
}
