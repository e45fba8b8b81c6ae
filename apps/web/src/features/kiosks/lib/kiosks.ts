/**
 * The kiosks screen's plain logic (issue 29): a kiosk as the form's values and back, the
 * labels' order, the pairing code's instruction, and how its last contact is said. No
 * React, no DOM: `apps/web/test/kiosks.test.ts`.
 */
import {
  BADGE_SIZE_IDS,
  KIOSK_LIMITS,
  LANGUAGES,
  type BadgeSize,
  type Kiosk,
} from '@sesame/shared';

export interface KioskValues {
  name: string;
  site_id: string;
  languages: string[];
  ask_photo: boolean;
  print_badge: boolean;
  idle_seconds: string;
  host_wait_seconds: string;
  badge_size: string;
  printer_url: string;
}

/** A kiosk (or a new one, at `siteId`) as the form's values: numbers as the inputs' text. */
export function kioskValues(kiosk: Kiosk | undefined, siteId = ''): KioskValues {
  return {
    name: kiosk?.name ?? '',
    site_id: kiosk?.site.id ?? siteId,
    languages: kiosk ? [...kiosk.languages] : [...LANGUAGES],
    ask_photo: kiosk?.ask_photo ?? false,
    print_badge: kiosk?.print_badge ?? true,
    idle_seconds: String(kiosk?.idle_seconds ?? KIOSK_LIMITS.idleSeconds.default),
    host_wait_seconds: String(kiosk?.host_wait_seconds ?? KIOSK_LIMITS.hostWaitSeconds.default),
    badge_size: kiosk?.badge_size ?? '62x100',
    printer_url: kiosk?.printer_url ?? '',
  };
}

/**
 * The values as the schema's input: the languages in the catalogue's order (French first), a
 * blank printer address as none.
 */
export function kioskInput(values: KioskValues): Record<keyof KioskValues, unknown> {
  return {
    name: values.name,
    site_id: values.site_id,
    languages: LANGUAGES.filter((language) => values.languages.includes(language)),
    ask_photo: values.ask_photo,
    print_badge: values.print_badge,
    // Text as typed: the schema reads the number (a blank or a word is its message).
    idle_seconds: values.idle_seconds.trim(),
    host_wait_seconds: values.host_wait_seconds.trim(),
    badge_size: values.badge_size,
    printer_url: values.printer_url.trim() === '' ? null : values.printer_url.trim(),
  };
}

/** The labels in their select's order. */
export const BADGE_SIZE_OPTIONS: readonly BadgeSize[] = BADGE_SIZE_IDS;

/** Minutes a pairing code lasts (10). */
export const PAIRING_MINUTES = Math.round(KIOSK_LIMITS.pairingCodeTtlMs / 60_000);

/** The kiosk app's address, from the product's public address ('https://x.example/kiosk'). */
export function kioskAppUrl(publicUrl: string): string {
  let base = publicUrl;
  while (base.endsWith('/')) base = base.slice(0, -1);
  return `${base}/kiosk`;
}

/** '123456' → '123 456': the code read aloud or typed in two halves. */
export function spacedCode(code: string): string {
  return code.length === 6 ? `${code.slice(0, 3)} ${code.slice(3)}` : code;
}

/** How a last contact is said: never, a moment ago, minutes or hours ago, else its date and time. */
export type LastContact =
  | { kind: 'never' }
  | { kind: 'now' }
  | { kind: 'minutes'; count: number }
  | { kind: 'hours'; count: number }
  | { kind: 'date'; iso: string };

/**
 * The device's last call, as it is said: within the minute (the server writes it at most once a
 * minute), minutes under an hour, hours under a day, else the date and time (in the site's zone).
 */
export function lastContact(iso: string | null, now: Date): LastContact {
  if (!iso) return { kind: 'never' };
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return { kind: 'never' };
  const minutes = Math.floor((now.getTime() - at) / 60_000);
  if (minutes < 2) return { kind: 'now' };
  if (minutes < 60) return { kind: 'minutes', count: minutes };
  if (minutes < 24 * 60) return { kind: 'hours', count: Math.floor(minutes / 60) };
  return { kind: 'date', iso };
}

/** Kiosks in the list's order: the live ones first, each group newest first. */
export function sortKiosks(kiosks: readonly Kiosk[]): Kiosk[] {
  return [...kiosks].sort(
    (a, b) =>
      Number(a.state === 'revoked') - Number(b.state === 'revoked') ||
      b.created_at.localeCompare(a.created_at),
  );
}
