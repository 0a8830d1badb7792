import { ConfigOf, setting } from './setting';

/** The webhook dispatcher (spec 6.3): delivery concurrency, per-attempt timeout, retry backoff. */
export const webhookSettings = {
  inFlight: setting.int('WEBHOOK_IN_FLIGHT', 'Callback deliveries one webhook-dispatcher process has in flight at once (spec 6.3: 16).', 16, {
    min: 1,
    max: 1000,
  }),
  perHostInFlight: setting.int(
    'WEBHOOK_PER_HOST_IN_FLIGHT',
    'Deliveries in flight to one callback host (host:port) at once, so a slow or black-holed receiver cannot take every slot; further callbacks to that host wait in the queue.',
    4,
    { min: 1, max: 1000 },
  ),
  attemptTimeoutMs: setting.int(
    'WEBHOOK_ATTEMPT_TIMEOUT_MS',
    'Deadline of one delivery attempt: DNS, connect, request and response (spec 6.3: about 30 s). A timeout is a failed attempt.',
    30_000,
    { min: 100, max: 600_000 },
  ),
  backoffScale: setting.number(
    'WEBHOOK_BACKOFF_SCALE',
    'Multiplies the retry backoff of 2, 4, 8, 16 s (1 in production; tests use e.g. 0.05).',
    1,
    { min: 0, max: 100 },
  ),
  hostBusyDelayMs: setting.int(
    'WEBHOOK_HOST_BUSY_DELAY_MS',
    'When a callback host is at WEBHOOK_PER_HOST_IN_FLIGHT, how long its next callback waits (durably, in RabbitMQ) before it is tried again; not counted as an attempt.',
    1_000,
    { min: 10, max: 600_000 },
  ),
  maxResponseBytes: setting.int(
    'WEBHOOK_MAX_RESPONSE_BYTES',
    "Largest receiver response body read (the body is discarded); a longer answer is a failed attempt.",
    1_048_576,
    { min: 0, max: 104_857_600 },
  ),
};

export type WebhookSettings = ConfigOf<typeof webhookSettings>;
