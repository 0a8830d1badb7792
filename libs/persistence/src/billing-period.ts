import { addMonthsUtc } from '@docrender/template-dsl/checks';

export type BillingPeriod = { start: Date; end: Date };

/** The monthly period starting at the first of the current UTC month. */
export function calendarMonthOf(now: Date): BillingPeriod {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: addMonthsUtc(start, 1) };
}

/**
 * The period containing `now`, stepping a stored period forward by whole months (anchored on the stored start so
 * days are not lost to clamping). Returns the stored period itself when it still contains `now`.
 */
export function currentPeriod(stored: BillingPeriod, now: Date): BillingPeriod {
  if (now.getTime() < stored.end.getTime()) return stored;
  let months = 1;
  let end = addMonthsUtc(stored.start, months + 1);
  while (end.getTime() <= now.getTime()) {
    months++;
    end = addMonthsUtc(stored.start, months + 1);
  }
  return { start: addMonthsUtc(stored.start, months), end };
}
