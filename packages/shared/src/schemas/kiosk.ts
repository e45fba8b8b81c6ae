/**
 * The lobby (issue 29): self-service kiosks on a tablet and printed visitor badges. The
 * kiosks screen, the kiosk app and the server read these schemas; the limits are here once.
 */
import { z } from 'zod';
import type { Catalogue } from '../messages/catalogue';
import { LANGUAGES } from '../messages/catalogue';
import {
  EMAIL_PATTERN,
  TEXT_MAX,
  atMost,
  formText,
  isPhoneShaped,
  keyed,
  oneLine,
  sayIssue,
} from './common';
import {
  documentToSignSchema,
  publicVisitorTypeSchema,
  signaturesFieldSchema,
} from './visitor-type';

/** The labels a badge is laid out for, in millimetres (portrait). */
export const BADGE_SIZES = {
  /** Brother QL continuous 62 mm tape, cut at 100 mm. */
  '62x100': { widthMm: 62, heightMm: 100 },
  /** An ID-1 card (a CR80 plastic card), portrait. */
  '54x86': { widthMm: 54, heightMm: 86 },
  A6: { widthMm: 105, heightMm: 148 },
} as const;
export type BadgeSize = keyof typeof BADGE_SIZES;
export const BADGE_SIZE_IDS = Object.keys(BADGE_SIZES) as [BadgeSize, ...BadgeSize[]];

/** Every limit of the kiosk, named once. */
export const KIOSK_LIMITS = {
  /** The pairing code: 6 digits, valid this long. */
  pairingCodeTtlMs: 10 * 60_000,
  /** Letters of the last name before the kiosk searches (fewer: 400). */
  searchMinLetters: 2,
  /** The most expected visitors a search answers. */
  searchMaxMatches: 5,
  /** Searches a minute per kiosk (more: 429). */
  searchesPerMinute: 20,
  /** Pairing attempts a minute per client address (a 6-digit code must not be guessed). */
  pairAttemptsPerMinute: 10,
  idleSeconds: { min: 15, max: 600, default: 60 },
  hostWaitSeconds: { min: 30, max: 900, default: 180 },
  /** A walk-in's photo, as a JPEG data URL: at most this many bytes once decoded. */
  photoMaxBytes: 400 * 1024,
  /** The device's last contact is written at most this often. */
  lastSeenEveryMs: 60_000,
} as const;

export type KioskField = keyof Catalogue['kiosk']['fields'];

const kioskIssue = (say: (m: Catalogue) => string, key: string, field?: string) =>
  keyed(say, { key, ...(field ? { field } : {}) });
const requiredIssue = (field: KioskField) =>
  kioskIssue((m) => m.kiosk.required(field), 'required', field);

const nameField = (field: KioskField) =>
  z
    .string(requiredIssue(field))
    .max(...atMost(TEXT_MAX.name))
    .trim()
    .refine(...oneLine)
    .min(1, requiredIssue(field));

const seconds = (range: { min: number; max: number; default: number }, field: KioskField) =>
  z.coerce
    .number(kioskIssue((m) => m.kiosk.secondsInvalid(range.min, range.max), 'seconds', field))
    .int(kioskIssue((m) => m.kiosk.secondsInvalid(range.min, range.max), 'seconds', field))
    .min(
      range.min,
      kioskIssue((m) => m.kiosk.secondsInvalid(range.min, range.max), 'seconds', field),
    )
    .max(
      range.max,
      kioskIssue((m) => m.kiosk.secondsInvalid(range.min, range.max), 'seconds', field),
    );

/** An IPP Everywhere / AirPrint printer's address: ipp://, ipps://, http:// or https://. */
export const PRINTER_URL_PATTERN = /^(ipps?|https?):\/\/[^\s/?#]+(:\d{1,5})?(\/[^\s?#]*)?$/i;
export const printerUrlField = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .max(...atMost(TEXT_MAX.line))
    .trim()
    .regex(
      PRINTER_URL_PATTERN,
      kioskIssue((m) => m.kiosk.printerInvalid, 'printerInvalid'),
    )
    .nullable()
    .optional(),
);

export const badgeSizeField = z.enum(
  BADGE_SIZE_IDS,
  kioskIssue((m) => m.kiosk.badgeSizeInvalid, 'badgeSizeInvalid'),
);

/** A kiosk's settings, each as the form and the API check it (no defaults: see below). */
const kioskFields = {
  name: nameField('name'),
  site_id: z.uuid(requiredIssue('site_id')),
  languages: z
    .array(z.enum(LANGUAGES))
    .min(1, requiredIssue('languages'))
    .max(LANGUAGES.length)
    .refine((list) => new Set(list).size === list.length, requiredIssue('languages')),
  ask_photo: z.boolean(),
  print_badge: z.boolean(),
  idle_seconds: seconds(KIOSK_LIMITS.idleSeconds, 'idle_seconds'),
  host_wait_seconds: seconds(KIOSK_LIMITS.hostWaitSeconds, 'host_wait_seconds'),
  badge_size: badgeSizeField,
  printer_url: printerUrlField,
};

/** POST `/api/company/{id}/kiosks`: a field left out takes its default. */
export const kioskInputSchema = z.object({
  ...kioskFields,
  languages: kioskFields.languages.default(['fr', 'en']),
  ask_photo: kioskFields.ask_photo.default(false),
  print_badge: kioskFields.print_badge.default(true),
  idle_seconds: kioskFields.idle_seconds.default(KIOSK_LIMITS.idleSeconds.default),
  host_wait_seconds: kioskFields.host_wait_seconds.default(KIOSK_LIMITS.hostWaitSeconds.default),
  badge_size: kioskFields.badge_size.default('62x100'),
});
export type KioskInput = z.input<typeof kioskInputSchema>;
/**
 * PUT `…/kiosks/{kioskId}`: a field left out is kept (no defaults here, or an edit of the
 * name would reset every other setting).
 */
export const kioskUpdateSchema = z.object(kioskFields).partial();

/** A kiosk's settings as the staff's list and the tablet itself both read them. */
const kioskSettings = {
  languages: z.array(z.enum(LANGUAGES)),
  ask_photo: z.boolean(),
  print_badge: z.boolean(),
  idle_seconds: z.number(),
  host_wait_seconds: z.number(),
  badge_size: z.enum(BADGE_SIZE_IDS),
};

/** A kiosk as the kiosks screen lists it: never its token nor its code's digest. */
export const kioskSchema = z.object({
  id: z.string(),
  name: z.string(),
  site: z.object({ id: z.string(), name: z.string() }),
  ...kioskSettings,
  printer_url: z.string().nullable(),
  /** 'waiting': a pairing code is out; 'paired': a tablet holds its token; 'revoked'; 'unpaired'. */
  state: z.enum(['waiting', 'paired', 'revoked', 'unpaired']),
  paired_at: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type Kiosk = z.infer<typeof kioskSchema>;

/** The answer of a creation or a new pairing code: the code itself, shown once. */
export const kioskPairingSchema = z.object({
  code: z.string().regex(/^\d{6}$/),
  expires_at: z.string(),
});
export type KioskPairing = z.infer<typeof kioskPairingSchema>;

/** POST `/api/kiosk/pair`. */
export const kioskPairInputSchema = z.object({
  code: z
    .string(kioskIssue((m) => m.kiosk.codeInvalid, 'codeInvalid'))
    .max(...atMost(TEXT_MAX.code))
    .trim()
    .regex(
      /^\d{6}$/,
      kioskIssue((m) => m.kiosk.codeInvalid, 'codeInvalid'),
    ),
});

/** What the tablet knows of itself (GET `/api/kiosk/me`): no printer address, no staff. */
export const kioskConfigSchema = z.object({
  id: z.string(),
  name: z.string(),
  company: z.object({ name: z.string(), slug: z.string(), logo: z.string().nullable() }),
  site: z.object({ name: z.string(), timezone: z.string() }),
  ...kioskSettings,
  /** The server prints this kiosk's badges (an IPP printer is set); else the tablet prints. */
  server_prints: z.boolean(),
});
export type KioskConfig = z.infer<typeof kioskConfigSchema>;

export const kioskPairedSchema = z.object({ token: z.string(), kiosk: kioskConfigSchema });

/** GET `/api/kiosk/expected?q=`: at least 2 letters of a last name. */
export const kioskSearchQuerySchema = z.object({
  q: z
    .string(kioskIssue((m) => m.kiosk.searchTooShort, 'searchTooShort'))
    .max(...atMost(TEXT_MAX.search))
    .trim()
    .refine(
      (q) => q.replace(/[^\p{L}]/gu, '').length >= KIOSK_LIMITS.searchMinLetters,
      kioskIssue((m) => m.kiosk.searchTooShort, 'searchTooShort'),
    ),
});

/** One expected visit as a kiosk shows it: the first name and the host only. */
export const kioskExpectedSchema = z.object({
  request_id: z.string(),
  firstname: z.string(),
  /** The last name's first letter, to tell two Maries apart ('D.'). */
  initial: z.string(),
  host: z.string().nullable(),
  /** HH:MM in the site's zone, or null. */
  time: z.string().nullable(),
  /**
   * The documents of the visit's type this visitor must still sign (issue 31), in their
   * language: the check-in sends them signed as `signatures`.
   */
  to_sign: z.array(documentToSignSchema),
});
export type KioskExpected = z.infer<typeof kioskExpectedSchema>;

/** The visit a kiosk acts on: found by name (`request_id`) or by the code read from a QR (`code`). */
const whichVisit = {
  request_id: z.uuid().optional(),
  code: z
    .string()
    .max(...atMost(TEXT_MAX.code))
    .trim()
    .min(1)
    .optional(),
};

/** A kiosk call names its visitor one way exactly, else it says m.kiosk.checkWhom. */
const exactlyOneGiven = (...ways: unknown[]) => ways.filter((way) => !!way).length === 1;
const checkWhomIssue = () => kioskIssue((m) => m.kiosk.checkWhom, 'checkWhom');

/**
 * POST `/api/kiosk/check-in` and `/api/kiosk/check-out`: the visit found by name
 * (`request_id`) or the code read from the QR of the mail or the badge (`code`).
 */
export const kioskCheckInputSchema = z
  .object({
    ...whichVisit,
    /** The documents still to sign (`to_sign` of the search or GET /api/kiosk/to-sign), signed. */
    signatures: signaturesFieldSchema,
  })
  .refine((v) => exactlyOneGiven(v.request_id, v.code), checkWhomIssue());
export type KioskCheckInput = z.infer<typeof kioskCheckInputSchema>;

/** GET `/api/kiosk/to-sign`: the visit found by name (`request_id`) or its code. */
export const kioskToSignQuerySchema = z
  .object({
    ...whichVisit,
    /**
     * A walk-in (issue 31): the type chosen and the e-mail typed, so that a visitor who
     * signed the current version within its validity is not asked again.
     */
    visitor_type_id: z.uuid().optional(),
    email: z
      .string()
      .max(...atMost(TEXT_MAX.email))
      .trim()
      .optional(),
    language: z.enum(LANGUAGES).optional(),
  })
  .refine((v) => exactlyOneGiven(v.request_id, v.code, v.visitor_type_id), checkWhomIssue());

/** Its answer: the documents the visitor must still sign before the check-in. */
export const kioskToSignSchema = z.object({ to_sign: z.array(documentToSignSchema) });

/** GET `/api/kiosk/visitor-types`: the kiosk's site's active types, in order. */
export const kioskVisitorTypesSchema = z.object({ data: z.array(publicVisitorTypeSchema) });

export const kioskVisitCheckSchema = z.object({
  /** 'in' / 'out': done now; 'alreadyIn' / 'alreadyOut': nothing to do. */
  status: z.enum(['in', 'out', 'alreadyIn', 'alreadyOut']),
  message: z.string(),
  request_id: z.string(),
  firstname: z.string(),
});
export type KioskVisitCheck = z.infer<typeof kioskVisitCheckSchema>;

/**
 * The answer of POST `/api/kiosk/check-in` and `/check-out`: the desk's check, or (issue 31)
 * 'held': nothing done, the visitor waits to be welcomed (`message` is m.watchlist.kioskHeld,
 * the tablet never says why).
 */
export const kioskCheckAnswerSchema = kioskVisitCheckSchema.extend({
  status: z.enum(['in', 'out', 'alreadyIn', 'alreadyOut', 'held']),
});
export type KioskCheckAnswer = z.infer<typeof kioskCheckAnswerSchema>;

const walkInText = (max: number) => formText(max, (m) => m.visitor.tooLong);

/**
 * POST `/api/kiosk/walk-ins`: someone without an appointment. An e-mail or a phone number
 * (one will do), the host chosen in the host search (or none: the front desk), a reason,
 * the photo when the kiosk asks for one, and the privacy notice accepted. Issue 31: the
 * visitor type (blank: the site's first), whose required fields the server enforces
 * (organisation, phone, ID number; the photo where the kiosk takes one), and the type's
 * documents signed.
 */
export const kioskWalkInSchema = z
  .object({
    firstname: walkInText(TEXT_MAX.name),
    lastname: walkInText(TEXT_MAX.name),
    organisation_name: walkInText(TEXT_MAX.line),
    email: walkInText(TEXT_MAX.email),
    contact: walkInText(TEXT_MAX.phone),
    host_user_id: z.preprocess(
      (v) => (v === '' ? null : v),
      z.uuid(kioskIssue((m) => m.request.hostUnknown, 'hostUnknown', 'host_user_id')).nullish(),
    ),
    reason: walkInText(TEXT_MAX.freeText),
    id_number: walkInText(TEXT_MAX.identifier).default(''),
    visitor_type_id: z.preprocess(
      (v) => (v === '' ? null : v),
      z
        .uuid(kioskIssue((m) => m.visitorType.typeUnknown, 'typeUnknown', 'visitor_type_id'))
        .nullish(),
    ),
    signatures: signaturesFieldSchema,
    language: z.enum(LANGUAGES).default('fr'),
    /** A JPEG data URL from the tablet's camera, when the kiosk asks for a photo. */
    photo: z
      .string()
      .max(Math.ceil((KIOSK_LIMITS.photoMaxBytes * 4) / 3) + 64)
      .regex(
        /^data:image\/jpeg;base64,[A-Za-z0-9+/]+=*$/,
        kioskIssue((m) => m.kiosk.photoInvalid, 'photoInvalid', 'photo'),
      )
      .nullish(),
    privacy_accepted: z.literal(
      true,
      kioskIssue((m) => m.visitor.privacyRequired, 'privacyRequired', 'privacy_accepted'),
    ),
  })
  .superRefine((v, ctx) => {
    const fail = (path: string, say: (m: Catalogue) => string, key: string, field?: string) =>
      ctx.addIssue({ code: 'custom', path: [path], ...sayIssue(say, { key, field }) });
    // The organisation, the phone and the ID number: as the visitor type requires (the server).
    for (const field of ['firstname', 'lastname'] as const) {
      if (!v[field]) fail(field, (m) => m.kiosk.required(field), 'required', field);
    }
    if (!v.email && !v.contact) fail('email', (m) => m.kiosk.contactRequired, 'contactRequired');
    if (v.email && !EMAIL_PATTERN.test(v.email))
      fail('email', (m) => m.visitor.emailInvalid, 'emailInvalid');
    if (v.contact && !isPhoneShaped(v.contact))
      fail('contact', (m) => m.validation.phoneInvalid, 'phoneInvalid');
  })
  .transform((v) => ({ ...v, email: v.email.toLowerCase() }));
export type KioskWalkInInput = z.input<typeof kioskWalkInSchema>;

export const kioskWalkInCreatedSchema = z.object({
  request_id: z.string(),
  /** Who was told: the host's name, or null when the front desk was. */
  told: z.string().nullable(),
  /**
   * Issue 31. 'waiting': the host (or front desk) decides, poll the status as before;
   * 'let_in': the type needs no host's approval, the visitor is checked in (badge now);
   * 'held': nothing more happens on the tablet, it says m.watchlist.kioskHeld (never why;
   * `told` is null then).
   */
  status: z.enum(['waiting', 'let_in', 'held']),
});

/** GET `/api/kiosk/walk-ins/{requestId}`: the host's answer so far. */
export const kioskWalkInStatusSchema = z.object({
  status: z.enum(['waiting', 'accepted', 'declined']),
});

/** POST `/api/badges/{requestId}/print`: to the site's (or kiosk's) IPP printer, or recorded as printed by the browser. */
export const badgePrintInputSchema = z.object({
  via: z.enum(['ipp', 'browser']).default('ipp'),
});

export const badgePrintSchema = z.object({
  id: z.string(),
  printer: z.string(),
  badge_size: z.enum(BADGE_SIZE_IDS),
  reprint: z.boolean(),
  at: z.string(),
});
export type BadgePrint = z.infer<typeof badgePrintSchema>;
