import { randomUUID } from 'node:crypto';
import { redact, type MessagingSettings } from '@docrender/config';
import type {
  EventMessageName,
  MessageName,
  MessagePayloads,
  MessageReplies,
  RequestMessageName,
} from '@docrender/contracts';
import { connect, type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Message, type Options, type RecoveringChannelModel } from 'amqplib';
import {
  MessageBusUnavailableError,
  QueueFullError,
  RequestTimeoutError,
  type ConsumeOptions,
  type DeadLetterHandler,
  type Handler,
  type MessageBus,
  type PublishOptions,
  type RequestOptions,
  type Subscription,
} from '../message-bus';
import { dependencyOutageOf, outageWaitMs, type DependencyOutage } from '../dependency-outage';
import type { MessagingLogger } from '../messaging-logger';
import { queueBound } from '../queue-bounds';
import {
  DIRECT_REPLY_TO,
  REPLY_DEADLINE_HEADER,
  deadLetterReasonOf,
  decodeBody,
  failedDeliveriesOf,
  outageCopyHeaders,
  outageWaitsOf,
  redeliveriesOf,
  replyDeadlineOf,
  withBodyProperties,
} from './amqp-envelope';
import { encodeMessage } from '../message-codec';
import { AmqpTopology } from './amqp-topology';
import { consumeInSpan, publishInSpan } from '../message-tracing';

/** `messaging.system` of the spans around AMQP messages. */
const SYSTEM = 'rabbitmq';

/** One live connection with its publishing channel; replaced as a whole after every reconnection. */
type Session = {
  model: ChannelModel;
  /** Confirm channel for every publish and request; it also receives the direct replies. */
  publishChannel: ConfirmChannel;
  /** Publish ids the broker returned as unroutable (basic.return comes before the confirm). */
  returned: Set<string>;
  declaredDelayQueues: Set<string>;
  alive: boolean;
};

type Consumer = {
  queue: string;
  messageName: MessageName;
  prefetch: number;
  /** `abandoned` aborts when `channel` closes: the message can no longer be settled and returns to the queue. */
  onMessage(message: ConsumeMessage, channel: Channel, abandoned: AbortSignal): Promise<void>;
  session: Session | null;
  channel: Channel | null;
  consumerTag: string | null;
  inFlight: Set<Promise<void>>;
  cancelled: boolean;
};

type PendingReply = {
  messageName: RequestMessageName;
  resolve(reply: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  publishedOn: Session | null;
};

/** amqplib fails a confirm callback with this message when the broker nacked the message. */
const NACKED = 'message nacked';

class ConnectionLostError extends Error {
  constructor(cause: unknown) {
    super('the RabbitMQ channel closed before the broker confirmed', { cause });
    this.name = 'ConnectionLostError';
  }
}

/**
 * MessageBus over RabbitMQ (amqplib). See docs/decisions/0002-rabbitmq-topology.md for the topology and the
 * choices behind it. Start it with `AmqpMessageBus.connect(settings, logger)`.
 *
 * Connection loss: amqplib's recovering connection reconnects with exponential backoff; after each connection the
 * topology is declared again and every consumer resumes. Publishes and requests made during the outage wait for
 * the next connection up to AMQP_PUBLISH_WAIT_MS; a publish whose confirm was lost with the connection is sent
 * again (at-least-once: consumers may see a duplicate). Requests published on the lost connection fail at once,
 * since their reply can no longer arrive.
 */
export class AmqpMessageBus implements MessageBus {
  private readonly topology: AmqpTopology;
  private connection: RecoveringChannelModel | null = null;
  private session: Session | null = null;
  private sessionWaiters: Array<{ resolve(session: Session): void; reject(error: Error): void }> = [];
  private readonly consumers = new Set<Consumer>();
  private readonly pendingReplies = new Map<string, PendingReply>();
  private lastConnectError: Error | null = null;
  private blockedReason: string | null = null;
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly settings: MessagingSettings & { amqpUrl: string },
    private readonly logger: MessagingLogger,
  ) {
    this.topology = new AmqpTopology(settings);
  }

  /**
   * Connects (waiting up to AMQP_CONNECT_TIMEOUT_MS), declares the topology and returns the bus. With
   * `waitForConnection: false` it returns at once and connects in the background, retrying with backoff for as long
   * as RabbitMQ is away: a process that serves without the broker (the gateway's reads) then starts during an
   * outage, and `ping()` says the bus is not connected until it is.
   */
  static async connect(settings: MessagingSettings, logger: MessagingLogger, options: { waitForConnection?: boolean } = {}): Promise<AmqpMessageBus> {
    const url = settings.amqpUrl;
    if (url === undefined) throw new MessageBusUnavailableError('AMQP_URL is not set');
    const bus = new AmqpMessageBus({ ...settings, amqpUrl: url }, logger);
    await bus.start(options.waitForConnection ?? true);
    return bus;
  }

  async publish<N extends EventMessageName>(name: N, payload: MessagePayloads[N], options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const messageId = options.messageId ?? randomUUID();
    const delayMs = Math.max(0, Math.round(options.delayMs ?? 0));
    const encoded = encodeMessage(payload);
    await publishInSpan(SYSTEM, name, messageId, payload, (trace) =>
      this.publishConfirmed(name, this.topology.workQueue(name), encoded.body, withBodyProperties({ messageId, type: name, headers: trace ?? undefined }, encoded), delayMs),
    );
  }

  request<N extends RequestMessageName>(name: N, payload: MessagePayloads[N], options: RequestOptions): Promise<MessageReplies[N]> {
    if (this.closing) return Promise.reject(new MessageBusUnavailableError('the message bus is closed'));
    const correlationId = randomUUID();
    const encoded = encodeMessage(payload);
    return publishInSpan(SYSTEM, name, correlationId, payload, (trace) => new Promise<MessageReplies[N]>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pendingReplies.delete(correlationId)) reject(new RequestTimeoutError(name, options.timeoutMs));
      }, options.timeoutMs);
      const pending: PendingReply = { messageName: name, resolve: (reply) => resolve(reply as MessageReplies[N]), reject, timer, publishedOn: null };
      this.pendingReplies.set(correlationId, pending);
      const properties = withBodyProperties(
        {
          messageId: correlationId,
          correlationId,
          replyTo: DIRECT_REPLY_TO,
          type: name,
          headers: { ...trace, [REPLY_DEADLINE_HEADER]: Date.now() + options.timeoutMs },
        },
        encoded,
      );
      this.publishConfirmed(name, this.topology.workQueue(name), encoded.body, properties, 0).then(
        (session) => {
          pending.publishedOn = session;
        },
        (error: Error) => {
          if (this.pendingReplies.delete(correlationId)) {
            clearTimeout(timer);
            reject(error);
          }
        },
      );
    }));
  }

  async consume<N extends MessageName>(name: N, handler: Handler<N>, options: ConsumeOptions = {}): Promise<Subscription> {
    this.assertOpen();
    const queue = this.topology.workQueue(name);
    return this.addConsumer(queue, name, options, (message, channel, abandoned) => this.handleWork(name, queue, handler, message, channel, abandoned));
  }

  async consumeDeadLetters<N extends MessageName>(name: N, handler: DeadLetterHandler<N>, options: ConsumeOptions = {}): Promise<Subscription> {
    this.assertOpen();
    const queue = this.topology.deadLetterQueue(name);
    return this.addConsumer(queue, name, options, (message, channel, abandoned) => this.handleDeadLetter(name, queue, handler, message, channel, abandoned));
  }

  async queueDepth(name: MessageName): Promise<number> {
    this.assertOpen();
    const session = await this.waitForSession(Date.now() + this.settings.publishWaitMs);
    // A dedicated short-lived channel: a failing check closes its channel, and that must not be the publish channel.
    const channel = await session.model.createChannel();
    channel.on('error', (error: Error) => this.logger.warn('queue depth check failed', { queue: this.topology.workQueue(name), errorMessage: error.message }));
    try {
      return (await channel.checkQueue(this.topology.workQueue(name))).messageCount;
    } finally {
      await channel.close().catch(() => undefined);
    }
  }

  async ping(): Promise<void> {
    if (this.closing) throw new MessageBusUnavailableError('the message bus is closed');
    if (!this.session?.alive) {
      throw new MessageBusUnavailableError(`not connected to RabbitMQ${this.lastConnectError ? `: ${this.lastConnectError.message}` : ''}`);
    }
    if (this.blockedReason !== null) throw new MessageBusUnavailableError(`RabbitMQ blocks publishing: ${this.blockedReason}`);
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const closed = new MessageBusUnavailableError('the message bus is closed');
    for (const [correlationId, pending] of this.pendingReplies) {
      this.pendingReplies.delete(correlationId);
      clearTimeout(pending.timer);
      pending.reject(closed);
    }
    for (const waiter of this.sessionWaiters.splice(0)) waiter.reject(closed);
    await Promise.all([...this.consumers].map((consumer) => this.cancelConsumer(consumer)));
    if (this.session) this.session.alive = false;
    this.session = null;
    await this.connection?.close();
    this.logger.info('message bus closed');
  }

  // ---- connection and sessions -------------------------------------------------------------------------------

  private async start(waitForConnection: boolean): Promise<void> {
    const connection = await connect(this.settings.amqpUrl, {
      clientProperties: { connection_name: `docrender ${process.pid}` },
      // Small frames (a reply, an ack) must not wait behind delayed TCP ACKs: without it a request/reply takes ~50 ms.
      noDelay: true,
      recovery: {
        initialDelay: 100,
        maxDelay: this.settings.reconnectMaxDelayMs,
        waitForConnect: false,
        setup: (model: ChannelModel) => this.openSession(model),
      },
    });
    this.connection = connection;
    const target = redact(this.settings.amqpUrl);
    connection.on('connect', () => {
      this.lastConnectError = null;
      this.logger.info('connected to RabbitMQ; topology declared, consumers resumed', { url: target, consumers: this.consumers.size });
    });
    connection.on('connect-failed', (error: Error) => {
      this.lastConnectError = error;
      this.logger.warn('connecting to RabbitMQ failed', { url: target, errorMessage: error.message });
    });
    connection.on('disconnect', (error: Error) => {
      this.logger.warn('RabbitMQ connection lost; reconnecting', { url: target, errorMessage: error.message });
      if (this.session) this.loseSession(this.session);
    });
    connection.on('reconnect-scheduled', (info: { attempt: number; delay: number }) =>
      this.logger.info('RabbitMQ reconnection scheduled', { attempt: info.attempt, delayMs: info.delay }),
    );
    connection.on('blocked', (reason: string) => {
      this.blockedReason = reason;
      this.logger.warn('RabbitMQ blocks publishing', { reason });
    });
    connection.on('unblocked', () => {
      this.blockedReason = null;
      this.logger.info('RabbitMQ unblocked publishing');
    });
    connection.on('error', (error: Error) => this.logger.error('RabbitMQ connection error', { err: error }));

    if (!waitForConnection) {
      if (!this.session?.alive) this.logger.info('starting without waiting for RabbitMQ; connecting in the background', { url: target });
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.settings.connectTimeoutMs);
    });
    try {
      const outcome = await Promise.race([connection.waitForConnect(), timedOut]);
      if (outcome === 'timeout') {
        await connection.close();
        const reason = this.lastConnectError ? `: ${this.lastConnectError.message}` : '';
        throw new MessageBusUnavailableError(`RabbitMQ at ${target} not reachable within ${this.settings.connectTimeoutMs} ms${reason}`, {
          cause: this.lastConnectError,
        });
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs on every (re)connection before it is put to use; a failure closes the connection and schedules a retry. */
  private async openSession(model: ChannelModel): Promise<void> {
    const publishChannel = await model.createConfirmChannel();
    const session: Session = { model, publishChannel, returned: new Set(), declaredDelayQueues: new Set(), alive: true };
    publishChannel.on('error', (error: Error) => this.logger.error('RabbitMQ publish channel error', { err: error }));
    publishChannel.on('close', () => this.afterChannelClosed(session, 'the publish channel closed'));
    publishChannel.on('return', (message: Message) => {
      const publishId = message.properties.headers?.['x-publish-id'];
      if (typeof publishId === 'string') session.returned.add(publishId);
    });
    try {
      await this.topology.declare(publishChannel);
      await publishChannel.consume(DIRECT_REPLY_TO, (message) => this.onReply(message), { noAck: true });
      this.session = session;
      for (const waiter of this.sessionWaiters.splice(0)) waiter.resolve(session);
      for (const consumer of this.consumers) await this.startConsumer(consumer, session);
    } catch (error) {
      this.loseSession(session);
      this.logger.error('setting up the RabbitMQ session failed', { err: error });
      throw error;
    }
  }

  private loseSession(session: Session): void {
    session.alive = false;
    if (this.session === session) this.session = null;
    for (const [correlationId, pending] of this.pendingReplies) {
      if (pending.publishedOn !== session) continue;
      this.pendingReplies.delete(correlationId);
      clearTimeout(pending.timer);
      pending.reject(new MessageBusUnavailableError(`the RabbitMQ connection was lost before the reply to ${pending.messageName} arrived`));
    }
    for (const consumer of this.consumers) {
      if (consumer.session !== session) continue;
      consumer.session = null;
      consumer.channel = null;
      consumer.consumerTag = null;
    }
  }

  /**
   * A channel closed. When the whole connection went down, the connection's own close event follows in the same
   * turn and recovery takes over; otherwise the channel died alone (a channel error) and the session is rebuilt.
   */
  private afterChannelClosed(session: Session, why: string): void {
    setImmediate(() => {
      if (!session.alive || this.closing) return;
      this.loseSession(session);
      this.reconnect(session, why);
    });
  }

  /** Closes the connection so that recovery builds a fresh session (used when a channel died under a live connection). */
  private reconnect(session: Session, why: string): void {
    this.logger.warn(`${why}; reconnecting to RabbitMQ`);
    session.model.close().catch(() => undefined);
  }

  private waitForSession(deadline: number): Promise<Session> {
    if (this.closing) return Promise.reject(new MessageBusUnavailableError('the message bus is closed'));
    if (this.session?.alive) return Promise.resolve(this.session);
    return new Promise<Session>((resolve, reject) => {
      const waiter = {
        resolve: (session: Session) => {
          clearTimeout(timer);
          resolve(session);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.sessionWaiters = this.sessionWaiters.filter((w) => w !== waiter);
        const reason = this.lastConnectError ? ` (${this.lastConnectError.message})` : '';
        reject(new MessageBusUnavailableError(`RabbitMQ unavailable for ${this.settings.publishWaitMs} ms${reason}`, { cause: this.lastConnectError }));
      }, Math.max(0, deadline - Date.now()));
      this.sessionWaiters.push(waiter);
    });
  }

  private assertOpen(): void {
    if (this.closing) throw new MessageBusUnavailableError('the message bus is closed');
  }

  // ---- publishing ----------------------------------------------------------------------------------------------

  /**
   * Publishes to `target` (a work or dead-letter queue; through its delay queue when `delayMs` > 0) with publisher
   * confirms, retrying on the next connection when the confirm was lost; returns the session used.
   */
  private async publishConfirmed(name: MessageName, target: string, body: Buffer, properties: Options.Publish, delayMs: number): Promise<Session> {
    const deadline = Date.now() + this.settings.publishWaitMs;
    for (;;) {
      const session = await this.waitForSession(deadline);
      try {
        let queue = target;
        if (delayMs > 0) {
          queue = this.topology.delayQueueFor(target, delayMs);
          if (!session.declaredDelayQueues.has(queue)) {
            await this.topology.declareDelayQueue(session.publishChannel, target, delayMs);
            session.declaredDelayQueues.add(queue);
          }
        }
        await this.sendConfirmed(session, name, queue, body, properties);
        return session;
      } catch (error) {
        if (!(error instanceof ConnectionLostError) && session.alive) throw error;
        this.assertOpen();
        this.logger.warn('publish interrupted by the loss of the RabbitMQ channel; sending it again on the next connection', {
          messageName: name,
          messageId: properties.messageId,
        });
        this.afterChannelClosed(session, 'a publish lost its confirm');
        // Let the connection's close event (or afterChannelClosed) retire the session before looking for the next.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  private sendConfirmed(session: Session, name: MessageName, queue: string, body: Buffer, properties: Options.Publish): Promise<void> {
    const publishId = randomUUID();
    return new Promise<void>((resolve, reject) => {
      const confirmed = (error: Error | null): void => {
        const returned = session.returned.delete(publishId);
        if (error === null) {
          if (returned) reject(new Error(`RabbitMQ has no queue ${queue} for ${name} (was it deleted?)`));
          else resolve();
          return;
        }
        if (error.message !== NACKED) {
          reject(new ConnectionLostError(error));
          return;
        }
        const bound = queueBound(name, this.settings);
        reject(
          bound?.overflow === 'reject-publish' && queue === this.topology.workQueue(name)
            ? new QueueFullError(name, bound.maxLength)
            : new Error(`RabbitMQ refused the ${name} message`),
        );
      };
      try {
        session.publishChannel.sendToQueue(
          queue,
          body,
          {
            ...properties,
            persistent: true,
            mandatory: true,
            timestamp: Math.floor(Date.now() / 1000),
            headers: { ...(properties.headers as Record<string, unknown> | undefined), 'x-publish-id': publishId },
          },
          confirmed,
        );
      } catch (error) {
        // amqplib throws synchronously when the channel is already closed.
        reject(new ConnectionLostError(error));
      }
    });
  }

  private onReply(message: ConsumeMessage | null): void {
    if (message === null) return;
    const correlationId = message.properties.correlationId as string | undefined;
    const pending = correlationId === undefined ? undefined : this.pendingReplies.get(correlationId);
    if (!pending || correlationId === undefined) {
      this.logger.debug('reply for a request no longer waited for', { correlationId: correlationId ?? null });
      return;
    }
    this.pendingReplies.delete(correlationId);
    clearTimeout(pending.timer);
    try {
      pending.resolve(decodeBody(message));
    } catch (error) {
      pending.reject(new Error(`undecodable reply to ${pending.messageName}`, { cause: error }));
    }
  }

  // ---- consuming -----------------------------------------------------------------------------------------------

  private async addConsumer(
    queue: string,
    messageName: MessageName,
    options: ConsumeOptions,
    onMessage: Consumer['onMessage'],
  ): Promise<Subscription> {
    const consumer: Consumer = {
      queue,
      messageName,
      prefetch: options.prefetch ?? this.settings.prefetch,
      onMessage,
      session: null,
      channel: null,
      consumerTag: null,
      inFlight: new Set(),
      cancelled: false,
    };
    this.consumers.add(consumer);
    // Without a connection the consumer starts with the next session.
    const session = this.session;
    if (session?.alive) {
      try {
        await this.startConsumer(consumer, session);
      } catch (error) {
        if (session.alive) {
          consumer.cancelled = true;
          this.consumers.delete(consumer);
          throw error;
        }
        this.logger.warn('consumer starts with the next RabbitMQ connection', { queue, errorMessage: error instanceof Error ? error.message : String(error) });
      }
    }
    return { cancel: () => this.cancelConsumer(consumer) };
  }

  private async startConsumer(consumer: Consumer, session: Session): Promise<void> {
    if (consumer.cancelled || consumer.session === session) return;
    consumer.session = session;
    const channel = await session.model.createChannel();
    consumer.channel = channel;
    // Deliveries of this channel can only be settled on it: once it closes, their handlers' work is abandoned.
    const channelLost = new AbortController();
    channel.on('error', (error: Error) => this.logger.error('RabbitMQ consumer channel error', { queue: consumer.queue, err: error }));
    channel.on('close', () => {
      channelLost.abort();
      if (consumer.channel !== channel) return;
      consumer.channel = null;
      consumer.consumerTag = null;
      consumer.session = null;
      if (!consumer.cancelled) this.afterChannelClosed(session, `the consumer channel of ${consumer.queue} closed`);
    });
    await channel.prefetch(consumer.prefetch);
    const { consumerTag } = await channel.consume(
      consumer.queue,
      (message) => {
        if (message === null) {
          this.afterChannelClosed(session, `RabbitMQ cancelled the consumer of ${consumer.queue}`);
          return;
        }
        const handling = consumer.onMessage(message, channel, channelLost.signal).catch((error: unknown) =>
          this.logger.error('message handling failed unexpectedly', { queue: consumer.queue, err: error }),
        );
        consumer.inFlight.add(handling);
        void handling.finally(() => consumer.inFlight.delete(handling));
      },
      { noAck: false },
    );
    consumer.consumerTag = consumerTag;
    if (consumer.cancelled) await this.stopChannel(consumer, channel, consumerTag);
  }

  private async cancelConsumer(consumer: Consumer): Promise<void> {
    if (consumer.cancelled) return;
    consumer.cancelled = true;
    this.consumers.delete(consumer);
    const { channel, consumerTag } = consumer;
    if (channel && consumerTag) await this.stopChannel(consumer, channel, consumerTag);
  }

  /** Stops deliveries, lets the handlers in flight finish (and ack), then closes the channel. */
  private async stopChannel(consumer: Consumer, channel: Channel, consumerTag: string): Promise<void> {
    await channel.cancel(consumerTag).catch(() => undefined);
    await Promise.allSettled([...consumer.inFlight]);
    consumer.channel = null;
    await channel.close().catch(() => undefined);
  }

  private async handleWork<N extends MessageName>(
    name: N,
    queue: string,
    handler: Handler<N>,
    message: ConsumeMessage,
    channel: Channel,
    abandoned: AbortSignal,
  ): Promise<void> {
    const context = { messageId: message.properties.messageId ?? '', redeliveries: failedDeliveriesOf(message), abandoned };
    const fields = { messageName: name, messageId: context.messageId, redeliveries: context.redeliveries };
    let payload: MessagePayloads[N];
    try {
      payload = decodeBody(message) as MessagePayloads[N];
    } catch (error) {
      this.logger.error('undecodable message dead-lettered', { ...fields, err: error });
      this.settle(fields, () => channel.nack(message, false, false));
      return;
    }
    const replyDeadline = replyDeadlineOf(message);
    if (replyDeadline !== null && Date.now() >= replyDeadline) {
      this.logger.warn('request dropped unhandled: its requester stopped waiting', fields);
      this.settle(fields, () => channel.ack(message));
      return;
    }
    let reply: unknown;
    try {
      reply = await consumeInSpan(SYSTEM, name, context.messageId, payload, message.properties.headers, () => handler(payload, context));
    } catch (error) {
      if (abandoned.aborted) return this.logAbandoned(fields, error);
      const outage = dependencyOutageOf(error);
      if (outage) return this.waitOutOutage(name, queue, message, channel, abandoned, outage, fields);
      this.logHandlerFailure(fields, error);
      this.failed(message, channel, fields);
      return;
    }
    if (abandoned.aborted) return this.logAbandoned(fields, null);
    const replyTo = message.properties.replyTo as string | undefined;
    if (replyTo) {
      this.settle(fields, () => {
        const encoded = encodeMessage(reply);
        channel.sendToQueue(replyTo, encoded.body, withBodyProperties({ correlationId: message.properties.correlationId as string | undefined }, encoded));
      });
    }
    this.settle(fields, () => channel.ack(message));
  }

  private async handleDeadLetter<N extends MessageName>(
    name: N,
    queue: string,
    handler: DeadLetterHandler<N>,
    message: ConsumeMessage,
    channel: Channel,
    abandoned: AbortSignal,
  ): Promise<void> {
    const reason = deadLetterReasonOf(message, this.topology.workQueue(name));
    const fields = { messageName: name, messageId: message.properties.messageId ?? '', reason, redeliveries: redeliveriesOf(message) };
    let payload: MessagePayloads[N];
    try {
      payload = decodeBody(message) as MessagePayloads[N];
    } catch (error) {
      this.logger.error('undecodable dead letter discarded', { ...fields, err: error });
      this.settle(fields, () => channel.ack(message));
      return;
    }
    try {
      await handler(payload, { messageId: fields.messageId, reason });
    } catch (error) {
      if (abandoned.aborted) return this.logAbandoned(fields, error);
      const outage = dependencyOutageOf(error);
      if (outage) return this.waitOutOutage(name, queue, message, channel, abandoned, outage, fields);
      this.logHandlerFailure(fields, error);
      this.settle(fields, () => channel.nack(message, false, true));
      return;
    }
    this.settle(fields, () => channel.ack(message));
  }

  /**
   * The handler could not reach a dependency: not the message's fault. A copy of the message (same body, id and
   * properties, one more outage wait, its earlier failures carried) waits in the delay queue in front of `queue`
   * for AMQP_OUTAGE_WAIT_MS doubling up to AMQP_OUTAGE_WAIT_MAX_MS, then the original is acknowledged. The copy's
   * delivery count starts afresh, so the outage spends nothing of the delivery limit. When the copy cannot be
   * published (RabbitMQ itself is away), the original goes back to the queue as after any failure.
   */
  private async waitOutOutage(
    name: MessageName,
    queue: string,
    message: ConsumeMessage,
    channel: Channel,
    abandoned: AbortSignal,
    outage: DependencyOutage,
    fields: { messageName: MessageName; messageId: string; redeliveries: number },
  ): Promise<void> {
    const waits = outageWaitsOf(message);
    const waitMs = outageWaitMs(waits, this.settings);
    const { properties } = message;
    try {
      await this.publishConfirmed(
        name,
        queue,
        message.content,
        {
          messageId: properties.messageId as string | undefined,
          correlationId: properties.correlationId as string | undefined,
          replyTo: properties.replyTo as string | undefined,
          type: properties.type as string | undefined,
          contentType: properties.contentType as string | undefined,
          headers: outageCopyHeaders(message),
        },
        waitMs,
      );
    } catch (error) {
      this.logger.warn('dependency outage, and the message could not be set aside; it returns to the queue', {
        ...fields,
        dependency: outage.dependency,
        errorMessage: error instanceof Error ? error.message : String(error),
      });
      this.settle(fields, () => channel.nack(message, false, true));
      return;
    }
    if (abandoned.aborted) return this.logAbandoned(fields, null);
    this.logger.warn('dependency outage: the message waits and is tried again (not counted against its delivery limit)', {
      ...fields,
      queue,
      dependency: outage.dependency,
      reason: outage.reason,
      waitMs,
      outageWaits: waits + 1,
    });
    this.settle(fields, () => channel.ack(message));
  }

  /**
   * A handler failed on its own: the message returns to the queue and the broker counts the delivery. A copy that
   * waited out an outage carries its earlier failures, which the broker does not see: at the limit the bus
   * dead-letters it itself.
   */
  private failed(message: ConsumeMessage, channel: Channel, fields: { messageName: MessageName; messageId: string; redeliveries: number }): void {
    const requeue = !(fields.redeliveries >= this.settings.deliveryLimit && fields.redeliveries > redeliveriesOf(message));
    this.settle(fields, () => channel.nack(message, false, requeue));
  }

  /**
   * The channel closed under the handler: the broker has returned the message to the queue, so its result (a reply
   * included: another delivery answers the requester) is discarded rather than sent on a channel that is gone.
   */
  private logAbandoned(fields: { messageName: MessageName; messageId: string; redeliveries: number }, error: unknown): void {
    this.logger.warn('delivery abandoned: its channel closed while the handler ran; RabbitMQ delivers the message again', {
      ...fields,
      handlerOutcome: error === null ? 'resolved' : `threw: ${error instanceof Error ? error.message : String(error)}`,
    });
  }

  private logHandlerFailure(fields: { messageName: MessageName; messageId: string; redeliveries: number }, error: unknown): void {
    const errorMessage = error instanceof Error ? error.message : String(error);
    if (fields.redeliveries >= this.settings.deliveryLimit) {
      this.logger.error('handler failed on the last allowed delivery; the message is dead-lettered', { ...fields, err: error });
    } else {
      this.logger.warn('handler failed; the message returns to the queue', { ...fields, errorMessage });
    }
  }

  /** Acks, nacks or replies; on a channel that died meanwhile the broker redelivers the message, which is all we can do. */
  private settle(fields: Record<string, string | number>, action: () => void): void {
    try {
      action();
    } catch (error) {
      this.logger.info('channel closed before the message was settled; RabbitMQ redelivers it', {
        ...fields,
        errorMessage: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
