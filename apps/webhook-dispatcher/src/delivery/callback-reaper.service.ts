import { Inject, Injectable } from '@nestjs/common';
import { type ConfigOf, Settings, webhookSettings } from '@docrender/config';
import { MessageName, type DeliverWebhookCommand } from '@docrender/contracts';
import { MESSAGE_BUS, type MessageBus } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import { ExclusivePasses, WebhookDeliveryRepository, type StaleDelivery } from '@docrender/persistence';
import { LOGGER, PeriodicPassService } from '@docrender/platform';
import { retryDelaySeconds } from '@docrender/webhooks';
import { dispatcherMetrics } from './dispatcher-metrics';

/** The pg_advisory_lock key meaning "a callback reaper pass is running" (any constant, distinct from other locks). */
export const CALLBACK_REAPER_LOCK_KEY = 7_441_902_115;

/** Deliveries looked at per pass; the rest wait for the next pass. */
const BATCH = 500;

export type ReaperReport = { resent: number; abandoned: number };

/**
 * The attempt to send again for a delivery whose message was lost: the first when none was started, the one in
 * flight when its dispatcher died (its claim is taken over after the lease), the next after a failed one; null when
 * no attempt is left.
 */
export function attemptToResend(last: StaleDelivery['lastAttempt']): number | null {
  if (last === null) return 1;
  if (!last.finished) return last.attempt;
  if (last.outcome !== 'failed' || retryDelaySeconds(last.attempt) === null) return null;
  return last.attempt + 1;
}

/**
 * Issue 18: no callback stays `pending` forever. Every WEBHOOK_REAPER_INTERVAL_MS one dispatcher replica (the one
 * holding a PostgreSQL advisory lock, tried and never waited for, like the retention sweep) looks for deliveries
 * without news for WEBHOOK_REAPER_STALE_MS — pending ones, and callbacks the outbox published that no dispatcher ever
 * took — and publishes their next attempt again from the copy the outbox keeps (JOBS_OUTBOX_KEEP_HOURS). A message
 * that was not lost after all makes a harmless duplicate (attempts are claimed once). A delivery with no copy left,
 * or no attempt left, is recorded as abandoned.
 */
@Injectable()
export class CallbackReaperService extends PeriodicPassService<ReaperReport> {
  private readonly settings: ConfigOf<typeof webhookSettings>;

  constructor(
    passes: ExclusivePasses,
    private readonly deliveries: WebhookDeliveryRepository,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(LOGGER) private readonly logger: Logger,
    settings: Settings,
  ) {
    const reaper = settings.get(webhookSettings);
    super(passes, logger, {
      name: 'callback reaper',
      intervalSetting: webhookSettings.reaperIntervalMs.env,
      lockKey: CALLBACK_REAPER_LOCK_KEY,
      intervalMs: reaper.reaperIntervalMs,
    });
    this.settings = reaper;
  }

  /** One pass at `now`; null when another replica holds the lock or the pass failed (logged; the next pass retries). */
  reap(now: Date = new Date()): Promise<ReaperReport | null> {
    return this.runPass(now);
  }

  protected async work(now: Date): Promise<ReaperReport> {
    const { deliveries } = this;
    const report: ReaperReport = { resent: 0, abandoned: 0 };
    for (const stale of await deliveries.findStale(new Date(now.getTime() - this.settings.reaperStaleMs), BATCH)) {
      const attempt = attemptToResend(stale.lastAttempt);
      if (stale.command === null || attempt === null) {
        const reason =
          stale.command === null
            ? 'its message was lost and the outbox no longer holds the callback (JOBS_OUTBOX_KEEP_HOURS)'
            : 'its message was lost after its last attempt';
        await deliveries.abandonPending(stale.deliveryId, reason, now);
        dispatcherMetrics.abandoned.inc({ reason: 'lost' });
        this.logger.warn('callback abandoned by the reaper', { deliveryId: stale.deliveryId, reason });
        report.abandoned++;
        continue;
      }
      const command = stale.command as DeliverWebhookCommand;
      await this.bus.publish(MessageName.DeliverWebhook, { ...command, attempt }, { messageId: `${stale.deliveryId}.${attempt}` });
      await deliveries.touchPending(stale.deliveryId, now);
      dispatcherMetrics.resent.inc();
      this.logger.warn('callback without news sent again by the reaper', { deliveryId: stale.deliveryId, jobId: command.jobId, attempt });
      report.resent++;
    }
    if (report.resent + report.abandoned > 0) this.logger.info('callback reaper pass', report);
    return report;
  }
}
