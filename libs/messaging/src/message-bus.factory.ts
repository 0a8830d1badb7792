import type { MessagingSettings } from '@docrender/config';
import { AmqpMessageBus } from './amqp/amqp-message-bus';
import { InProcessMessageBus } from './in-process/in-process-message-bus';
import type { MessageBus } from './message-bus';
import type { MessagingLogger } from './messaging-logger';

/**
 * The message bus the settings ask for: RabbitMQ when AMQP_URL is set (connected, topology declared; with
 * `waitForConnection: false` connecting in the background, see AmqpMessageBus.connect), otherwise the in-process bus
 * (one-process mode; not durable across restarts).
 */
export async function createMessageBus(settings: MessagingSettings, logger: MessagingLogger, options: { waitForConnection?: boolean } = {}): Promise<MessageBus> {
  if (settings.amqpUrl === undefined) {
    logger.info('AMQP_URL is not set: using the in-process message bus (messages do not survive a restart)');
    return new InProcessMessageBus(settings, logger);
  }
  return AmqpMessageBus.connect(settings, logger, options);
}
