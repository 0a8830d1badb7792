import type { EventMessageName, MessageName, MessagePayloads, MessageReplies, RequestMessageName } from '@docrender/contracts';

/** What a consumer is told about the delivery it handles. */
export type DeliveryContext = {
  /** The message id given at publish, or one the transport made. */
  messageId: string;
  /**
   * Earlier deliveries of this message that failed or whose consumer died (0 on the first delivery); waits for a
   * dependency outage are not counted (see `dependencyOutageOf`).
   */
  redeliveries: number;
  /**
   * Aborted when this delivery can no longer be acknowledged: its channel or connection closed while the handler
   * ran, so the broker returns the message to the queue and delivers it again (possibly to another consumer, possibly
   * already). Whatever the handler returns or throws after that is discarded; a handler with costly or visible work
   * (a render) should stop and produce nothing, or the redelivery does that work a second time. Never aborted by the
   * in-process bus, whose deliveries cannot be lost.
   */
  abandoned: AbortSignal;
};

export type Handler<N extends MessageName> = (
  payload: MessagePayloads[N],
  context: DeliveryContext,
) => Promise<N extends RequestMessageName ? MessageReplies[N] : void>;

export type ConsumeOptions = {
  /**
   * Unacknowledged messages this consumer holds at once (match it to the work it can do in parallel).
   * Default: AMQP_PREFETCH.
   */
  prefetch?: number;
};

export type PublishOptions = {
  /** Used for de-duplication and logs. */
  messageId?: string;
  /**
   * Deliver no sooner than this many milliseconds from now (durable delayed delivery on AMQP). Each distinct value
   * gets its own RabbitMQ delay queue, kept for good: use a few fixed values (e.g. the 2/4/8/16 s backoff), not jitter.
   */
  delayMs?: number;
};

export type RequestOptions = {
  /** Reject with a RequestTimeoutError when no reply arrives within this time. */
  timeoutMs: number;
};

export interface Subscription {
  /** Stop taking new messages; resolves when the handlers in flight have finished and been acknowledged. */
  cancel(): Promise<void>;
}

/**
 * Why a message ended in its dead-letter queue:
 * - `delivery-limit`: its handler failed (or its consumer died) more often than AMQP_DELIVERY_LIMIT allows;
 * - `max-length`: the queue was at its bound and dropped its oldest message (webhook.deliver);
 * - `rejected`: the transport could not decode it;
 * - `expired`: it expired in a queue (only with an operator-set TTL policy; the service sets none on work queues).
 */
export type DeadLetterReason = 'delivery-limit' | 'max-length' | 'rejected' | 'expired';

export type DeadLetterContext = { messageId: string; reason: DeadLetterReason };

export type DeadLetterHandler<N extends MessageName> = (payload: MessagePayloads[N], context: DeadLetterContext) => Promise<void>;

/**
 * The port every app uses to talk to the others. Two adapters: AMQP (RabbitMQ, amqplib) and in-process
 * (one-process mode and unit tests). Semantics both keep:
 * - publish resolves only once the message is durably accepted (publisher confirms on AMQP);
 * - a consumer's message is acknowledged only after its handler resolved; a handler that throws, or a consumer
 *   that dies, returns the message to the queue (bounded redeliveries, then dead-lettered), except that a handler
 *   failing on a dependency outage (`dependencyOutageOf`) has its message wait in a delay queue, with backoff, not
 *   counted against the limit (dead-letter consumers too; docs/decisions/0009); a consumer whose channel
 *   or connection closes under a running handler tells it through `DeliveryContext.abandoned` and discards its result;
 * - any number of consumers of one message name compete for its messages;
 * - request/reply: the handler's resolved value is the reply, correlated to the request. A request handler that
 *   throws is redelivered like any other; a request whose requester has stopped waiting is dropped unhandled;
 * - bounded queues: job.run rejects publishing when full (QueueFullError); webhook.deliver drops its oldest
 *   message instead (dead-lettered with reason `max-length`).
 */
export interface MessageBus {
  /** Rejects with QueueFullError when the queue is at its bound, MessageBusUnavailableError when the transport is down. */
  publish<N extends EventMessageName>(name: N, payload: MessagePayloads[N], options?: PublishOptions): Promise<void>;
  request<N extends RequestMessageName>(name: N, payload: MessagePayloads[N], options: RequestOptions): Promise<MessageReplies[N]>;
  consume<N extends MessageName>(name: N, handler: Handler<N>, options?: ConsumeOptions): Promise<Subscription>;
  /** Takes the messages of `name` that were dead-lettered (to count, log or repair them); acknowledged after the handler resolved. */
  consumeDeadLetters<N extends MessageName>(name: N, handler: DeadLetterHandler<N>, options?: ConsumeOptions): Promise<Subscription>;
  /** Messages of `name` waiting for a consumer (not counting those a consumer holds, nor delayed ones). */
  queueDepth(name: MessageName): Promise<number>;
  /** Resolves when the transport can take work (connected); rejects with a reason otherwise. */
  ping(): Promise<void>;
  /** Cancels every consumer (waiting for handlers in flight), fails pending requests, closes the transport. */
  close(): Promise<void>;
}

export const MESSAGE_BUS = Symbol('MessageBus');

export class RequestTimeoutError extends Error {
  constructor(readonly messageName: MessageName, readonly timeoutMs: number) {
    super(`no reply to ${messageName} within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/** The queue of a bounded message name (job.run) is full: back off and retry (503 QueueFull on enqueue). */
export class QueueFullError extends Error {
  constructor(readonly messageName: MessageName, readonly maxLength: number) {
    super(`the ${messageName} queue is full (${maxLength} messages)`);
    this.name = 'QueueFullError';
  }
}

/** The transport cannot take the message: closed, or disconnected for longer than AMQP_PUBLISH_WAIT_MS. */
export class MessageBusUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MessageBusUnavailableError';
  }
}
