import type { Logger } from '@docrender/observability';

/** What the message bus logs through: the observability Logger, or anything with its four levels. */
export type MessagingLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;
