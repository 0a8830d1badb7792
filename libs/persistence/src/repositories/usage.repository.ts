import type { EntityManager } from 'typeorm';
import { currentPeriod, type BillingPeriod } from '../billing-period';
import { RecordNotFoundError } from '../persistence.error';
import { queryPrepared, type PreparedStatement } from '../prepared-statement';

/** The organisation's allowance and use in its current billing period (spec 2.12 without the derived fields). */
export type UsageSnapshot = {
  organisationId: string;
  periodStart: Date;
  periodEnd: Date;
  includedPagesPerMonth: number;
  pagesUsed: number;
  includedTokensPerMonth: number;
  tokensUsed: number;
};

/**
 * The one-round-trip path of tryConsumePages ($1 organisation, $2 pages, $3 now): takes the pages when the stored
 * billing period is still current, its usage row exists and they fit; updates no row otherwise.
 */
export const CONSUME_PAGES_OF_CURRENT_PERIOD = `UPDATE usage_periods u SET pages_used = u.pages_used + $2
    FROM organisations o
   WHERE o.id = $1 AND u.organisation_id = o.id AND u.period_start = o.billing_period_start
     AND $3 < o.billing_period_end AND u.pages_used + $2 <= o.included_pages_per_month`;

/** CONSUME_PAGES_OF_CURRENT_PERIOD on its own: a row back when the pages were taken (a production render not persisted). */
const CONSUME_PAGES: PreparedStatement = { name: 'usage-consume-pages', text: `${CONSUME_PAGES_OF_CURRENT_PERIOD} RETURNING u.organisation_id` };

/** Allowance and use of the stored billing period while it is current (a sync batch's credit check, a job's, the stats). */
const CURRENT_USAGE: PreparedStatement = {
  name: 'usage-current',
  text: `SELECT o.billing_period_start, o.billing_period_end, o.included_pages_per_month, o.included_tokens_per_month, u.pages_used, u.tokens_used
           FROM organisations o JOIN usage_periods u ON u.organisation_id = o.id AND u.period_start = o.billing_period_start
          WHERE o.id = $1 AND $2 < o.billing_period_end`,
};

/**
 * CONSUME_PAGES_OF_CURRENT_PERIOD's condition (and `condition`) as a query that locks the usage row it finds, with the
 * same parameters: a row when the pages fit the current period; while the lock is held, CONSUME_PAGES_OF_CURRENT_PERIOD
 * takes them.
 */
export function lockPagesOfCurrentPeriod(condition: string): string {
  return `SELECT u.organisation_id FROM usage_periods u JOIN organisations o ON u.organisation_id = o.id
   WHERE (${condition}) AND o.id = $1 AND u.period_start = o.billing_period_start
     AND $3 < o.billing_period_end AND u.pages_used + $2 <= o.included_pages_per_month
     FOR NO KEY UPDATE OF u`;
}

type UsageRow = { included_pages_per_month: number; included_tokens_per_month: number; pages_used: number; tokens_used: number };

function usageSnapshot(organisationId: string, period: BillingPeriod, row: UsageRow): UsageSnapshot {
  return {
    organisationId,
    periodStart: period.start,
    periodEnd: period.end,
    includedPagesPerMonth: row.included_pages_per_month,
    pagesUsed: row.pages_used,
    includedTokensPerMonth: row.included_tokens_per_month,
    tokensUsed: row.tokens_used,
  };
}

export class UsageRepository {
  constructor(private readonly manager: EntityManager) {}

  /**
   * Consumes `pages` of the current period's allowance if they all fit, atomically: one conditional UPDATE
   * (`pages_used + n <= included`), so concurrent callers can never overspend. Returns false, consuming nothing,
   * when they do not fit. Rolls the billing period over first when it has ended. One round trip in the usual case.
   */
  async tryConsumePages(organisationId: string, pages: number, now: Date = new Date()): Promise<boolean> {
    if (!Number.isInteger(pages) || pages < 0) throw new RangeError(`pages must be a whole number >= 0, got ${pages}`);
    // Fast path, one round trip: the stored period is still current and its usage row exists.
    if ((await queryPrepared(this.manager, CONSUME_PAGES, [organisationId, pages, now])).length === 1) return true;
    // Out of credit, or the period has ended (or its usage row is missing): roll over, then decide for good.
    const period = await this.ensureCurrentPeriod(organisationId, now);
    const result = (await this.manager.query(
      `UPDATE usage_periods u SET pages_used = u.pages_used + $3
         FROM organisations o
        WHERE u.organisation_id = $1 AND u.period_start = $2 AND o.id = u.organisation_id
          AND u.pages_used + $3 <= o.included_pages_per_month`,
      [organisationId, period.start, pages],
    )) as [unknown[], number];
    return result[1] === 1;
  }

  /**
   * Allowance and use of the current period (rolled over first when the stored one has ended). One round trip while
   * the stored period is current and its usage row exists (a sync batch's credit check, a job's, the stats); the
   * roll-over path otherwise.
   */
  async getUsage(organisationId: string, now: Date = new Date()): Promise<UsageSnapshot> {
    const current = await queryPrepared<UsageRow & { billing_period_start: Date; billing_period_end: Date }>(this.manager, CURRENT_USAGE, [organisationId, now]);
    if (current.length === 1) {
      const [row] = current;
      return usageSnapshot(organisationId, { start: row.billing_period_start, end: row.billing_period_end }, row);
    }
    const period = await this.ensureCurrentPeriod(organisationId, now);
    const [row] = (await this.manager.query(
      `SELECT o.included_pages_per_month, o.included_tokens_per_month, u.pages_used, u.tokens_used
         FROM usage_periods u JOIN organisations o ON o.id = u.organisation_id
        WHERE u.organisation_id = $1 AND u.period_start = $2`,
      [organisationId, period.start],
    )) as UsageRow[];
    return usageSnapshot(organisationId, period, row);
  }

  /** Sets the pages used in the current period (provisioning and seed files). */
  async setPagesUsed(organisationId: string, pages: number, now: Date = new Date()): Promise<void> {
    const period = await this.ensureCurrentPeriod(organisationId, now);
    await this.manager.query(`UPDATE usage_periods SET pages_used = $3 WHERE organisation_id = $1 AND period_start = $2`, [
      organisationId,
      period.start,
      pages,
    ]);
  }

  /**
   * The period containing `now`: advances the organisation's stored billing period by whole months when it has ended,
   * and makes sure its usage row exists. Safe under concurrency (conditional update, insert-if-absent).
   */
  async ensureCurrentPeriod(organisationId: string, now: Date = new Date()): Promise<BillingPeriod> {
    const rows = (await this.manager.query(`SELECT billing_period_start, billing_period_end FROM organisations WHERE id = $1`, [
      organisationId,
    ])) as { billing_period_start: Date; billing_period_end: Date }[];
    if (rows.length === 0) throw new RecordNotFoundError('organisation', organisationId);
    const stored = { start: rows[0].billing_period_start, end: rows[0].billing_period_end };
    const period = currentPeriod(stored, now);
    if (period.start.getTime() !== stored.start.getTime()) {
      await this.manager.query(
        `UPDATE organisations SET billing_period_start = $2, billing_period_end = $3 WHERE id = $1 AND billing_period_start < $2`,
        [organisationId, period.start, period.end],
      );
    }
    await this.manager.query(
      `INSERT INTO usage_periods (organisation_id, period_start, period_end) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [organisationId, period.start, period.end],
    );
    return period;
  }
}
