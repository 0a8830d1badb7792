import { ConfigOf, setting } from './setting';

/**
 * Message bus settings, shared by every app that publishes or consumes (see docs/decisions/0002-rabbitmq-topology.md).
 * The queue bounds, delivery limit and default prefetch apply to both transports: RabbitMQ and the in-process bus.
 */
export const messagingSettings = {
  amqpUrl: setting.optionalUrl(
    'AMQP_URL',
    'RabbitMQ connection URL (amqp:// or amqps://; the path selects the vhost; query parameters such as ?heartbeat=10 go to amqplib). Unset: the in-process message bus (one-process mode; pending messages do not survive a restart).',
    ['amqp', 'amqps'],
  ),
  queuePrefix: setting.string(
    'AMQP_QUEUE_PREFIX',
    'Prefix of every queue and exchange name the service declares (lets several installations or test runs share one vhost).',
    '',
  ),
  prefetch: setting.int(
    'AMQP_PREFETCH',
    'Unacknowledged messages one consumer holds at once when the consumer does not say (match it to the work it does in parallel).',
    8,
    { min: 1, max: 1000 },
  ),
  deliveryLimit: setting.int(
    'AMQP_DELIVERY_LIMIT',
    'Redeliveries of a message whose handler failed (or whose consumer died) before it is dead-lettered; the message is handled at most this many times plus one.',
    5,
    { min: 0, max: 1000 },
  ),
  outageWaitMs: setting.int(
    'AMQP_OUTAGE_WAIT_MS',
    'First wait of a message whose handler found a dependency unreachable (PostgreSQL, S3, RabbitMQ, the render service): it waits durably in a delay queue, not counted against AMQP_DELIVERY_LIMIT; each further wait doubles, up to AMQP_OUTAGE_WAIT_MAX_MS.',
    1_000,
    { min: 10, max: 600_000 },
  ),
  outageWaitMaxMs: setting.int(
    'AMQP_OUTAGE_WAIT_MAX_MS',
    'Longest wait of a message during a dependency outage (see AMQP_OUTAGE_WAIT_MS); a message is tried again at least this often until the dependency is back.',
    10_000,
    { min: 10, max: 3_600_000 },
  ),
  jobQueueMaxLength: setting.int(
    'AMQP_JOB_QUEUE_MAX_LENGTH',
    'Ready messages the job.run queue holds; beyond it publishing fails with QueueFull (503 on enqueue). RabbitMQ quorum queues may accept one message over the bound.',
    10_000,
    { min: 1, max: 10_000_000 },
  ),
  webhookQueueMaxLength: setting.int(
    'AMQP_WEBHOOK_QUEUE_MAX_LENGTH',
    'Ready messages the webhook.deliver queue holds; beyond it the oldest pending callbacks are dropped (dead-lettered with reason max-length).',
    100_000,
    { min: 1, max: 10_000_000 },
  ),
  deadLetterMaxLength: setting.int(
    'AMQP_DEAD_LETTER_MAX_LENGTH',
    'Messages each dead-letter queue keeps; beyond it the oldest dead letters are discarded.',
    100_000,
    { min: 1, max: 10_000_000 },
  ),
  publishWaitMs: setting.int(
    'AMQP_PUBLISH_WAIT_MS',
    'How long a publish or request waits for RabbitMQ during a connection outage before it fails with MessageBusUnavailable.',
    15_000,
    { min: 0, max: 600_000 },
  ),
  connectTimeoutMs: setting.int(
    'AMQP_CONNECT_TIMEOUT_MS',
    'How long start-up waits for the first RabbitMQ connection before the app stops with an error.',
    30_000,
    { min: 100, max: 600_000 },
  ),
  reconnectMaxDelayMs: setting.int(
    'AMQP_RECONNECT_MAX_DELAY_MS',
    'Longest pause between reconnection attempts after the RabbitMQ connection dropped (exponential backoff from 100 ms, with jitter).',
    5_000,
    { min: 100, max: 300_000 },
  ),
};

export type MessagingSettings = ConfigOf<typeof messagingSettings>;
