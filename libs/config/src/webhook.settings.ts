import { ConfigOf, setting } from './setting';

/** The webhook dispatcher (docs/api.md#asynchronous-jobs-and-callbacks): delivery concurrency, per-attempt timeout, retry backoff. */
export const webhookSettings = {
  inFlight: setting.int('WEBHOOK_IN_FLIGHT', 'Callback deliveries one webhook-dispatcher process has in flight at once, to one host or many.', 16, {
    min: 1,
    max: 1000,
  }),
  perHostInFlight: setting.int(
    'WEBHOOK_PER_HOST_IN_FLIGHT',
    'A callback host\'s (host:port) share of WEBHOOK_IN_FLIGHT while callbacks to other hosts wait: a freed slot goes to a host below its share first. A host alone gets every slot.',
    4,
    { min: 1, max: 1000 },
  ),
  attemptTimeoutMs: setting.int(
    'WEBHOOK_ATTEMPT_TIMEOUT_MS',
    'Deadline of one delivery attempt: DNS, connect, request and response (the contract\'s "about 30 s": docs/api.md#asynchronous-jobs-and-callbacks). A timeout is a failed attempt.',
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
    'How long a callback whose host holds its share (WEBHOOK_PER_HOST_IN_FLIGHT) may wait for a slot inside the dispatcher before it is parked in RabbitMQ for as long, so that other hosts\' callbacks queued behind a slow host are reached; not counted as an attempt.',
    10_000,
    { min: 10, max: 600_000 },
  ),
  reaperIntervalMs: setting.int(
    'WEBHOOK_REAPER_INTERVAL_MS',
    'How often the dispatcher looks for callbacks whose message was lost (a delivery still pending, or a published callback never taken, for longer than WEBHOOK_REAPER_STALE_MS) and sends them again; one replica at a time. 0 turns it off.',
    60_000,
    { min: 0, max: 86_400_000 },
  ),
  reaperStaleMs: setting.int(
    'WEBHOOK_REAPER_STALE_MS',
    'How long a callback may stay pending without news before the reaper counts its message as lost and sends it again (a duplicate message is harmless: attempts are claimed). Keep it well above the longest queue backlog.',
    600_000,
    { min: 1_000, max: 604_800_000 },
  ),
  maxResponseBytes: setting.int(
    'WEBHOOK_MAX_RESPONSE_BYTES',
    "Largest receiver response body read (the body is discarded); a longer answer is a failed attempt.",
    1_048_576,
    { min: 0, max: 104_857_600 },
  ),
};

export type WebhookSettings = ConfigOf<typeof webhookSettings>;
