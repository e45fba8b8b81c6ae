/**
 * The sites screen's plain logic (issue 28): a site's public request link and its poster's
 * address, the time zones a site may choose, a site as the form's values and back.
 */
import { DEFAULT_DAY_END, EMAIL_PATTERN, type Site } from '@sesame/shared';

/** A site's own request link: the public form, the site already chosen. */
export function siteRequestLink(publicUrl: string, slug: string, siteId: string): string {
  const base = publicUrl.endsWith('/') ? publicUrl.slice(0, -1) : publicUrl;
  return `${base}/${encodeURIComponent(slug)}/request-meeting?site=${encodeURIComponent(siteId)}`;
}

/** A site's QR poster (the company's poster page, naming the site). */
export function sitePosterPath(domain: string, slug: string, siteId: string): string {
  return `/${encodeURIComponent(domain)}/show-company-qrcode/${encodeURIComponent(slug)}?site=${encodeURIComponent(siteId)}`;
}

/**
 * The IANA zones this browser knows, sorted, with `current` kept even when the list
 * lacks it (a zone stored before, 'UTC' on a runtime that lists only regions).
 */
export function timeZoneOptions(current?: string | null): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(zones);
  all.add('UTC');
  if (current) all.add(current);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** The browser's own zone: a new site's first guess. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export const SITE_FIELDS = [
  'name',
  'address',
  'city',
  'zipcode',
  'country',
  'timezone',
  'front_desk_email',
  'opens_at',
  'day_end',
  'arrival_early_minutes',
  'short_code',
  'badge_printer_url',
  'badge_size',
  'security_emails',
] as const;
export type SiteField = (typeof SITE_FIELDS)[number];
export type SiteValues = Record<SiteField, string>;

/** A site (or a new one) as the form's values: every field a string. */
export function siteValues(site: Site | undefined, zone: string): SiteValues {
  return {
    name: site?.name ?? '',
    address: site?.address ?? '',
    city: site?.city ?? '',
    zipcode: site?.zipcode ?? '',
    country: site?.country ?? '',
    timezone: site?.timezone ?? zone,
    front_desk_email: site?.front_desk_email ?? '',
    opens_at: site?.opens_at ?? '',
    day_end: site?.day_end ?? DEFAULT_DAY_END,
    arrival_early_minutes: String(site?.arrival_early_minutes ?? 0),
    short_code: site?.short_code ?? '',
    // Issue 29: the front desk's badge printer (blank: the browser prints) and label.
    badge_printer_url: site?.badge_printer_url ?? '',
    badge_size: site?.badge_size ?? '62x100',
    // Issue 31: who is told of a visit the watchlist held, one address a line.
    security_emails: securityEmailsOf(site).join('\n'),
  };
}

/** A site's security contacts (issue 31), none on a site read before the field existed. */
export function securityEmailsOf(site: Site | undefined): string[] {
  const emails = (site as (Site & { security_emails?: string[] | null }) | undefined)
    ?.security_emails;
  return Array.isArray(emails) ? emails : [];
}

/**
 * The security contacts as typed (one a line, or separated by commas or semicolons) → the
 * addresses, trimmed, lower case, each once.
 */
export function emailList(text: string): string[] {
  const emails = text
    .split(/[\n,;]/)
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== '');
  return [...new Set(emails)];
}

/** The first address of the list that is not one, if any. */
export function invalidEmail(emails: readonly string[]): string | undefined {
  return emails.find((email) => !EMAIL_PATTERN.test(email));
}

/** Sites in the list's order: active ones first (main site first), then the archived ones. */
export function sortSites(sites: readonly Site[]): Site[] {
  return [...sites].sort(
    (a, b) =>
      Number(!!a.archived_at) - Number(!!b.archived_at) || a.created_at.localeCompare(b.created_at),
  );
}
