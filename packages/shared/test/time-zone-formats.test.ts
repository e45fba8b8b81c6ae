import { describe, expect, it } from 'vitest';
import { formatPerZone, WALL_CLOCK_FORMAT } from '../src/time-zone-formats';

describe('formatPerZone', () => {
  it('keeps one format per zone and reads the instant in that zone', () => {
    const clock = formatPerZone('fr-FR', { hour: '2-digit', minute: '2-digit' });
    expect(clock('Europe/Paris')).toBe(clock('Europe/Paris'));
    expect(clock('Europe/Paris')).not.toBe(clock('Africa/Abidjan'));
    const at = new Date('2026-11-23T16:05:00Z');
    expect(clock('Europe/Paris').format(at)).toBe('17:05');
    expect(clock('Africa/Abidjan').format(at)).toBe('16:05');
  });

  it('gives every wall-clock field, 24-hour, for offset arithmetic', () => {
    const parts = WALL_CLOCK_FORMAT('Asia/Kolkata').formatToParts(new Date('2026-11-23T20:00:00Z'));
    const read = Object.fromEntries(
      parts.filter((p) => p.type !== 'literal').map((p) => [p.type, p.value]),
    );
    expect(read).toEqual({
      month: '11',
      day: '24',
      year: '2026',
      hour: '01',
      minute: '30',
      second: '00',
    });
  });
});
