import type { EventMessageName, MessagePayloads } from '@docrender/contracts';
import { traceCarrier, withTraceCarrier, type Logger } from '@docrender/observability';
import type { MessageBus } from '../message-bus';

/** A message stored in the same transaction as the state change it announces, published later by OutboxRelay. */
export type OutboxMessage = {
  [N in EventMessageName]: { id: string; name: N; payload: MessagePayloads[N]; createdAt: Date };
}[EventMessageName];

/** A stored message with the trace context of the request or job that stored it. */
export type StoredOutboxMessage = { message: OutboxMessage; trace: unknown };

/**
 * Where the outbox is kept (persistence's OutboxSqlStore over the `outbox` table): the relay decides when and what
 * to publish, the store how messages are taken, marked and removed.
 */
export interface OutboxStore {
  /**
   * In one transaction: takes up to `limit` unpublished messages named one of `names` and stored at or before
   * `storedBefore`, oldest first, locked so that no other relay takes them meanwhile (skipped, not waited for); hands
   * them to `publish`, which resolves with how many of them, from the first, were published; marks those published
   * at `now`. Resolves with how many were taken.
   */
  publishOldest(
    query: { names: readonly EventMessageName[]; storedBefore: Date; limit: number; now: Date },
    publish: (messages: StoredOutboxMessage[]) => Promise<number>,
  ): Promise<number>;
  /** Marks these messages published at `at`, those not already marked. */
  markPublished(ids: readonly string[], at: Date): Promise<void>;
  /** Deletes the messages named one of `names` published before `before`; resolves with how many. */
  deletePublishedBefore(names: readonly EventMessageName[], before: Date): Promise<number>;
}

/** Publishes one stored message; resolves once the transport confirmed it (a MessageBus publish with confirms). */
export type OutboxPublisher = (message: OutboxMessage) => Promise<void>;

/** What the relay logs with. */
export type OutboxRelayLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export type OutboxRelayOptions = {
  /** The message names this relay publishes: each app relays what it stores, so one full queue never blocks another. */
  messageNames: readonly EventMessageName[];
  /** How often to look for unpublished messages besides `kick()`. */
  pollIntervalMs: number;
  /**
   * Messages younger than this are left alone (the code that stored them publishes them itself at once, e.g. with
   * `publishCommitted`); keep it well above a publish's confirm. Default 0.
   */
  minAgeMs?: number;
  /** Messages published per transaction. Default 100. */
  batchSize?: number;
  /**
   * How long `publishCommitted` gathers messages before it publishes them together; 0 publishes each at once.
   * Several messages sent in one go let the broker, the consumer and the consumer's database each wake once for
   * them, not once per message (issue 23). Keep it well below `minAgeMs`. Default 0.
   */
  gatherMs?: number;
  /** Published messages older than this are deleted by the relay; undefined keeps them. */
  keepPublishedMs?: number;
  /**
   * Resolves when the transport can take messages, rejects otherwise (MessageBus.ping). Checked before each batch,
   * so a relay never holds a database transaction while it waits for a transport that is down.
   */
  ready?: () => Promise<void>;
};

const CLEANUP_EVERY_MS = 60_000;
/** How long the marks of messages published by their writer are gathered before one statement writes them. */
const MARK_DELAY_MS = 250;

/**
 * The publishing half of the transactional outbox: messages stored in the same database transaction as the state
 * change they announce (an OutboxStore) are published with publisher confirms and then marked published. The store
 * locks what it hands out, so any number of relays (replicas, apps) run at once without publishing one message
 * concurrently twice. At-least-once: a crash between the confirm and the commit publishes the message again
 * (its id is the message id; consumers are idempotent). Publishing stops at the first failure of a pass (RabbitMQ
 * away, queue full) and resumes on the next poll.
 */
export class OutboxRelay {
  private readonly batchSize: number;
  private readonly minAgeMs: number;
  private timer: NodeJS.Timeout | null = null;
  private pass: Promise<void> | null = null;
  private passRequested = false;
  private stopped = true;
  private lastCleanup = 0;
  /** A pass failed and no pass has succeeded since (a failure is logged once per streak, not on every poll). */
  private failing = false;
  /** Publishes of `publishCommitted` not yet confirmed or failed. */
  private readonly publishing = new Set<Promise<void>>();
  /** Ids of messages `publishCommitted` published that are not yet marked. */
  private confirmed: string[] = [];
  private markTimer: NodeJS.Timeout | null = null;
  private marking: Promise<void> = Promise.resolve();
  /** Messages `publishCommitted` is gathering, each with the trace it was stored in. */
  private gathered: Array<{ message: OutboxMessage; trace: unknown }> = [];
  private gatherTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: OutboxStore,
    private readonly publish: OutboxPublisher,
    private readonly options: OutboxRelayOptions,
    private readonly logger: OutboxRelayLogger,
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.minAgeMs = options.minAgeMs ?? 0;
  }

  /** Starts polling (a first pass runs at once). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.kick();
  }

  /** Runs a pass soon (call it after committing a transaction that stored messages). */
  kick(): void {
    if (this.stopped) return;
    if (this.pass) {
      this.passRequested = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pass = this.runPasses().finally(() => {
      this.pass = null;
      this.schedule();
    });
  }

  /**
   * Stops polling, publishes what `publishCommitted` was gathering, and waits for a pass in progress, for the
   * publishes of `publishCommitted` and for their marks.
   */
  async stop(): Promise<void> {
    void this.publishGathered();
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
    await Promise.all(this.publishing);
    await this.writeMarks();
  }

  /**
   * Publishes a message its writer has just committed, without a pass (no transaction, no select): the passes leave
   * it alone for `minAgeMs`. Messages are gathered for `gatherMs` and published together; with `now` (a job's
   * completion callback) those gathered go at once and this one once they are confirmed. Once confirmed a message is
   * marked published, with the other messages confirmed within MARK_DELAY_MS, in one statement. A publish that fails
   * (or a crash before it or before the mark) leaves the message to a later pass, which publishes it (again: consumers
   * are idempotent by message id).
   */
  publishCommitted(message: OutboxMessage, options: { now?: boolean } = {}): void {
    if (this.stopped) return;
    // Published in the caller's trace (the job or request that stored it), also when published later.
    const trace = traceCarrier();
    const gatherMs = this.options.gatherMs ?? 0;
    if (options.now !== true && gatherMs > 0) {
      this.gathered.push({ message, trace });
      this.gatherTimer ??= setTimeout(() => void this.publishGathered(), gatherMs);
      return;
    }
    // Behind those gathered before it, as it would have been without gathering: a job's completion callback then
    // reaches the queue after its last progress callbacks.
    const publishing: Promise<void> = this.publishGathered()
      .then(() => this.publishOne(message, trace))
      .finally(() => this.publishing.delete(publishing));
    this.publishing.add(publishing);
  }

  /** Publishes the gathered messages; resolves once each is confirmed or has failed. */
  private publishGathered(): Promise<unknown> {
    if (this.gatherTimer) clearTimeout(this.gatherTimer);
    this.gatherTimer = null;
    const gathered = this.gathered;
    this.gathered = [];
    return Promise.all(gathered.map(({ message, trace }) => this.publishOne(message, trace)));
  }

  /** Publishes one message and marks it once confirmed; resolves when that is settled (it never rejects). */
  private publishOne(message: OutboxMessage, trace: unknown): Promise<void> {
    const publishing: Promise<void> = Promise.resolve()
      .then(() => withTraceCarrier(trace, () => this.publish(message)))
      .then(
        () => {
          this.confirmed.push(message.id);
          this.markTimer ??= setTimeout(() => void this.writeMarks(), MARK_DELAY_MS);
        },
        (error: unknown) =>
          this.logger.debug('a message its writer published was not confirmed; a later relay pass publishes it', {
            messageId: message.id,
            errorMessage: error instanceof Error ? error.message : String(error),
          }),
      )
      .finally(() => this.publishing.delete(publishing));
    this.publishing.add(publishing);
    return publishing;
  }

  /**
   * Publishes every publishable message, batch after batch, until none is left or a publish fails (the error is
   * rethrown after the messages published before it are marked). Returns how many were published.
   */
  async publishPending(now: () => Date = () => new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      await this.options.ready?.();
      const { published, failure, taken } = await this.publishBatch(now);
      total += published;
      if (failure !== null) throw failure;
      if (taken < this.batchSize) return total;
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.kick(), this.options.pollIntervalMs);
    this.timer.unref();
  }

  private async runPasses(): Promise<void> {
    do {
      this.passRequested = false;
      try {
        const published = await this.publishPending();
        if (published > 0) this.logger.debug('outbox messages published', { published });
        if (this.failing) this.logger.info('outbox relay publishing again', { published });
        this.failing = false;
        await this.cleanUp();
      } catch (error) {
        const fields = { errorName: error instanceof Error ? error.name : 'Error', errorMessage: error instanceof Error ? error.message : String(error) };
        if (this.failing) this.logger.debug('outbox relay pass stopped again', fields);
        else this.logger.warn('outbox relay pass stopped; the remaining messages are published on a later pass', fields);
        this.failing = true;
        return;
      }
    } while (this.passRequested && !this.stopped);
  }

  private async publishBatch(now: () => Date): Promise<{ published: number; taken: number; failure: unknown }> {
    let failure: unknown = null;
    let published = 0;
    const at = now();
    const query = { names: this.options.messageNames, storedBefore: new Date(at.getTime() - this.minAgeMs), limit: this.batchSize, now: at };
    const taken = await this.store.publishOldest(query, async (messages) => {
      for (const { message, trace } of messages) {
        try {
          // Published in the trace of the request or job that stored it.
          await withTraceCarrier(trace, () => this.publish(message));
        } catch (error) {
          failure = error;
          break;
        }
        published += 1;
      }
      return published;
    });
    return { published, taken, failure };
  }

  /** Marks the messages `publishCommitted` published; one write at a time, each taking every mark gathered before it. */
  private writeMarks(): Promise<void> {
    if (this.markTimer) clearTimeout(this.markTimer);
    this.markTimer = null;
    this.marking = this.marking.then(async () => {
      const ids = this.confirmed;
      if (ids.length === 0) return;
      this.confirmed = [];
      try {
        await this.store.markPublished(ids, new Date());
      } catch (error) {
        this.logger.warn('published outbox messages could not be marked; a later relay pass publishes them again', {
          messages: ids.length,
          errorMessage: error instanceof Error ? error.message : String(error),
        });
      }
    });
    return this.marking;
  }

  private async cleanUp(): Promise<void> {
    const keep = this.options.keepPublishedMs;
    if (keep === undefined || Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    const deleted = await this.store.deletePublishedBefore(this.options.messageNames, new Date(Date.now() - keep));
    if (deleted > 0) this.logger.debug('published outbox messages deleted', { deleted });
  }
}

/**
 * An outbox relay that publishes to `bus` under each message's id, with its confirms, and holds no transaction while
 * the bus is away (each batch first asks `bus.ping()`; decision 0010).
 */
export function outboxRelayTo(bus: MessageBus, store: OutboxStore, options: Omit<OutboxRelayOptions, 'ready'>, logger: OutboxRelayLogger): OutboxRelay {
  return new OutboxRelay(store, (message) => bus.publish(message.name, message.payload, { messageId: message.id }), { ...options, ready: () => bus.ping() }, logger);
}
