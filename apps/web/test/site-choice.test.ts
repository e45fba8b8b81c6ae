/**
 * Issue 28: which site the staff screens show (lib/site-choice.ts, behind useSiteChoice())
 * and the sites screen's plain logic (features/sites/lib/sites.ts).
 */
import { describe, expect, it } from 'vitest';
import { siteInputSchema, type Site } from '@sesame/shared';
import {
  ALL_SITES,
  allowsAllSites,
  resolveSiteChoice,
  siteStorageKey,
} from '../src/lib/site-choice';
import {
  siteRequestLink,
  sitePosterPath,
  siteValues,
  sortSites,
  timeZoneOptions,
} from '../src/features/sites/lib/sites';

const NOUMEA = { id: '11111111-1111-4111-8111-111111111111' };
const LA = { id: '22222222-2222-4222-8222-222222222222' };
const PARIS = { id: '33333333-3333-4333-8333-333333333333' };
const THREE = [NOUMEA, LA, PARIS];

describe('the site choice', () => {
  it('keeps what the person chose last, all sites included', () => {
    expect(resolveSiteChoice({ sites: THREE, stored: LA.id, limited: false })).toBe(LA.id);
    expect(
      resolveSiteChoice({ sites: THREE, stored: ALL_SITES, homeSiteId: LA.id, limited: false }),
    ).toBeUndefined();
    expect(siteStorageKey('c1')).toBe('sesame.site.c1');
  });

  it('starts at the home site, else all sites for an unlimited person', () => {
    expect(
      resolveSiteChoice({ sites: THREE, stored: null, homeSiteId: PARIS.id, limited: false }),
    ).toBe(PARIS.id);
    expect(resolveSiteChoice({ sites: THREE, stored: null, limited: false })).toBeUndefined();
  });

  it('forgets a remembered site that is gone (archived, or beyond the limits)', () => {
    expect(
      resolveSiteChoice({
        sites: [NOUMEA, LA],
        stored: PARIS.id,
        homeSiteId: LA.id,
        limited: false,
      }),
    ).toBe(LA.id);
    expect(
      resolveSiteChoice({ sites: [NOUMEA, LA], stored: PARIS.id, limited: false }),
    ).toBeUndefined();
  });

  it('starts a person limited to sites at their home site, else the first of theirs', () => {
    expect(
      resolveSiteChoice({ sites: [LA, PARIS], stored: null, homeSiteId: PARIS.id, limited: true }),
    ).toBe(PARIS.id);
    expect(
      resolveSiteChoice({ sites: [LA, PARIS], stored: null, homeSiteId: NOUMEA.id, limited: true }),
    ).toBe(LA.id);
    // Limited to two sites, they may still choose both ("all sites": theirs).
    expect(resolveSiteChoice({ sites: [LA, PARIS], stored: ALL_SITES, limited: true })).toBe(
      undefined,
    );
    expect(allowsAllSites([LA, PARIS], true)).toBe(true);
  });

  it('gives a person limited to one site that site, never all sites', () => {
    expect(resolveSiteChoice({ sites: [LA], stored: ALL_SITES, limited: true })).toBe(LA.id);
    expect(resolveSiteChoice({ sites: [LA], stored: NOUMEA.id, limited: true })).toBe(LA.id);
    expect(allowsAllSites([LA], true)).toBe(false);
  });

  it('is the only site of a company of one site, and nothing while the sites load', () => {
    expect(resolveSiteChoice({ sites: [NOUMEA], stored: ALL_SITES, limited: false })).toBe(
      NOUMEA.id,
    );
    expect(allowsAllSites([NOUMEA], false)).toBe(false);
    expect(resolveSiteChoice({ sites: [], stored: LA.id, limited: false })).toBeUndefined();
  });
});

const site = (fields: Partial<Site>): Site => ({
  id: NOUMEA.id,
  company_id: 'c1',
  name: 'Nouméa',
  address: null,
  city: null,
  zipcode: null,
  country: null,
  timezone: 'Pacific/Noumea',
  front_desk_email: null,
  opens_at: '08:00',
  day_end: '18:00',
  arrival_early_minutes: 15,
  short_code: null,
  badge_printer_url: null,
  badge_size: '62x100',
  security_emails: [],
  archived_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  ...fields,
});

describe('the sites screen', () => {
  it("gives each site its own request link and poster, the site's id in them", () => {
    expect(siteRequestLink('https://sesame.example/', 'demo', LA.id)).toBe(
      `https://sesame.example/demo/request-meeting?site=${LA.id}`,
    );
    expect(sitePosterPath('demo', 'demo', LA.id)).toBe(
      `/demo/show-company-qrcode/demo?site=${LA.id}`,
    );
  });

  it('offers the IANA zones, and keeps a stored zone the list lacks', () => {
    const zones = timeZoneOptions('Etc/GMT+3');
    expect(zones).toContain('Pacific/Noumea');
    expect(zones).toContain('America/Los_Angeles');
    expect(zones).toContain('UTC');
    expect(zones).toContain('Etc/GMT+3');
    expect([...zones].sort((a, b) => a.localeCompare(b))).toEqual(zones);
  });

  it("fills the form from a site, and a new site's form passes the shared schema once named", () => {
    const values = siteValues(site({ short_code: 'NOU', city: 'Nouméa' }), 'Europe/Paris');
    expect(values).toMatchObject({
      name: 'Nouméa',
      timezone: 'Pacific/Noumea',
      short_code: 'NOU',
      arrival_early_minutes: '15',
      day_end: '18:00',
      address: '',
      badge_printer_url: '',
      badge_size: '62x100',
    });
    const fresh = siteValues(undefined, 'Europe/Paris');
    expect(fresh.timezone).toBe('Europe/Paris');
    expect(siteInputSchema.safeParse(fresh).success).toBe(false);
    const parsed = siteInputSchema.safeParse({ ...fresh, name: 'Paris' });
    expect(parsed.success && parsed.data).toMatchObject({
      name: 'Paris',
      timezone: 'Europe/Paris',
      arrival_early_minutes: 0,
      // A blank optional field is null: on an edit it clears the value.
      address: null,
      badge_printer_url: null,
      badge_size: '62x100',
    });
  });

  it('lists the active sites first, oldest first, then the archived ones', () => {
    const rows = sortSites([
      site({
        id: 'a',
        archived_at: '2026-03-01T00:00:00.000Z',
        created_at: '2026-01-01T00:00:00.000Z',
      }),
      site({ id: 'b', created_at: '2026-02-01T00:00:00.000Z' }),
      site({ id: 'c', created_at: '2026-01-15T00:00:00.000Z' }),
    ]);
    expect(rows.map((row) => row.id)).toEqual(['c', 'b', 'a']);
  });
});
