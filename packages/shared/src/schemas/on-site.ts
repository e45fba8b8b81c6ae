/**
 * Who is on site now, who is still expected today, and the live stream that keeps
 * both screens (and the request list) current (issue 14).
 */
import { z } from 'zod';
import { listQuerySchema, slugOrIdFilter, uuidSchema } from './common';
import { siteFilter, siteRefSchema } from './site';

/** Every kind of person who can be inside: a visitor, an event guest, a permanent QR user, a member. */
export const PERSON_KINDS = ['visitor', 'event_guest', 'qr_user', 'member'] as const;
export type PersonKind = (typeof PERSON_KINDS)[number];

/** `?company=` (a slug or id) narrows the list of a role that sees every company. */
export const onSiteQuerySchema = listQuerySchema.extend({
  company: slugOrIdFilter,
  /** One site's people (issue 28); absent: every site the caller may see. */
  site: siteFilter,
  kind: z.enum(PERSON_KINDS).optional(),
});
export type OnSiteQuery = z.infer<typeof onSiteQuerySchema>;

const companyRef = z.object({ id: z.string(), name: z.string(), slug: z.string() });

/**
 * Who a row of either list is (`kind`: which of PERSON_KINDS it may be), for which company
 * and site, and whom or what they come for: the same fields inside and expected.
 */
const personFields = <Kind extends z.ZodType<PersonKind>>(kind: Kind) => ({
  person_id: z.string(),
  kind,
  firstname: z.string(),
  lastname: z.string(),
  /** The visitor's organisation; a QR user's or member's title. */
  organisation: z.string().nullable(),
  company: companyRef,
  /** Where they came in, or are expected (issue 28). */
  site: siteRefSchema,
  host: z.string().nullable(),
  event: z.string().nullable(),
});

/** One person inside: their open check (`check_id` stays the row's key until they leave). */
export const onSiteRowSchema = z.object({
  check_id: z.string(),
  ...personFields(z.enum(PERSON_KINDS)),
  check_in_time: z.string(),
  check_in_method: z.string(),
  /** A thumbnail URL signed for the viewer's session, or null. */
  photo: z.string().nullable(),
  /** A meeting's visitor: their latest request (its badge, issue 29); null for everyone else. */
  request_id: z.string().nullable(),
});
export type OnSiteRow = z.infer<typeof onSiteRowSchema>;

export const kindCountsSchema = z.object({
  visitor: z.number(),
  event_guest: z.number(),
  qr_user: z.number(),
  member: z.number(),
});
export type KindCounts = z.infer<typeof kindCountsSchema>;

export const onSitePageSchema = z.object({
  data: z.array(onSiteRowSchema),
  meta: z.object({
    page: z.number(),
    per_page: z.number(),
    /** Rows matching the search and kind. */
    total: z.number(),
    /** Everyone inside by kind (the search and kind filters aside). */
    counts: kindCountsSchema,
  }),
});
export type OnSitePage = z.infer<typeof onSitePageSchema>;

/**
 * An invited visitor's invitation (issue 30), as the front desk reads it on "expected today":
 * who invited them, how many came by it (a group, its visitors not cancelled), whether they
 * completed their details by the invitation's link, and when they pressed "Je suis
 * arrivé(e)" on this day (null: not today).
 */
export const expectedInvitationSchema = z.object({
  id: z.string(),
  /** The host's name. */
  invited_by: z.string().nullable(),
  group_size: z.number(),
  details_completed: z.boolean(),
  /** ISO instant of "Je suis arrivé(e)" on this day of the invitation; null otherwise. */
  here_at: z.string().nullable(),
});
export type ExpectedInvitation = z.infer<typeof expectedInvitationSchema>;

/** A confirmed meeting or an event registration of today that has not arrived yet. */
export const expectedRowSchema = z.object({
  ...personFields(z.enum(['visitor', 'event_guest'])),
  /** HH:MM in the site's time zone (`site.timezone`), as the form or the event gave it. */
  time: z.string().nullable(),
  /** The host's invitation they came by (issue 30), on one of its days; null: not invited. */
  invitation: expectedInvitationSchema.nullable().default(null),
});
export type ExpectedRow = z.infer<typeof expectedRowSchema>;

export const expectedPageSchema = z.object({
  data: z.array(expectedRowSchema),
  meta: z.object({ page: z.number(), per_page: z.number(), total: z.number() }),
});
export type ExpectedPage = z.infer<typeof expectedPageSchema>;

export const onSiteCheckParamsSchema = z.object({ checkId: uuidSchema });

/**
 * What the live stream sends (Server-Sent Events, `event:` is the type): a check made,
 * closed or undone (`presence`), a meeting request filed or decided (`request`), a roll call
 * started, marked or ended (`rollCall`). Only ids:
 * a screen refetches what it shows.
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('presence'),
    company_id: z.string(),
    /** The site it happened at (issue 28); a roll call of every site: null. */
    site_id: z.string().nullable().default(null),
    person_id: z.string(),
    /** 'visitor' (visitor_checks) or 'user' (user_checks). */
    table: z.enum(['visitor', 'user']),
    /**
     * A check made ('in') or closed ('out'); or a mistaken arrival or departure taken
     * back (checkins/undo.ts): the person is expected again, or inside again.
     */
    op: z.enum(['in', 'out', 'arrival_undone', 'departure_undone']),
  }),
  z.object({
    type: z.literal('request'),
    company_id: z.string(),
    /** The site it happened at (issue 28); a roll call of every site: null. */
    site_id: z.string().nullable().default(null),
    request_id: z.string(),
    op: z.enum(['created', 'updated']),
  }),
  z.object({
    type: z.literal('rollCall'),
    company_id: z.string(),
    /** The site it happened at (issue 28); a roll call of every site: null. */
    site_id: z.string().nullable().default(null),
    roll_call_id: z.string(),
    op: z.enum(['started', 'marked', 'ended']),
  }),
  z.object({
    type: z.literal('invitation'),
    company_id: z.string(),
    site_id: z.string().nullable().default(null),
    invitation_id: z.string(),
    /** The one visitor it is about ("Je suis arrivé(e)", details completed); null: all of them. */
    request_id: z.string().nullable().default(null),
    /** The host who invited: they hear their own invitations' news (issue 30). */
    host_user_id: z.string().nullable().default(null),
    // 'checked': an invited visitor checked in or out (a trigger of migration 0028).
    op: z.enum(['created', 'updated', 'cancelled', 'completed', 'here', 'checked']),
  }),
  z.object({
    // Issue 31: a visit held by the watchlist ('held') or its review decided ('decided'),
    // for the reviewers only (watchlist.review; a trigger of migration 0029).
    type: z.literal('watchlist'),
    company_id: z.string(),
    site_id: z.string().nullable().default(null),
    hold_id: z.string(),
    op: z.enum(['held', 'decided']),
  }),
]);
export type LiveEvent = z.infer<typeof liveEventSchema>;

/**
 * The live stream sends a comment line this often: it keeps proxies and idle-socket
 * timeouts from closing a quiet stream, and a screen that hears nothing for two of them
 * knows its stream is dead (apps/web/src/lib/live-state.ts) — a cut connection need
 * not say so.
 */
export const LIVE_HEARTBEAT_MS = 15_000;

export const liveQuerySchema = z.object({
  company: slugOrIdFilter,
  /** One site's events only (a front-desk screen opened on a site). */
  site: siteFilter,
});
