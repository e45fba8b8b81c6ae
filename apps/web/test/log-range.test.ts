import { describe, expect, it } from 'vitest';
import {
  formatWallTime,
  rangeToQuery,
  wallTimeToInstant,
  withEndOfDay,
} from '../src/features/checkins/lib/log-range';

describe('log ranges: wall-clock times read in the company’s time zone', () => {
  it('places a wall time in its zone', () => {
    expect(wallTimeToInstant('2026-11-22 10:30:00', 'Africa/Abidjan')?.toISOString()).toBe(
      '2026-11-22T10:30:00.000Z',
    );
    expect(wallTimeToInstant('2026-11-22 10:30:00', 'Europe/Paris')?.toISOString()).toBe(
      '2026-11-22T09:30:00.000Z',
    );
    expect(wallTimeToInstant('2026-07-01 10:30', 'Europe/Paris')?.toISOString()).toBe(
      '2026-07-01T08:30:00.000Z',
    );
  });

  it('settles the offset across a daylight-saving change', () => {
    // Paris goes from UTC+1 to UTC+2 at 02:00 on 29 March 2026.
    expect(wallTimeToInstant('2026-03-29 01:30:00', 'Europe/Paris')?.toISOString()).toBe(
      '2026-03-29T00:30:00.000Z',
    );
    expect(wallTimeToInstant('2026-03-29 03:30:00', 'Europe/Paris')?.toISOString()).toBe(
      '2026-03-29T01:30:00.000Z',
    );
  });

  it('refuses anything that is not a wall time', () => {
    expect(wallTimeToInstant('22/11/2026 10:30', 'Africa/Abidjan')).toBeNull();
    expect(wallTimeToInstant('', 'Africa/Abidjan')).toBeNull();
  });

  it('counts the end’s minute whole and leaves an open end open', () => {
    expect(rangeToQuery(['2026-11-22 08:00:00', '2026-11-22 18:00:00'], 'Africa/Abidjan')).toEqual({
      from: '2026-11-22T08:00:00.000Z',
      to: '2026-11-22T18:00:59.999Z',
    });
    expect(rangeToQuery([null, null], 'Africa/Abidjan')).toEqual({
      from: undefined,
      to: undefined,
    });
  });

  it('starts a newly picked end day at 23:59, and keeps a time a person set', () => {
    const start = '2026-11-20 00:00:00';
    expect(withEndOfDay([start, '2026-11-22 00:00:00'], [start, null])).toEqual([
      start,
      '2026-11-22 23:59:00',
    ]);
    const set: [string, string] = [start, '2026-11-22 00:00:00'];
    expect(withEndOfDay(set, [start, '2026-11-21 12:00:00'])).toBe(set);
    const noon: [string, string] = [start, '2026-11-22 12:00:00'];
    expect(withEndOfDay(noon, [start, null])).toBe(noon);
  });

  it('shows a wall time as the field does', () => {
    expect(formatWallTime('2026-11-22 10:30:00')).toBe('22/11/2026 10:30');
    expect(formatWallTime('soon')).toBe('soon');
  });
});
