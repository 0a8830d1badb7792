import type { EventMessageName, MessageName, MessagePayloads, MessageReplies, RequestMessageName } from '@docrender/contracts';

/** What a consumer is told about the delivery it handles. */
export type DeliveryContext = {
  /** The message id given at publish, or one the transport made. */
  messageId: string;
  /** How many times this message was delivered before (0 on the first delivery). */
  redeliveries: number;
};

export type Handler<N extends MessageName> = (
  payload: MessagePayloads[N],
  context: DeliveryContext,
) => Promise<N extends RequestMessageName ? MessageReplies[N] : void>;

export type ConsumeOptions = {
  /** Unacknowledged messages this consumer holds at once (match it to the work it can do in parallel). */
  prefetch: number;
};

export type PublishOptions = {
  /** Used for de-duplication and logs. */
  messageId?: string;
  /** Deliver no sooner than this many milliseconds from now (durable delayed delivery). */
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
 * The port every app uses to talk to the others. Two adapters: AMQP (RabbitMQ, amqplib) and in-process
 * (one-process mode and unit tests). Semantics both keep:
 * - publish resolves only once the message is durably accepted (publisher confirms on AMQP);
 * - a consumer's message is acknowledged only after its handler resolved; a handler that throws, or a consumer
 *   that dies, returns the message to the queue (bounded redeliveries, then dead-lettered);
 * - any number of consumers of one message name compete for its messages;
 * - request/reply: the handler's resolved value is the reply, correlated to the request.
 */
export interface MessageBus {
  publish<N extends EventMessageName>(name: N, payload: MessagePayloads[N], options?: PublishOptions): Promise<void>;
  request<N extends RequestMessageName>(name: N, payload: MessagePayloads[N], options: RequestOptions): Promise<MessageReplies[N]>;
  consume<N extends MessageName>(name: N, handler: Handler<N>, options: ConsumeOptions): Promise<Subscription>;
  /** Resolves when the transport can take work (connected); rejects with a reason otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const MESSAGE_BUS = Symbol('MessageBus');

export class RequestTimeoutError extends Error {
  constructor(readonly messageName: MessageName, readonly timeoutMs: number) {
    super(`no reply to ${messageName} within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}
