import { counter, histogram } from '@docrender/observability';

/** What operators of the webhook dispatcher count and alert on. */
export const dispatcherMetrics = {
  attempts: counter('docrender_webhook_attempts_total', 'Callback delivery attempts by outcome (delivered, failed, refused).', ['outcome']),
  attemptSeconds: histogram('docrender_webhook_attempt_seconds', 'Duration of callback delivery attempts.', [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]),
  abandoned: counter(
    'docrender_webhook_abandoned_total',
    'Callbacks given up: 5 failed attempts (failed), a target the egress policy refuses (refused), or a lost message with no copy left to send (lost).',
    ['reason'],
  ),
  resent: counter('docrender_webhook_resent_total', 'Callbacks the reaper sent again because their message was lost (no news for WEBHOOK_REAPER_STALE_MS).'),
  dropped: counter('docrender_webhook_dropped_total', 'Callbacks dropped without delivery: the oldest pending ones under overload (max-length) or after repeated handler failures.', ['reason']),
  hostBusy: counter(
    'docrender_webhook_host_busy_total',
    'Callbacks parked back in the queue after waiting WEBHOOK_HOST_BUSY_DELAY_MS in the dispatcher while their host held its share of the slots.',
  ),
};
