import type { EntityManager } from 'typeorm';
import type { WebhookEvent } from '@docrender/contracts';
import { queryPrepared, type PreparedStatement } from '../prepared-statement';

/** Where a logical delivery stands: still being tried, answered with a 2xx, given up, or dropped under overload. */
export type WebhookDeliveryState = 'pending' | 'delivered' | 'abandoned' | 'dropped';

/** How one attempt ended: a 2xx; a non-2xx, timeout or error (retried); or refused by the egress policy (never sent). */
export type WebhookAttemptOutcome = 'delivered' | 'failed' | 'refused';

export type WebhookDeliveryRef = { deliveryId: string; jobId: string; organisationId: string; event: WebhookEvent };

export type WebhookDeliveryRecord = WebhookDeliveryRef & {
  state: WebhookDeliveryState;
  /** Attempts finished so far. */
  attempts: number;
  lastHttpStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type WebhookAttemptRecord = {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  /** Until when the dispatcher that started the attempt owns it; after that another may take it over. */
  leaseUntil: Date;
  finishedAt: Date | null;
  outcome: WebhookAttemptOutcome | null;
  httpStatus: number | null;
  error: string | null;
  durationMs: number | null;
};

/** What the dispatcher should do with a message for attempt n of a delivery. */
export type AttemptClaim =
  /** Make the attempt: it is claimed (leased) for this caller. `secrets`: the organisation's, null when it has none yet. */
  | { kind: 'claimed'; secrets: StoredWebhookSecrets | null }
  /** The delivery is over (delivered, abandoned or dropped): nothing to send. */
  | { kind: 'settled'; state: Exclude<WebhookDeliveryState, 'pending'> }
  /** This attempt was already made (a duplicate message): see whether its retry was scheduled. */
  | { kind: 'already-made'; attempt: WebhookAttemptRecord; nextAttemptStarted: boolean }
  /** Another dispatcher holds this attempt until `leaseUntil` (or held it and died): try again after it. */
  | { kind: 'in-flight'; leaseUntil: Date };

/** An organisation's signing secrets as stored (the shape `signingSecretsAt` of @docrender/webhooks takes). */
export type StoredWebhookSecrets = {
  active: string;
  previous: string | null;
  /** When `previous` stopped being the active secret; null when there is no previous secret. */
  rotatedAt: Date | null;
};

/**
 * A delivery the reaper found without news for too long: still `pending` (or published by the outbox and never
 * taken), with its last attempt and the callback as stored in the outbox (null once the outbox row was deleted).
 */
export type StaleDelivery = {
  deliveryId: string;
  /** The last attempt started, null when none was. */
  lastAttempt: { attempt: number; finished: boolean; outcome: WebhookAttemptOutcome | null } | null;
  /** The webhook.deliver payload stored in the outbox (a DeliverWebhookCommand), null when it is gone. */
  command: unknown;
};

export type AttemptResult = {
  outcome: WebhookAttemptOutcome;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
};

/** A page of an organisation's deliveries, newest first (the workspace's delivery log, issue 35 item 5). */
export type WebhookDeliveryPage = { items: WebhookDeliveryRecord[]; total: number };

/** What asking to deliver a callback again found (issue 35 item 5). */
export type RedeliveryOutcome =
  /** The delivery is pending again and its outbox message waits for `attempt` (publish it, or leave it to the relay). */
  | { kind: 'reopened'; attempt: number; command: unknown }
  /** No delivery of this id in this organisation. */
  | { kind: 'not-found' }
  /** Delivered, or still being tried: only a failed (abandoned or dropped) delivery is sent again. */
  | { kind: 'not-settled-as-failed'; state: WebhookDeliveryState }
  /** The outbox no longer keeps the callback (JOBS_OUTBOX_KEEP_HOURS): there is nothing to send. */
  | { kind: 'no-copy' };

type DeliveryRow = {
  delivery_id: string;
  job_id: string;
  organisation_id: string;
  event: WebhookEvent;
  state: WebhookDeliveryState;
  attempts: number;
  last_http_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
};

type AttemptRow = {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  lease_until: Date;
  finished_at: Date | null;
  outcome: WebhookAttemptOutcome | null;
  http_status: number | null;
  error: string | null;
  duration_ms: number | null;
};

type ClaimRow = {
  state: WebhookDeliveryState;
  claimed: boolean;
  active_secret: string | null;
  previous_secret: string | null;
  rotated_at: Date | null;
};

/**
 * Claims an attempt and reads the organisation's signing secrets: the delivery row is upserted (created on the first
 * message, locked either way), the attempt inserted or its expired lease taken over only while the delivery is pending.
 */
const CLAIM_ATTEMPT: PreparedStatement = {
  name: 'webhook-delivery-claim-attempt',
  text: `WITH delivery AS (
           INSERT INTO webhook_deliveries (delivery_id, job_id, organisation_id, event, state, attempts, created_at, updated_at)
           VALUES ($1, $2, $3, $4, 'pending', 0, $5, $5)
           ON CONFLICT (delivery_id) DO UPDATE SET state = webhook_deliveries.state
           RETURNING state
         ), claimed AS (
           INSERT INTO webhook_delivery_attempts (delivery_id, attempt, started_at, lease_until)
           SELECT $1, $6::integer, $5, $7::timestamptz FROM delivery WHERE delivery.state = 'pending'
           ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = EXCLUDED.started_at, lease_until = EXCLUDED.lease_until
            WHERE webhook_delivery_attempts.finished_at IS NULL AND webhook_delivery_attempts.lease_until <= EXCLUDED.started_at
           RETURNING 1
         )
         SELECT delivery.state, EXISTS (SELECT 1 FROM claimed) AS claimed, s.active_secret, s.previous_secret, s.rotated_at
           FROM delivery LEFT JOIN webhook_secrets s ON s.organisation_id = $3`,
};

/** Records how an attempt ended and where its delivery stands: both rows in one statement. */
const FINISH_ATTEMPT: PreparedStatement = {
  name: 'webhook-delivery-finish-attempt',
  text: `WITH attempt AS (
           UPDATE webhook_delivery_attempts SET finished_at = $3, outcome = $4, http_status = $5, error = $6, duration_ms = $7
            WHERE delivery_id = $1 AND attempt = $2
         )
         UPDATE webhook_deliveries
            SET state = CASE WHEN state = 'pending' THEN $8 ELSE state END,
                attempts = GREATEST(attempts, $2), last_http_status = $5, last_error = $6, updated_at = $3
          WHERE delivery_id = $1`,
};

/** Longest stored error text (receiver-controlled text must not bloat the table). */
const MAX_ERROR_LENGTH = 500;

/**
 * The webhook dispatcher's record of deliveries and attempts (spec 6.3: "delivery attempts are recorded"). Claiming
 * an attempt before sending it makes duplicate messages (an outbox relay or a dispatcher that died between publishing
 * a retry and acknowledging) harmless: the receiver is called once per attempt unless the caller dies mid-attempt.
 */
export class WebhookDeliveryRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Claims attempt `attempt` of the delivery (creating the delivery record on its first message) and reads the
   * organisation's signing secrets with it. A claim whose lease ran out (its dispatcher died mid-attempt) is taken
   * over. One statement in the usual case: the delivery row is locked (so the state seen is the one the claim is
   * made under), the attempt row is inserted, or its expired lease taken over, only while the delivery is pending.
   * A claim that loses (a duplicate message) looks at the attempt with a second statement.
   */
  async claimAttempt(ref: WebhookDeliveryRef, attempt: number, leaseMs: number, now: Date = new Date()): Promise<AttemptClaim> {
    const leaseUntil = new Date(now.getTime() + leaseMs);
    for (;;) {
      const [claim] = await queryPrepared<ClaimRow>(this.manager, CLAIM_ATTEMPT, [ref.deliveryId, ref.jobId, ref.organisationId, ref.event, now, attempt, leaseUntil]);
      if (claim.state !== 'pending') return { kind: 'settled', state: claim.state };
      if (claim.claimed) return { kind: 'claimed', secrets: storedSecrets(claim) };
      // The attempt row exists (the insert met it): made, or held by another dispatcher whose lease still runs.
      const rows = (await this.manager.query(`SELECT * FROM webhook_delivery_attempts WHERE delivery_id = $1 AND attempt IN ($2, $2 + 1)`, [
        ref.deliveryId,
        attempt,
      ])) as AttemptRow[];
      const row = rows.find((r) => r.attempt === attempt);
      if (row === undefined) continue; // deleted in between (an operator's cleanup): claim afresh
      if (row.finished_at !== null) return { kind: 'already-made', attempt: toAttempt(row), nextAttemptStarted: rows.length > 1 };
      return { kind: 'in-flight', leaseUntil: row.lease_until };
    }
  }

  /**
   * Records how a claimed attempt ended and where the delivery now stands (`pending` while a retry follows), in one
   * statement (both rows or neither).
   */
  async finishAttempt(
    deliveryId: string,
    attempt: number,
    result: AttemptResult,
    deliveryState: Exclude<WebhookDeliveryState, 'dropped'>,
    now: Date = new Date(),
  ): Promise<void> {
    const error = result.error === null ? null : result.error.slice(0, MAX_ERROR_LENGTH);
    await queryPrepared(this.manager, FINISH_ATTEMPT, [deliveryId, attempt, now, result.outcome, result.httpStatus, error, Math.max(0, Math.round(result.durationMs)), deliveryState]);
  }

  /** Records a delivery dropped before it was delivered (overload: the queue discarded its oldest callbacks). */
  async markDropped(ref: WebhookDeliveryRef, reason: string, now: Date = new Date()): Promise<void> {
    await this.manager.query(
      `INSERT INTO webhook_deliveries (delivery_id, job_id, organisation_id, event, state, attempts, last_error, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'dropped', 0, $5, $6, $6)
       ON CONFLICT (delivery_id) DO UPDATE SET state = 'dropped', last_error = $5, updated_at = $6
        WHERE webhook_deliveries.state = 'pending'`,
      [ref.deliveryId, ref.jobId, ref.organisationId, ref.event, reason.slice(0, MAX_ERROR_LENGTH), now],
    );
  }

  /**
   * Deliveries whose message may have been lost, oldest news first, at most `limit`: pending ones not updated since
   * `cutoff`, and callbacks the outbox published before `cutoff` that no dispatcher ever took (those get a pending
   * record now, so that the next look counts from here).
   */
  async findStale(cutoff: Date, limit: number): Promise<StaleDelivery[]> {
    await this.manager.query(
      `INSERT INTO webhook_deliveries (delivery_id, job_id, organisation_id, event, state, attempts, created_at, updated_at)
       SELECT o.id, (o.payload->>'jobId')::uuid, (o.payload->>'organisationId')::uuid, o.payload->>'event', 'pending', 0, o.created_at, $2
         FROM outbox o
        WHERE o.message_name = 'webhook.deliver' AND o.published_at < $1
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.delivery_id = o.id)
        ORDER BY o.published_at LIMIT $3
       ON CONFLICT (delivery_id) DO NOTHING`,
      // updated_at in the past: the query below takes them in this same pass.
      [cutoff, new Date(0), limit],
    );
    const rows = (await this.manager.query(
      `SELECT d.delivery_id, a.attempt, a.finished_at IS NOT NULL AS finished, a.outcome, o.payload
         FROM webhook_deliveries d
         LEFT JOIN LATERAL (
           SELECT attempt, finished_at, outcome FROM webhook_delivery_attempts WHERE delivery_id = d.delivery_id ORDER BY attempt DESC LIMIT 1
         ) a ON true
         LEFT JOIN outbox o ON o.id = d.delivery_id
        WHERE d.state = 'pending' AND d.updated_at < $1
        ORDER BY d.updated_at, d.delivery_id LIMIT $2`,
      [cutoff, limit],
    )) as { delivery_id: string; attempt: number | null; finished: boolean | null; outcome: WebhookAttemptOutcome | null; payload: unknown }[];
    return rows.map((row) => ({
      deliveryId: row.delivery_id,
      lastAttempt: row.attempt === null ? null : { attempt: row.attempt, finished: row.finished === true, outcome: row.outcome },
      command: row.payload ?? null,
    }));
  }

  /** Notes that a pending delivery was sent again at `now` (the reaper looks at it again only after another stale period). */
  async touchPending(deliveryId: string, now: Date = new Date()): Promise<void> {
    await this.manager.query(`UPDATE webhook_deliveries SET updated_at = $2 WHERE delivery_id = $1 AND state = 'pending'`, [deliveryId, now]);
  }

  /** Gives up a pending delivery that cannot be sent again (its message was lost and no copy is left, or no attempt is). */
  async abandonPending(deliveryId: string, reason: string, now: Date = new Date()): Promise<void> {
    await this.manager.query(
      `UPDATE webhook_deliveries SET state = 'abandoned', last_error = $2, updated_at = $3 WHERE delivery_id = $1 AND state = 'pending'`,
      [deliveryId, reason.slice(0, MAX_ERROR_LENGTH), now],
    );
  }

  /** The organisation's deliveries, newest first, `take` from `skip`, with their count. */
  async listByOrganisation(organisationId: string, skip: number, take: number): Promise<WebhookDeliveryPage> {
    const rows = (await this.manager.query(
      `SELECT d.*, count(*) OVER () AS total FROM webhook_deliveries d
        WHERE organisation_id = $1 ORDER BY created_at DESC, delivery_id DESC OFFSET $2 LIMIT $3`,
      [organisationId, skip, take],
    )) as (DeliveryRow & { total: string })[];
    const total = rows.length > 0 ? Number(rows[0].total) : skip === 0 ? 0 : await this.countByOrganisation(organisationId);
    return { items: rows.map(toDelivery), total };
  }

  private async countByOrganisation(organisationId: string): Promise<number> {
    const [row] = (await this.manager.query(`SELECT count(*) AS total FROM webhook_deliveries WHERE organisation_id = $1`, [organisationId])) as { total: string }[];
    return Number(row.total);
  }

  /** A delivery of the organisation; null for an unknown id or another organisation's (isolation). */
  async findForOrganisation(organisationId: string, deliveryId: string): Promise<WebhookDeliveryRecord | null> {
    const delivery = await this.findDelivery(deliveryId);
    return delivery !== null && delivery.organisationId === organisationId ? delivery : null;
  }

  /**
   * Issue 35 item 5: makes a failed (abandoned or dropped) delivery pending again for one more attempt under the same
   * delivery id, through the outbox: its kept webhook.deliver message is set to that attempt and unpublished, so the
   * callback relay sends it if the caller's own publish does not. Call it in a transaction (the delivery row is
   * locked, so two redeliveries at once reopen it once). The dispatcher signs and records the attempt as any other;
   * a failed redelivery attempt past the last retry is abandoned again (no retry sequence of its own).
   */
  async reopenForRedelivery(organisationId: string, deliveryId: string, now: Date = new Date()): Promise<RedeliveryOutcome> {
    const rows = (await this.manager.query(
      `SELECT d.state, GREATEST(d.attempts, COALESCE((SELECT max(attempt) FROM webhook_delivery_attempts a WHERE a.delivery_id = d.delivery_id), 0)) AS made
         FROM webhook_deliveries d WHERE d.delivery_id = $1 AND d.organisation_id = $2 FOR UPDATE`,
      [deliveryId, organisationId],
    )) as { state: WebhookDeliveryState; made: number }[];
    if (rows.length === 0) return { kind: 'not-found' };
    const { state, made } = rows[0];
    if (state !== 'abandoned' && state !== 'dropped') return { kind: 'not-settled-as-failed', state };
    const attempt = Number(made) + 1;
    const updated = (await this.manager.query(
      `UPDATE outbox SET payload = jsonb_set(payload, '{attempt}', to_jsonb($2::integer)), published_at = NULL, created_at = $3
        WHERE id = $1 AND message_name = 'webhook.deliver' RETURNING payload`,
      [deliveryId, attempt, now],
    )) as [{ payload: unknown }[], number];
    if (updated[0].length === 0) return { kind: 'no-copy' };
    await this.manager.query(`UPDATE webhook_deliveries SET state = 'pending', last_error = NULL, updated_at = $2 WHERE delivery_id = $1`, [deliveryId, now]);
    return { kind: 'reopened', attempt, command: updated[0][0].payload };
  }

  /** Marks a reopened delivery's outbox message published (its writer published it; the relay need not). */
  async markRedeliveryPublished(deliveryId: string, now: Date = new Date()): Promise<void> {
    await this.manager.query(`UPDATE outbox SET published_at = $2 WHERE id = $1 AND published_at IS NULL`, [deliveryId, now]);
  }

  async findDelivery(deliveryId: string): Promise<WebhookDeliveryRecord | null> {
    const rows = (await this.manager.query(`SELECT * FROM webhook_deliveries WHERE delivery_id = $1`, [deliveryId])) as DeliveryRow[];
    return rows.length > 0 ? toDelivery(rows[0]) : null;
  }

  /** The deliveries of a job, oldest first. */
  async listByJob(jobId: string): Promise<WebhookDeliveryRecord[]> {
    const rows = (await this.manager.query(`SELECT * FROM webhook_deliveries WHERE job_id = $1 ORDER BY created_at, delivery_id`, [
      jobId,
    ])) as DeliveryRow[];
    return rows.map(toDelivery);
  }

  /** The attempts of a delivery, first first. */
  async listAttempts(deliveryId: string): Promise<WebhookAttemptRecord[]> {
    const rows = (await this.manager.query(`SELECT * FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [
      deliveryId,
    ])) as AttemptRow[];
    return rows.map(toAttempt);
  }
}

function storedSecrets(row: ClaimRow): StoredWebhookSecrets | null {
  if (row.active_secret === null) return null;
  return { active: row.active_secret, previous: row.previous_secret, rotatedAt: row.previous_secret === null ? null : row.rotated_at };
}

function toDelivery(row: DeliveryRow): WebhookDeliveryRecord {
  return {
    deliveryId: row.delivery_id,
    jobId: row.job_id,
    organisationId: row.organisation_id,
    event: row.event,
    state: row.state,
    attempts: row.attempts,
    lastHttpStatus: row.last_http_status,
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toAttempt(row: AttemptRow): WebhookAttemptRecord {
  return {
    deliveryId: row.delivery_id,
    attempt: row.attempt,
    startedAt: row.started_at,
    leaseUntil: row.lease_until,
    finishedAt: row.finished_at,
    outcome: row.outcome,
    httpStatus: row.http_status,
    error: row.error,
    durationMs: row.duration_ms,
  };
}
