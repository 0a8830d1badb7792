import type { TraceCarrier } from '@docrender/observability';
import type { DeadLetterReason } from '../message-bus';
import type { QueueBound } from '../queue-bounds';
import type { EncodedMessage } from '../message-codec';

/** One message inside the in-process bus; the payload travels encoded, as it would over the wire. */
export type Envelope = {
  messageId: string;
  body: EncodedMessage;
  /** Earlier deliveries (0 on the first). */
  redeliveries: number;
  /** Set on requests: whether the requester still waits for the reply (false once it timed out or the bus closed). */
  requesterWaiting: (() => boolean) | null;
  /** Set on requests: hands the handler's result back to the requester. */
  reply: ((body: EncodedMessage) => void) | null;
  /** Set on dead letters. */
  deadLetterReason: DeadLetterReason | null;
  /** Dependency outages this message waited out (it picks the next wait). */
  outageWaits: number;
  /** The W3C trace context of its producer span, as AMQP carries it in headers (null when tracing is off). */
  trace: TraceCarrier | null;
};

type QueueConsumer = {
  handle(envelope: Envelope): Promise<void>;
  prefetch: number;
  inFlight: Set<Promise<void>>;
};

export type QueueEvents = {
  /** A handler threw; `final` when the message has no redelivery left and is dead-lettered. */
  handlerFailed(envelope: Envelope, error: unknown, final: boolean): void;
  /** The message leaves the queue for good (`max-length`: dropped as the oldest; `delivery-limit`: out of attempts). */
  deadLettered(envelope: Envelope, reason: DeadLetterReason): void;
  /**
   * A handler threw: true when `error` is a dependency outage and the message was set aside to come back later
   * (not counted as a failed delivery); false when it is the message's own failure.
   */
  setAsideForOutage(envelope: Envelope, error: unknown): boolean;
};

/**
 * A queue with the delivery semantics of the RabbitMQ work queues: competing consumers served round-robin within
 * their prefetch, a message leaves only when its handler resolved, a failed message goes back to the head of the
 * queue until its delivery limit, and a bounded queue either refuses a new message or drops its oldest.
 */
export class InProcessQueue {
  private ready: Envelope[] = [];
  private consumers: QueueConsumer[] = [];
  private nextConsumer = 0;
  private dispatchScheduled = false;

  constructor(
    private readonly bound: QueueBound | null,
    private readonly deliveryLimit: number,
    private readonly events: QueueEvents,
  ) {}

  get depth(): number {
    return this.ready.length;
  }

  /** False when the queue is full and refuses new messages (overflow `reject-publish`). */
  enqueue(envelope: Envelope): boolean {
    if (this.bound && this.ready.length >= this.bound.maxLength) {
      if (this.bound.overflow === 'reject-publish') return false;
      const oldest = this.ready.shift();
      if (oldest) this.events.deadLettered(oldest, 'max-length');
    }
    this.ready.push(envelope);
    this.scheduleDispatch();
    return true;
  }

  addConsumer(handle: (envelope: Envelope) => Promise<void>, prefetch: number): QueueConsumer {
    const consumer: QueueConsumer = { handle, prefetch, inFlight: new Set() };
    this.consumers.push(consumer);
    this.scheduleDispatch();
    return consumer;
  }

  /** Stops delivering to the consumer; resolves when its handlers in flight have finished. */
  async removeConsumer(consumer: QueueConsumer): Promise<void> {
    this.consumers = this.consumers.filter((c) => c !== consumer);
    await Promise.allSettled([...consumer.inFlight]);
  }

  private scheduleDispatch(): void {
    if (this.dispatchScheduled) return;
    this.dispatchScheduled = true;
    setImmediate(() => {
      this.dispatchScheduled = false;
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.ready.length > 0) {
      const consumer = this.consumerWithRoom();
      const envelope = consumer && this.ready.shift();
      if (!consumer || !envelope) return;
      const handling = this.deliver(consumer, envelope);
      consumer.inFlight.add(handling);
      void handling.finally(() => {
        consumer.inFlight.delete(handling);
        this.scheduleDispatch();
      });
    }
  }

  private consumerWithRoom(): QueueConsumer | null {
    const count = this.consumers.length;
    for (let i = 0; i < count; i++) {
      const index = (this.nextConsumer + i) % count;
      const consumer = this.consumers[index];
      if (consumer && consumer.inFlight.size < consumer.prefetch) {
        this.nextConsumer = (index + 1) % count;
        return consumer;
      }
    }
    return null;
  }

  private async deliver(consumer: QueueConsumer, envelope: Envelope): Promise<void> {
    try {
      await consumer.handle(envelope);
    } catch (error) {
      if (this.events.setAsideForOutage(envelope, error)) return;
      const final = envelope.redeliveries >= this.deliveryLimit;
      this.events.handlerFailed(envelope, error, final);
      if (final) this.events.deadLettered(envelope, 'delivery-limit');
      else this.ready.unshift({ ...envelope, redeliveries: envelope.redeliveries + 1 });
    }
  }
}
