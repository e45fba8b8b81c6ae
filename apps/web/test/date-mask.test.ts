import { describe, expect, it } from 'vitest';
import { maskDate } from '../src/lib/date-mask';

describe('maskDate: a DD/MM/YYYY field typed on a phone keypad', () => {
  it('inserts the slashes as the digits come', () => {
    const typed = '24112026';
    const shown = [...typed].map((_, i) => maskDate(typed.slice(0, i + 1)));
    expect(shown).toEqual([
      '2',
      '24',
      '24/1',
      '24/11',
      '24/11/2',
      '24/11/20',
      '24/11/202',
      '24/11/2026',
    ]);
  });

  it('keeps a date typed with its slashes, and pads a one-digit day or month closed by one', () => {
    expect(maskDate('24/11/2026')).toBe('24/11/2026');
    expect(maskDate('1/2/2026')).toBe('01/02/2026');
    expect(maskDate('24/1/2026')).toBe('24/01/2026');
  });

  it('deleting a slash does not bring it back, and nothing but digits stays', () => {
    expect(maskDate('24/11/')).toBe('24/11');
    expect(maskDate('24/')).toBe('24');
    expect(maskDate('24.11.2026')).toBe('24/11/2026');
    expect(maskDate('ab')).toBe('');
  });

  it('stops at eight digits', () => {
    expect(maskDate('241120261')).toBe('24/11/2026');
  });
});
