/**
 * A company's sites (issue 28): its buildings, each with its own address, time zone,
 * front desk and hours. Everything that happens in a place belongs to one; lists take
 * `?site=` and records carry `site`. The server and the sites screen read these schemas.
 */
import { z } from 'zod';
import { ARRIVAL_EARLY_MAX_MINUTES } from '../constants';
import type { Catalogue } from '../messages/catalogue';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  atMost,
  countryField,
  keyed,
  listQuerySchema,
  oneLine,
  uuidSchema,
} from './common';
import { DAY_END_PATTERN } from './company';
import { BADGE_SIZE_IDS, badgeSizeField, printerUrlField } from './kiosk';

export type SiteField = keyof Catalogue['site']['fields'];

/** A site's security contacts (issue 31), at most. */
export const SITE_SECURITY_EMAILS_MAX = 10;

const siteIssue = (key: 'timezoneInvalid' | 'timeInvalid' | 'shortCodeInvalid', field: SiteField) =>
  keyed((m) => m.site[key], { key, field });
const requiredIssue = (field: SiteField) =>
  keyed((m) => m.site.required(field), { key: 'required', field });

const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value;

/** A blank optional field is null: on an edit, it clears the value (left out, it is kept). */
const blankToNull = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? null : value;

const siteText = (max: number) =>
  z.preprocess(
    blankToNull,
    z
      .string()
      .max(...atMost(max))
      .trim()
      .refine(...oneLine)
      .nullable()
      .optional(),
  );

/** Whether `zone` is an IANA time zone this runtime knows ('Europe/Paris', 'Pacific/Noumea'). */
export function isTimeZone(zone: string): boolean {
  // 'UTC' and links are accepted by Intl; a made-up zone throws a RangeError.
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const hourMinute = (field: 'opens_at' | 'day_end') =>
  z.preprocess(
    blankToUndefined,
    z
      .string(siteIssue('timeInvalid', field))
      .trim()
      .max(5, siteIssue('timeInvalid', field))
      .regex(DAY_END_PATTERN, siteIssue('timeInvalid', field))
      .optional(),
  );

/** POST and PUT `/api/company/{id}/sites[/{siteId}]`: a PUT may leave any field out (kept). */
export const siteInputSchema = z.object({
  name: z.preprocess(
    blankToUndefined,
    z
      .string(requiredIssue('name'))
      .max(...atMost(TEXT_MAX.name))
      .trim()
      .refine(...oneLine)
      .min(1, requiredIssue('name')),
  ),
  address: siteText(TEXT_MAX.address),
  city: siteText(TEXT_MAX.name),
  zipcode: siteText(20),
  country: z.preprocess(
    blankToUndefined,
    countryField(
      z
        .string()
        .max(...atMost(TEXT_MAX.name))
        .trim(),
    ).optional(),
  ),
  timezone: z.preprocess(
    blankToUndefined,
    z
      .string(requiredIssue('timezone'))
      .trim()
      .max(64, siteIssue('timezoneInvalid', 'timezone'))
      .refine(isTimeZone, siteIssue('timezoneInvalid', 'timezone')),
  ),
  front_desk_email: z.preprocess(
    blankToUndefined,
    z
      .string()
      .max(...atMost(TEXT_MAX.email))
      .trim()
      .regex(
        EMAIL_PATTERN,
        keyed((m) => m.validation.emailInvalid, { key: 'emailInvalid' }),
      )
      .optional(),
  ),
  opens_at: hourMinute('opens_at'),
  day_end: hourMinute('day_end'),
  arrival_early_minutes: z.preprocess(
    (value) => (typeof value === 'string' ? blankToUndefined(value) : value),
    z.coerce
      .number()
      .int()
      .min(0)
      .max(
        ARRIVAL_EARLY_MAX_MINUTES,
        keyed((m) => m.company.arrivalEarlyInvalid, {
          key: 'arrivalEarlyInvalid',
          max: ARRIVAL_EARLY_MAX_MINUTES,
        }),
      )
      .optional(),
  ),
  short_code: z.preprocess(
    (value) => (typeof value === 'string' ? blankToNull(value.toUpperCase()) : value),
    z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{2,6}$/, siteIssue('shortCodeInvalid', 'short_code'))
      .nullable()
      .optional(),
  ),
  /** Issue 29: the front desk's IPP badge printer (blank: badges print from the browser). */
  badge_printer_url: printerUrlField,
  /** Issue 29: the label the site's badges are laid out for (BADGE_SIZES). */
  badge_size: z.preprocess(blankToUndefined, badgeSizeField.optional()),
  /**
   * Issue 31: the site's security contacts, told by mail when the watchlist holds a visit
   * (at most SITE_SECURITY_EMAILS_MAX, each once, lower-cased; null or [] clears them).
   */
  security_emails: z.preprocess(
    // The sites form's text: one address a line (or separated by commas or semicolons).
    (value) =>
      value === null
        ? []
        : typeof value === 'string'
          ? value
              .split(/[\n,;]/)
              .map((email) => email.trim())
              .filter((email) => email !== '')
          : value,
    z
      .array(
        z
          .string()
          .max(...atMost(TEXT_MAX.email))
          .trim()
          .toLowerCase()
          .regex(
            EMAIL_PATTERN,
            keyed((m) => m.validation.emailInvalid, { key: 'emailInvalid' }),
          ),
      )
      .max(SITE_SECURITY_EMAILS_MAX)
      .transform((emails) => [...new Set(emails)])
      .optional(),
  ),
});
export type SiteInput = z.infer<typeof siteInputSchema>;

/** PUT: every field optional (what is left out is kept). */
export const siteUpdateSchema = siteInputSchema.partial();
export type SiteUpdate = z.infer<typeof siteUpdateSchema>;

export const siteSchema = z.object({
  id: z.string(),
  company_id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  zipcode: z.string().nullable(),
  country: z.string().nullable(),
  timezone: z.string(),
  front_desk_email: z.string().nullable(),
  opens_at: z.string(),
  day_end: z.string(),
  arrival_early_minutes: z.number(),
  short_code: z.string().nullable(),
  badge_printer_url: z.string().nullable(),
  badge_size: z.enum(BADGE_SIZE_IDS),
  security_emails: z.array(z.string()),
  archived_at: z.string().nullable(),
  created_at: z.string(),
});
export type Site = z.infer<typeof siteSchema>;

/** What the public form and a record show of a site: enough to recognise it. */
export const siteRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  timezone: z.string(),
});
export type SiteRef = z.infer<typeof siteRefSchema>;

/** The public form's sites of a company (no front-desk address, no settings). */
export const publicSiteSchema = siteRefSchema.extend({
  address: z.string().nullable(),
  city: z.string().nullable(),
});
export type PublicSite = z.infer<typeof publicSiteSchema>;

export const siteListQuerySchema = listQuerySchema.extend({
  /** 'true': archived sites too (the sites screen's "Afficher les archivés"). */
  archived: z.enum(['true', 'false']).optional(),
});
export type SiteListQuery = z.infer<typeof siteListQuerySchema>;

export const siteParamsSchema = z.object({ id: z.string().min(1).max(100), siteId: uuidSchema });

/**
 * `?site=` of every list that has a place: one site's records. Absent: every site the
 * caller may see (a single-site company's only site is implied).
 */
export const siteFilter = uuidSchema.optional();
