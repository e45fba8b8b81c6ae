/**
 * Issue 29: the kiosks screen's plain logic (features/kiosks/lib/kiosks.ts) — the form's
 * values to the shared schema and back, the last contact said, the list's order, the
 * pairing instruction — its words (every issue of the kiosk form said with its field's
 * label, both languages), and the badge menu's latest print (lib/badges.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  ENGLISH_MESSAGES,
  KIOSK_LIMITS,
  kioskInputSchema,
  type BadgePrint,
  type Kiosk,
} from '@sesame/shared';
import {
  BADGE_SIZE_OPTIONS,
  PAIRING_MINUTES,
  kioskAppUrl,
  kioskInput,
  kioskValues,
  lastContact,
  sortKiosks,
  spacedCode,
} from '../src/features/kiosks/lib/kiosks';
import { latestPrint } from '../src/lib/badges';
import { fieldErrors, issueText } from '../src/lib/schema-errors';
import { Translator } from '../src/lib/translator';
import badgesEn from '../src/locales/en/badges.json';
import kiosksEn from '../src/locales/en/kiosks.json';
import badgesFr from '../src/locales/fr/badges.json';
import kiosksFr from '../src/locales/fr/kiosks.json';
import sitesEn from '../src/locales/en/sites.json';
import sitesFr from '../src/locales/fr/sites.json';

const SITE = '0190aaaa-0000-7000-8000-000000000001';

const kiosk = (over: Partial<Kiosk> = {}): Kiosk => ({
  id: 'k1',
  name: 'Hall A',
  site: { id: SITE, name: 'Paris' },
  languages: ['en'],
  ask_photo: true,
  print_badge: false,
  idle_seconds: 90,
  host_wait_seconds: 300,
  badge_size: '54x86',
  printer_url: 'ipp://10.0.0.5/ipp/print',
  state: 'paired',
  paired_at: '2026-11-27T08:00:00.000Z',
  last_seen_at: '2026-11-27T09:00:00.000Z',
  revoked_at: null,
  created_at: '2026-11-27T07:00:00.000Z',
  ...over,
});

describe('the kiosk form', () => {
  it('starts a new kiosk with the defaults: both languages, a badge, 60 s and 180 s, 62 × 100', () => {
    const values = kioskValues(undefined, SITE);
    expect(values).toEqual({
      name: '',
      site_id: SITE,
      languages: ['fr', 'en'],
      ask_photo: false,
      print_badge: true,
      idle_seconds: String(KIOSK_LIMITS.idleSeconds.default),
      host_wait_seconds: String(KIOSK_LIMITS.hostWaitSeconds.default),
      badge_size: '62x100',
      printer_url: '',
    });
    const parsed = kioskInputSchema.parse(kioskInput({ ...values, name: 'Accueil' }));
    expect(parsed).toMatchObject({
      name: 'Accueil',
      site_id: SITE,
      languages: ['fr', 'en'],
      idle_seconds: 60,
      host_wait_seconds: 180,
      badge_size: '62x100',
      printer_url: null,
    });
  });

  it('gives back a kiosk edited as it was, and sends its languages in the catalogue order', () => {
    const values = kioskValues(kiosk());
    expect(kioskInputSchema.parse(kioskInput(values))).toEqual({
      name: 'Hall A',
      site_id: SITE,
      languages: ['en'],
      ask_photo: true,
      print_badge: false,
      idle_seconds: 90,
      host_wait_seconds: 300,
      badge_size: '54x86',
      printer_url: 'ipp://10.0.0.5/ipp/print',
    });
    expect(kioskInput({ ...values, languages: ['en', 'fr'] }).languages).toEqual(['fr', 'en']);
    // A blank printer address is none (the site's printer, else the tablet prints).
    expect(kioskInput({ ...values, printer_url: '   ' }).printer_url).toBeNull();
  });

  it('refuses what the server refuses, each field with its own message in the screen language', () => {
    const values = {
      ...kioskValues(undefined),
      languages: [],
      idle_seconds: '5',
      host_wait_seconds: 'abc',
      printer_url: 'lpr://printer',
    };
    const parsed = kioskInputSchema.safeParse(kioskInput(values));
    expect(parsed.success).toBe(false);
    const issues = parsed.success ? [] : parsed.error.issues;

    const words = new Translator({
      language: 'fr',
      fallbackLanguage: 'fr',
      defaultNamespace: 'kiosks',
      load: () => Promise.reject(new Error('every namespace is given')),
    });
    words.add('fr', 'kiosks', kiosksFr);
    words.add('en', 'kiosks', kiosksEn);
    const french = fieldErrors(issues, issueText(words.fixedT(['kiosks'])));
    expect(Object.keys(french.errors).sort()).toEqual(
      ['host_wait_seconds', 'idle_seconds', 'languages', 'name', 'printer_url', 'site_id'].sort(),
    );
    expect(french.first).toBe('name');
    expect(french.errors.name).toBe('Le champ "Nom de la borne" est requis.');
    expect(french.errors.languages).toBe('Le champ "Langues" est requis.');
    expect(french.errors.idle_seconds).toBe(
      `Veuillez entrer un nombre de secondes entre ${KIOSK_LIMITS.idleSeconds.min} et ${KIOSK_LIMITS.idleSeconds.max}.`,
    );
    expect(french.errors.printer_url).toMatch(/adresse IPP/);

    words.language = 'en';
    const english = fieldErrors(
      issues,
      issueText(words.fixedT(['kiosks']), undefined, ENGLISH_MESSAGES),
    );
    expect(english.errors.name).toBe('The field "Kiosk name" is required.');
    expect(english.errors.host_wait_seconds).toBe(
      `Please enter a number of seconds between ${KIOSK_LIMITS.hostWaitSeconds.min} and ${KIOSK_LIMITS.hostWaitSeconds.max}.`,
    );
  });
});

describe('a kiosk in the list', () => {
  const now = new Date('2026-11-27T12:00:00.000Z');

  it('says its last contact: never, just now, minutes, hours, then the date', () => {
    expect(lastContact(null, now)).toEqual({ kind: 'never' });
    expect(lastContact('not a date', now)).toEqual({ kind: 'never' });
    expect(lastContact('2026-11-27T11:59:10.000Z', now)).toEqual({ kind: 'now' });
    expect(lastContact('2026-11-27T11:45:00.000Z', now)).toEqual({ kind: 'minutes', count: 15 });
    expect(lastContact('2026-11-27T09:30:00.000Z', now)).toEqual({ kind: 'hours', count: 2 });
    expect(lastContact('2026-11-25T09:30:00.000Z', now)).toEqual({
      kind: 'date',
      iso: '2026-11-25T09:30:00.000Z',
    });
  });

  it('lists the live kiosks first, newest first, the revoked ones after', () => {
    const rows = [
      kiosk({ id: 'old', created_at: '2026-11-01T00:00:00.000Z' }),
      kiosk({ id: 'revoked', state: 'revoked', created_at: '2026-11-26T00:00:00.000Z' }),
      kiosk({ id: 'new', state: 'waiting', created_at: '2026-11-20T00:00:00.000Z' }),
    ];
    expect(sortKiosks(rows).map((k) => k.id)).toEqual(['new', 'old', 'revoked']);
  });

  it('tells where the tablet types its code, the code in two halves, valid 10 minutes', () => {
    expect(kioskAppUrl('https://sesame.example/')).toBe('https://sesame.example/kiosk');
    expect(kioskAppUrl('http://localhost:5173')).toBe('http://localhost:5173/kiosk');
    expect(spacedCode('123456')).toBe('123 456');
    expect(PAIRING_MINUTES).toBe(10);
  });

  it('names every badge size in both languages', () => {
    expect(BADGE_SIZE_OPTIONS).toEqual(['62x100', '54x86', 'A6']);
    for (const size of BADGE_SIZE_OPTIONS) {
      expect(badgesFr.sizes[size]).toBeTruthy();
      expect(badgesEn.sizes[size]).toBeTruthy();
    }
    expect(badgesFr.sizes['62x100']).toBe('62 × 100 mm (Brother QL)');
    expect(badgesFr.sizes['54x86']).toBe('54 × 86 mm (carte ID-1)');
    // The site form names them in its own namespace (it opens without loading another): the same words.
    expect(sitesFr.form.badgeSizes).toEqual(badgesFr.sizes);
    expect(sitesEn.form.badgeSizes).toEqual(badgesEn.sizes);
  });
});

describe('a badge printed before', () => {
  const print = (at: string, reprint = false): BadgePrint => ({
    id: at,
    printer: 'browser',
    badge_size: '62x100',
    reprint,
    at,
  });

  it('is the latest of its prints, whatever their order; none before the first', () => {
    expect(latestPrint(undefined)).toBeUndefined();
    expect(latestPrint([])).toBeUndefined();
    expect(
      latestPrint([
        print('2026-11-27T09:00:00.000Z'),
        print('2026-11-27T11:00:00.000Z', true),
        print('2026-11-27T10:00:00.000Z', true),
      ])?.at,
    ).toBe('2026-11-27T11:00:00.000Z');
  });
});
