import { addMonthsUtc } from './calendar';

const d = (iso: string) => new Date(iso);

describe('calendar months (addMonths() and billing periods, spec 2.12)', () => {
  it('adds calendar months, clamping to the last day of shorter months', () => {
    expect(addMonthsUtc(d('2026-01-31T00:00:00Z'), 1)).toEqual(d('2026-02-28T00:00:00Z'));
    expect(addMonthsUtc(d('2028-01-31T00:00:00Z'), 1)).toEqual(d('2028-02-29T00:00:00Z'));
    expect(addMonthsUtc(d('2026-11-15T06:30:00Z'), 2)).toEqual(d('2027-01-15T06:30:00Z'));
    expect(addMonthsUtc(d('2026-03-31T00:00:00Z'), -1)).toEqual(d('2026-02-28T00:00:00Z'));
  });
});
