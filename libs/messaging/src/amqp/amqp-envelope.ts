import type { Message, MessageProperties } from 'amqplib';
import type { DeadLetterReason } from '../message-bus';

/** Header carrying the epoch milliseconds after which the requester no longer waits for a reply. */
export const REPLY_DEADLINE_HEADER = 'x-reply-deadline';

/** RabbitMQ's pseudo-queue for direct reply-to (no reply queue is declared). */
export const DIRECT_REPLY_TO = 'amq.rabbitmq.reply-to';

export function encodeBody(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value ?? null), 'utf8');
}

export function decodeBody(content: Buffer): unknown {
  return JSON.parse(content.toString('utf8'));
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
    if (reason) return reason;
  }
  return 'rejected';
}
