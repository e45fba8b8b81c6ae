import { describe, expect, it } from 'vitest';
import { withZone, zoneCity, zoneDiffers } from '../src/lib/zone-label';

const JANUARY = new Date('2027-01-15T12:00:00Z');

describe('zone label (issue 28)', () => {
  it('names a zone by its city, with its accents in French', () => {
    expect(zoneCity('Pacific/Noumea', 'fr')).toBe('Nouméa');
    expect(zoneCity('Pacific/Noumea', 'en')).toBe('Noumea');
    expect(zoneCity('America/Los_Angeles', 'fr')).toBe('Los Angeles');
    expect(zoneCity('America/Argentina/Buenos_Aires', 'en')).toBe('Buenos Aires');
  });

  it('says nothing for the reader’s own zone, or another name of the same clock', () => {
    expect(zoneDiffers('Europe/Paris', 'Europe/Paris', JANUARY)).toBe(false);
    expect(zoneDiffers('Europe/Berlin', 'Europe/Paris', JANUARY)).toBe(false);
    expect(zoneDiffers('Africa/Abidjan', 'UTC', JANUARY)).toBe(false);
    expect(zoneDiffers(undefined, 'Europe/Paris', JANUARY)).toBe(false);
  });

  it('says the zone when the site’s clock is another', () => {
    expect(zoneDiffers('Pacific/Noumea', 'America/Los_Angeles', JANUARY)).toBe(true);
    expect(withZone('10:30', 'Pacific/Noumea', 'fr', 'Europe/Paris', JANUARY)).toBe(
      '10:30 (Nouméa)',
    );
    expect(withZone('10:30', 'America/Los_Angeles', 'en', 'Europe/Paris', JANUARY)).toBe(
      '10:30 (Los Angeles)',
    );
    expect(withZone('10:30', 'Europe/Paris', 'fr', 'Europe/Paris', JANUARY)).toBe('10:30');
    expect(withZone('', 'Pacific/Noumea', 'fr', 'Europe/Paris', JANUARY)).toBe('');
  });

  it('an unknown zone is never said', () => {
    expect(zoneDiffers('Mars/Olympus', 'Europe/Paris', JANUARY)).toBe(false);
  });
});
