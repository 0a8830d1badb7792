import { calendarMonthOf, currentPeriod } from './billing-period';

const d = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('the calendar month of an instant starts on the 1st, 00:00 UTC', () => {
    expect(calendarMonthOf(d('2026-11-21T23:59:00Z'))).toEqual({ start: d('2026-11-01T00:00:00Z'), end: d('2026-12-01T00:00:00Z') });
  });

  it('2.12: a period that still contains now is kept; an ended one advances by whole months from its anchor', () => {
    const stored = { start: d('2026-01-31T00:00:00Z'), end: d('2026-02-28T00:00:00Z') };
    expect(currentPeriod(stored, d('2026-02-27T00:00:00Z'))).toBe(stored);
    expect(currentPeriod(stored, d('2026-02-28T00:00:00Z'))).toEqual({ start: d('2026-02-28T00:00:00Z'), end: d('2026-03-31T00:00:00Z') });
    expect(currentPeriod(stored, d('2026-06-15T00:00:00Z'))).toEqual({ start: d('2026-05-31T00:00:00Z'), end: d('2026-06-30T00:00:00Z') });
  });
});
