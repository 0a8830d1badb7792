import type { Message, MessageProperties, Options } from 'amqplib';
import type { DeadLetterReason } from '../message-bus';
import { BINARY_PARTS_HEADER, decodeMessage, type EncodedMessage } from '../message-codec';

/** Header carrying the epoch milliseconds after which the requester no longer waits for a reply. */
export const REPLY_DEADLINE_HEADER = 'x-reply-deadline';

/** Header counting the outages a message waited out (it picks the next wait). */
export const OUTAGE_WAITS_HEADER = 'x-outage-waits';

/**
 * Header carrying the failed deliveries of a message's earlier copies: a message that waits out an outage is
 * published again (the broker counts the copy's deliveries from 0), and its failures before the outage still count.
 */
export const FAILED_DELIVERIES_HEADER = 'x-failed-deliveries';

/** RabbitMQ's pseudo-queue for direct reply-to (no reply queue is declared). */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

/** A plain JSON body is `application/json`; one with binary parts after its JSON (decision 0022) is marked as such. */
const JSON_WITH_BINARY_PARTS = 'application/vnd.docrender.json-with-binary-parts';

/** The value a message carries (its binary parts back in place). Throws when the body does not decode. */
export function decodeBody(message: { content: Buffer; properties: Pick<MessageProperties, 'headers'> }): unknown {
  return decodeMessage(message.content, message.properties.headers?.[BINARY_PARTS_HEADER]);
}

/**
 * `properties` with those of an encoded body: `application/json`, or for a body with binary parts after its JSON
 * their content type and the header that places them.
 */
export function withBodyProperties(properties: Options.Publish, encoded: EncodedMessage): Options.Publish {
  if (encoded.binaryParts === null) return { ...properties, contentType: 'application/json' };
  const headers = { ...(properties.headers as Record<string, unknown> | undefined), [BINARY_PARTS_HEADER]: encoded.binaryParts };
  return { ...properties, contentType: JSON_WITH_BINARY_PARTS, headers };
}

function headers(properties: MessageProperties): Record<string, unknown> {
  return (properties.headers ?? {}) as Record<string, unknown>;
}

/** Earlier deliveries of this message: quorum queues count them in `x-delivery-count`. */
export function redeliveriesOf(message: Message): number {
  const count = headers(message.properties)['x-delivery-count'];
  if (typeof count === 'number') return count;
  return message.fields.redelivered ? 1 : 0;
}

function numberHeader(message: Message, name: string): number {
  const value = headers(message.properties)[name];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : 0;
}

/** Earlier failed deliveries of this message, its earlier copies' included (see FAILED_DELIVERIES_HEADER). */
export function failedDeliveriesOf(message: Message): number {
  return numberHeader(message, FAILED_DELIVERIES_HEADER) + redeliveriesOf(message);
}

export function outageWaitsOf(message: Message): number {
  return numberHeader(message, OUTAGE_WAITS_HEADER);
}

/**
 * The headers of the copy of `message` that waits out an outage: one more wait, the failures so far carried over,
 * the broker's own delivery count and the bus's publish id left out (the copy gets its own).
 */
export function outageCopyHeaders(message: Message): Record<string, unknown> {
  const { 'x-delivery-count': _count, 'x-publish-id': _publishId, ...kept } = headers(message.properties);
  return { ...kept, [OUTAGE_WAITS_HEADER]: outageWaitsOf(message) + 1, [FAILED_DELIVERIES_HEADER]: failedDeliveriesOf(message) };
}

export function replyDeadlineOf(message: Message): number | null {
  const deadline = headers(message.properties)[REPLY_DEADLINE_HEADER];
  return typeof deadline === 'number' ? deadline : null;
}

const REASONS: Record<string, DeadLetterReason> = {
  delivery_limit: 'delivery-limit',
  maxlen: 'max-length',
  rejected: 'rejected',
  expired: 'expired',
};

/**
 * Why a message was dead-lettered from `workQueue`. `x-death` lists every dead-lettering the message went through
 * (a delayed message first expired from its delay queue), so the entry of the work queue is the one that counts.
 */
export function deadLetterReasonOf(message: Message, workQueue: string): DeadLetterReason {
  const deaths = headers(message.properties)['x-death'];
  if (Array.isArray(deaths)) {
    const entry = deaths.find((death: unknown) => (death as { queue?: unknown }).queue === workQueue) as { reason?: unknown } | undefined;
    const reason = typeof entry?.reason === 'string' ? REASONS[entry.reason] : undefined;
    // A copy that waited out an outage carries its earlier failures; the bus rejects it itself at the limit.
    if (reason === 'rejected' && numberHeader(message, FAILED_DELIVERIES_HEADER) > 0) return 'delivery-limit';
    if (reason) return reason;
  }
  return 'rejected';
}
