/**
 * The calendar months of the dashboard's periods (issue 35, dashboard/months.ts): which
 * months a period reads whole from the summary, and the days left at its edges.
 */
import { describe, expect, it } from 'vitest';
import { daysOf, daysOutside, monthEnd, runsOf, wholeMonths } from '../src/dashboard/months';

describe('the months of a period', () => {
  it('ends each month on its last day, February of a leap year too', () => {
    expect(monthEnd('2028-02-01')).toBe('2028-02-29');
    expect(monthEnd('2027-02-01')).toBe('2027-02-28');
    expect(monthEnd('2026-12-01')).toBe('2026-12-31');
  });

  it('takes the months wholly inside the period and already settled', () => {
    const period = { from: '2025-11-29', to: '2026-11-29' };
    const months = wholeMonths(period, '2026-11-19');
    expect(months[0]).toBe('2025-12-01');
    expect(months[months.length - 1]).toBe('2026-10-01');
    expect(months).toHaveLength(11);
    expect(wholeMonths({ from: '2026-03-01', to: '2026-03-31' }, '2026-11-19')).toEqual([
      '2026-03-01',
    ]);
    expect(wholeMonths({ from: '2026-03-01', to: '2026-03-30' }, '2026-11-19')).toEqual([]);
    expect(wholeMonths({ from: '2026-03-01', to: '2026-03-31' }, '2026-03-30')).toEqual([]);
  });

  it('leaves the days at the edges, and only those of the period', () => {
    const previous = { from: '2024-11-28', to: '2025-11-28' };
    const current = { from: '2025-11-29', to: '2026-11-29' };
    const months = [...wholeMonths(previous, '2026-11-19'), ...wholeMonths(current, '2026-11-19')];
    expect(daysOutside(previous, months)).toEqual([
      { from: '2024-11-28', to: '2024-11-30' },
      { from: '2025-11-01', to: '2025-11-28' },
    ]);
    expect(daysOutside(current, months)).toEqual([
      { from: '2025-11-29', to: '2025-11-30' },
      { from: '2026-11-01', to: '2026-11-29' },
    ]);
    expect(daysOutside({ from: '2026-03-02', to: '2026-03-08' }, months)).toEqual([
      { from: '2026-03-02', to: '2026-03-08' },
    ]);
  });

  it('turns days into runs and back', () => {
    const days = ['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-03'];
    const runs = runsOf(days);
    expect(runs).toEqual([
      { from: '2026-02-27', to: '2026-03-01' },
      { from: '2026-03-03', to: '2026-03-03' },
    ]);
    expect(daysOf(runs)).toEqual(days);
    expect(runsOf([])).toEqual([]);
  });
});
