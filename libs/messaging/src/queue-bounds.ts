import { MessageName } from '@docrender/contracts';
import type { MessagingSettings } from '@docrender/config';

/** What a full queue does with one more message: refuse it (publisher sees QueueFullError) or drop its oldest. */
export type QueueOverflow = 'reject-publish' | 'drop-head';

export type QueueBound = { maxLength: number; overflow: QueueOverflow };

/** Every message name, for declaring one queue each. */
export const ALL_MESSAGE_NAMES: readonly MessageName[] = Object.values(MessageName);

/**
 * The bound of each message name's queue, the same for both transports:
 * - job.run refuses publishing when full, so the gateway can answer 503 QueueFull (spec 4.5);
 * - webhook.deliver drops its oldest pending callbacks under overload (spec 6.3.4); they are dead-lettered with
 *   reason `max-length`, where the dispatcher counts them;
 * - the render requests are unbounded: a sync render waits for its reply with a timeout anyway.
 */
export function queueBound(name: MessageName, settings: Pick<MessagingSettings, 'jobQueueMaxLength' | 'webhookQueueMaxLength'>): QueueBound | null {
  switch (name) {
    case MessageName.RunJob:
      return { maxLength: settings.jobQueueMaxLength, overflow: 'reject-publish' };
    case MessageName.DeliverWebhook:
      return { maxLength: settings.webhookQueueMaxLength, overflow: 'drop-head' };
    case MessageName.RenderDocument:
    case MessageName.RenderPreview:
      return null;
  }
}
