import { setTimeout as sleep } from 'node:timers/promises';
import { MessageName, type DeliverWebhookCommand } from '@docrender/contracts';
import { EgressFailedError, EgressRefusedError, type GuardedFetchOptions, type GuardedResponse } from '@docrender/egress';
import { dependencyOutageOf, type MessageBus } from '@docrender/messaging';
import type { Logger } from '@docrender/observability';
import type { AttemptResult, WebhookDeliveryRef, WebhookDeliveryRepository, WebhookDeliveryState } from '@docrender/persistence';
import { deliveryHeaders, retryDelaySeconds, signingSecretsAt, WebhookSigner, type SigningSecrets, type StoredSigningSecrets } from '@docrender/webhooks';
import { dispatcherMetrics } from './dispatcher-metrics';
import { callbackHostOf, callbackOriginOf, DeliverySlots } from './host-slots';

/** What the service needs of the delivery records (WebhookDeliveryRepository provides it). */
export type DeliveryRecords = Pick<WebhookDeliveryRepository, 'claimAttempt' | 'finishAttempt' | 'markDropped'>;

/**
 * The signing secrets of an organisation that has none stored yet, for an attempt made at `now` (its first secret
 * is created). An organisation's stored secrets come with the claim of the attempt.
 */
export type FirstSigningSecrets = (organisationId: string, now: Date) => Promise<SigningSecrets>;

/** One HTTP exchange through the egress guard (`guardedFetch`). */
export type CallbackSender = (url: string, options: GuardedFetchOptions) => Promise<GuardedResponse>;

export type CallbackDeliveryOptions = {
  policy: GuardedFetchOptions['policy'];
  attemptTimeoutMs: number;
  maxResponseBytes: number;
  /** Multiplies the 2, 4, 8, 16 s backoff. */
  backoffScale: number;
  /** Deliveries in flight at once (spec 6.3: 16), one host included. */
  inFlight: number;
  /** A host's share of them while callbacks to other hosts wait. */
  perHostInFlight: number;
  /** How long a callback to a host at its share waits here before it is parked in the queue for as long. */
  hostBusyDelayMs: number;
};

/** Extra time past the attempt timeout before another dispatcher may take over an attempt whose dispatcher died. */
const LEASE_MARGIN_MS = 5_000;

/**
 * Delivers one callback attempt (spec 6.2–6.4): claims the attempt (a duplicate message does not call the receiver
 * again; the claim reads the organisation's current secrets with it), signs it afresh with them, POSTs the exact body
 * through the egress guard (no redirects: a 3xx is a failure; private targets refused unless allowed; connections
 * reused only as the guard allows), records the attempt, and on a non-2xx,
 * timeout or error schedules the next attempt durably (a delayed webhook.deliver message) after 2, 4, 8, 16 s, until
 * 5 attempts in all. At most `inFlight` deliveries run at once, one host included; a host is held to its share only
 * while other hosts' callbacks wait (DeliverySlots), and waiting happens in memory, not through the broker.
 */
export class CallbackDeliveryService {
  private readonly signer = new WebhookSigner();
  private readonly slots: DeliverySlots;

  constructor(
    private readonly deps: {
      bus: MessageBus;
      deliveries: DeliveryRecords;
      firstSecrets: FirstSigningSecrets;
      send: CallbackSender;
      logger: Logger;
      now?: () => Date;
    },
    private readonly options: CallbackDeliveryOptions,
  ) {
    this.slots = new DeliverySlots({ total: options.inFlight, perHost: options.perHostInFlight, parkAfterMs: options.hostBusyDelayMs });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Handles one webhook.deliver message; resolves once its effects (attempt record, retry message) are stored.
   * `abandoned` is the delivery's signal: a message whose channel closed while it waited for a slot is not sent.
   */
  async handle(command: DeliverWebhookCommand, abandoned?: AbortSignal): Promise<void> {
    const ref: WebhookDeliveryRef = { deliveryId: command.deliveryId, jobId: command.jobId, organisationId: command.organisationId, event: command.event };
    const fields = { deliveryId: command.deliveryId, jobId: command.jobId, event: command.event, attempt: command.attempt, target: callbackOriginOf(command.callbackUrl) };
    const host = callbackHostOf(command.callbackUrl) ?? '(invalid URL)';
    const grant = await this.slots.acquire(host, abandoned);
    if (grant === 'abandoned') return;
    if (grant === 'park') {
      dispatcherMetrics.hostBusy.inc();
      this.deps.logger.debug('callback parked: its host holds its share of the slots and other callbacks may be queued behind', fields);
      await this.republish(command, command.attempt, this.options.hostBusyDelayMs);
      return;
    }
    try {
      const leaseMs = this.options.attemptTimeoutMs + LEASE_MARGIN_MS;
      const leaseEnds = Date.now() + leaseMs;
      const claim = await this.deps.deliveries.claimAttempt(ref, command.attempt, leaseMs, this.now());
      switch (claim.kind) {
        case 'settled':
          this.deps.logger.debug('callback already settled; duplicate message ignored', { ...fields, state: claim.state });
          return;
        case 'in-flight':
          // Another dispatcher holds this attempt (or held it and died): look again once a lease has run out.
          await this.republish(command, command.attempt, leaseMs);
          return;
        case 'already-made': {
          // A duplicate, or this dispatcher died after recording the attempt and before scheduling the next one.
          const delaySeconds = claim.attempt.outcome === 'failed' ? retryDelaySeconds(command.attempt, this.options.backoffScale) : null;
          if (delaySeconds !== null && !claim.nextAttemptStarted) await this.republish(command, command.attempt + 1, delaySeconds * 1000);
          return;
        }
        case 'claimed':
          await this.attempt(command, fields, leaseEnds, claim.secrets);
          return;
      }
    } finally {
      this.slots.release(host);
    }
  }

  /** Records a callback the queue dropped under overload (or gave up on after repeated handler failures). */
  async dropped(command: DeliverWebhookCommand, reason: string): Promise<void> {
    dispatcherMetrics.dropped.inc({ reason });
    this.deps.logger.warn('callback dropped without delivery', {
      deliveryId: command.deliveryId,
      jobId: command.jobId,
      event: command.event,
      attempt: command.attempt,
      reason,
    });
    await this.deps.deliveries.markDropped(
      { deliveryId: command.deliveryId, jobId: command.jobId, organisationId: command.organisationId, event: command.event },
      reason,
      this.now(),
    );
  }

  private async attempt(
    command: DeliverWebhookCommand,
    fields: Record<string, string | number>,
    leaseEnds: number,
    stored: StoredSigningSecrets | null,
  ): Promise<void> {
    const signedAt = this.now();
    const secrets = stored === null ? await this.deps.firstSecrets(command.organisationId, signedAt) : signingSecretsAt(stored, signedAt);
    const signature = this.signer.sign(command.body, secrets, Math.floor(signedAt.getTime() / 1000));
    const started = Date.now();
    let result: AttemptResult;
    try {
      const response = await this.deps.send(command.callbackUrl, {
        policy: this.options.policy,
        timeoutMs: this.options.attemptTimeoutMs,
        maxBytes: this.options.maxResponseBytes,
        method: 'POST',
        headers: deliveryHeaders({ event: command.event, deliveryId: command.deliveryId, signature }),
        body: command.body,
      });
      const ok = response.status >= 200 && response.status < 300;
      result = { outcome: ok ? 'delivered' : 'failed', httpStatus: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: Date.now() - started };
    } catch (error) {
      if (!(error instanceof EgressRefusedError) && !(error instanceof EgressFailedError)) throw error;
      const refused = error instanceof EgressRefusedError;
      result = { outcome: refused ? 'refused' : 'failed', httpStatus: null, error: error.message, durationMs: Date.now() - started };
    }
    const retryInSeconds = result.outcome === 'failed' ? retryDelaySeconds(command.attempt, this.options.backoffScale) : null;
    const state: Exclude<WebhookDeliveryState, 'dropped'> = result.outcome === 'delivered' ? 'delivered' : retryInSeconds === null ? 'abandoned' : 'pending';
    await this.recordMadeAttempt(() => this.deps.deliveries.finishAttempt(command.deliveryId, command.attempt, result, state, this.now()), leaseEnds, fields);
    dispatcherMetrics.attempts.inc({ outcome: result.outcome });
    dispatcherMetrics.attemptSeconds.observe(result.durationMs / 1000);
    const logFields = { ...fields, outcome: result.outcome, httpStatus: result.httpStatus, durationMs: result.durationMs };
    if (state === 'delivered') {
      this.deps.logger.info('callback delivered', logFields);
      return;
    }
    if (state === 'abandoned') {
      dispatcherMetrics.abandoned.inc({ reason: result.outcome });
      this.deps.logger.warn('callback abandoned', { ...logFields, error: result.error });
      return;
    }
    this.deps.logger.info('callback attempt failed; retry scheduled', { ...logFields, error: result.error, retryInSeconds });
    await this.republish(command, command.attempt + 1, (retryInSeconds ?? 0) * 1000);
  }

  /**
   * Records an attempt already made. The receiver has been called: through a database outage the record is retried
   * here while the attempt's lease lasts, since a message set aside would make the attempt again after the lease.
   */
  private async recordMadeAttempt(record: () => Promise<void>, leaseEnds: number, fields: Record<string, string | number>): Promise<void> {
    for (let pause = 250; ; pause = Math.min(pause * 2, 2_000)) {
      try {
        await record();
        return;
      } catch (error) {
        const outage = dependencyOutageOf(error);
        if (outage === null || Date.now() + pause >= leaseEnds - 1_000) throw error;
        this.deps.logger.warn('recording a callback attempt waits for the database', { ...fields, dependency: outage.dependency, pauseMs: pause });
        await sleep(pause);
      }
    }
  }

  /**
   * Puts the callback back in the queue, durably, after `delayMs`. Every delay used is one of a few constants (the
   * backoff steps, the lease, the host-busy delay): RabbitMQ keeps one delay queue per distinct delay.
   */
  private async republish(command: DeliverWebhookCommand, attempt: number, delayMs: number): Promise<void> {
    await this.deps.bus.publish(MessageName.DeliverWebhook, { ...command, attempt }, { messageId: `${command.deliveryId}.${attempt}`, delayMs: Math.round(delayMs) });
  }
}
