/**
 * Events (spec §2 Event creation, Event list, Event QR poster, JoinEvent, Event
 * attendance list; §3 Event; §5 Event form; §7 evenement calls; §8 event messages).
 *
 * The creation form and `POST /api/evenement/create` read the same schema; its
 * issues come in the form's order (company, name, place, address, date, time),
 * so the first one is the message a person reads on either side.
 */
import { z } from 'zod';
import { siteFilter, siteRefSchema } from './site';
import { EVENT_DEFAULT_DEPARTMENT, HOURS, MINUTES } from '../constants';
import { fr } from '../messages/fr';
import type { Say } from '../messages/catalogue';
import {
  SQL_INTEGER_MAX,
  TEXT_MAX,
  slugOrIdFilter,
  countryField,
  formText,
  keyed,
  listQuerySchema,
  sayIssue,
} from './common';
import { isVisitDate, visitorCreatedSchema } from './visitor';

/** The French labels of the event form's fields, as the required-field message names them. */
export const EVENT_FIELD_LABELS = fr.event.fields;
export type EventField = keyof typeof EVENT_FIELD_LABELS;

/** Spec §5 "Event form": required, in the form's order. */
export const EVENT_REQUIRED_FIELDS = [
  'company_id',
  'name',
  'location',
  'address_name',
  'date_event',
  'time_event',
] as const;

export const EVENT_MESSAGES = fr.event;

/** HH:MM with the hour among the form's 01–23 and the minute 00–59 (spec §9). */
export function isEventTime(value: string): boolean {
  const [hour = '', minute = ''] = value.split(':');
  return (
    value.length === 5 &&
    (HOURS as readonly string[]).includes(hour) &&
    (MINUTES as readonly string[]).includes(minute)
  );
}

const badRequest = keyed((m) => m.api.badRequest, { key: 'badRequest' });

/**
 * POST /api/evenement/create (JSON). `company_id` is the company's id or slug
 * (`companyId` is read too, spec §3); a supervisor's is ignored: theirs is used.
 * Whether the date is past depends on the company's time zone: the server checks it.
 */
export const eventCreateSchema = z
  .preprocess(
    (raw) => {
      if (!raw || typeof raw !== 'object') return raw;
      const body = raw as Record<string, unknown>;
      return {
        ...body,
        company_id: body.company_id ?? body.companyId ?? body.company,
        address_name: body.address_name ?? body.addressName ?? body.address,
      };
    },
    z.object({
      company_id: formText(TEXT_MAX.slug),
      /** Where it takes place (issue 28): blank, the company's only site or the creator's home site. */
      site_id: z.preprocess(
        (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
        z.uuid(keyed((m) => m.site.choose, { key: 'siteChoose', field: 'site_id' })).optional(),
      ),
      name: formText(TEXT_MAX.companyName),
      location: formText(TEXT_MAX.line),
      address_name: formText(TEXT_MAX.address),
      city: formText(TEXT_MAX.name),
      country: countryField(formText(TEXT_MAX.name)),
      state: formText(TEXT_MAX.name),
      zipcode: formText(TEXT_MAX.identifier),
      date_event: formText(TEXT_MAX.date),
      time_event: formText(TEXT_MAX.date),
      departement_id: z.preprocess(
        (v) => (v === undefined || v === null || v === '' ? EVENT_DEFAULT_DEPARTMENT : v),
        z.coerce
          .number(badRequest)
          .int(badRequest)
          .min(1, badRequest)
          .max(SQL_INTEGER_MAX, badRequest),
      ),
    }),
  )
  .superRefine((v, ctx) => {
    const fail = (path: EventField, say: Say, key: string, field?: EventField) =>
      ctx.addIssue({ code: 'custom', path: [path], ...sayIssue(say, { key, field }) });
    for (const field of EVENT_REQUIRED_FIELDS) {
      if (!v[field]) fail(field, (m) => m.event.required(field), 'required', field);
    }
    if (v.date_event && !isVisitDate(v.date_event)) {
      fail('date_event', (m) => m.event.dateInvalid, 'dateInvalid');
    }
    if (v.time_event && !isEventTime(v.time_event)) {
      fail('time_event', (m) => m.event.timeInvalid, 'timeInvalid');
    }
  });
/** The JSON the creation form sends. */
export interface EventCreateInput {
  company_id: string;
  name: string;
  location: string;
  address_name: string;
  city?: string;
  country?: string;
  state?: string;
  zipcode?: string;
  /** DD/MM/YYYY */
  date_event: string;
  /** HH:MM */
  time_event: string;
  departement_id?: number;
}
export type EventCreate = z.output<typeof eventCreateSchema>;

/** The company of an event, as every event answer carries it. */
export const eventCompanySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  /** The company's time zone: dates and times are shown in it. */
  timezone: z.string(),
});

/** An event as staff see it (spec §3 Event). */
export const eventSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  location: z.string(),
  address_name: z.string(),
  /** Spec §3: read back as addressName too. */
  addressName: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipcode: z.string().nullable(),
  country: z.string().nullable(),
  /** DD/MM/YYYY and HH:MM, in the company's time zone. */
  date_event: z.string(),
  time_event: z.string(),
  /** The same moment, ISO 8601 UTC. */
  starts_at: z.string().nullable(),
  closed: z.boolean(),
  closed_at: z.string().nullable(),
  departement_id: z.number(),
  company_id: z.string(),
  companyId: z.string(),
  company: eventCompanySchema,
  /** Where it takes place (issue 28); `company.timezone` is this site's zone. */
  site: siteRefSchema,
  /** The share link: {PUBLIC_URL}/company/{company slug}/event/{event slug} (spec §7). */
  link: z.string(),
  /** The public PNG of the share link's QR code (the poster). */
  qrcode_url: z.string().nullable(),
  participant_count: z.number(),
  created_at: z.string(),
});
export type Event = z.infer<typeof eventSchema>;

/** What anyone holding the link may read: nothing about the participants. */
export const publicEventSchema = eventSchema
  .pick({
    name: true,
    slug: true,
    location: true,
    address_name: true,
    city: true,
    state: true,
    zipcode: true,
    country: true,
    date_event: true,
    time_event: true,
    starts_at: true,
    /** True when the event no longer takes registrations (closed by staff, or its day is over). */
    closed: true,
    link: true,
  })
  .extend({
    company: eventCompanySchema.pick({ name: true, slug: true, timezone: true }),
    qrcode_url: z.string(),
  });
export type PublicEvent = z.infer<typeof publicEventSchema>;

export const eventEnvelopeSchema = z.object({ message: z.string(), data: eventSchema });
export const publicEventEnvelopeSchema = z.object({
  message: z.string(),
  data: publicEventSchema,
});

/**
 * The event a visitor form names (spec §3 "Visitor (sent)": `evenements_id`, the event's
 * id or null): the JoinEvent form sent to `POST /api/visitor/create` registers the
 * visitor for it. Its id, or its slug within the form's company; '' and 'null' name none.
 */
export const visitorFormEventSchema = z.object({
  company_id: formText(TEXT_MAX.slug),
  evenements_id: z.preprocess(
    (v) => (v === 'null' || v === 'undefined' ? '' : v),
    formText(TEXT_MAX.slug),
  ),
});

/**
 * `POST /api/visitor/create` answer: the visitor created, and when the form named an
 * event, the event registered for and the registration's confirmed request.
 */
export const visitorCreatedOrRegisteredSchema = visitorCreatedSchema.extend({
  data: visitorCreatedSchema.shape.data.extend({
    event: z.object({ id: z.string(), name: z.string(), slug: z.string() }).optional(),
    request_id: z.string().optional(),
  }),
});

/** POST /api/evenement/{company}/{event}/register answer: the code itself goes by e-mail. */
export const eventRegisteredSchema = z.object({
  message: z.string(),
  data: z.object({
    visitor_id: z.string(),
    request_id: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    email: z.string(),
    event: z.object({ name: z.string(), slug: z.string() }),
    company: z.object({ name: z.string(), slug: z.string() }),
  }),
});
export type EventRegistered = z.infer<typeof eventRegisteredSchema>;

/** `?company=` narrows admin's attendance list to one company (the page's domain). */
export const eventAttendanceQuerySchema = listQuerySchema.extend({
  company: slugOrIdFilter,
  /** One site's events (issue 28); absent: every site the caller may see. */
  site: siteFilter,
});

/** `GET /api/evenement/list`: paged, searched, and one site's events with `?site=` (issue 28). */
export const eventListQuerySchema = listQuerySchema.extend({ site: siteFilter });
export type EventListQuery = z.infer<typeof eventListQuerySchema>;
export type EventAttendanceQuery = z.infer<typeof eventAttendanceQuerySchema>;

/** Spec §3 "Event attendance entry": an event with its visitors. */
export const eventAttendanceVisitorSchema = z.object({
  id: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  /** A short-lived signed URL of the identity document. */
  request_image: z.string().nullable(),
  address: z.string().nullable(),
  /** The first check-in at the door, if any. */
  check_in_time: z.string().nullable(),
  registered_at: z.string(),
});
export const eventAttendanceEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  location: z.string(),
  date_event: z.string(),
  time_event: z.string(),
  created_at: z.string(),
  company: eventCompanySchema,
  visitors: z.array(eventAttendanceVisitorSchema),
});
export type EventAttendanceEntry = z.infer<typeof eventAttendanceEntrySchema>;
export type EventAttendanceVisitor = z.infer<typeof eventAttendanceVisitorSchema>;
/**
 * The page is cut over participants (meta counts them, `per_page` of them per page),
 * grouped under their events in the order they come.
 */
export const eventAttendanceListSchema = z.object({
  data: z.array(eventAttendanceEntrySchema),
  meta: z.object({ page: z.number(), per_page: z.number(), total: z.number() }),
});

/** `?event=` narrows the check-in log to one event (slug or id). */
export const eventVisitorLogQuerySchema = listQuerySchema.extend({
  event: slugOrIdFilter,
});
export type EventVisitorLogQuery = z.infer<typeof eventVisitorLogQuerySchema>;

/** One check-in of an event's participant (spec §3 "Visitor log", with its event). */
export const eventVisitorLogSchema = z.object({
  id: z.string(),
  visitor_id: z.string(),
  visitor_name: z.string(),
  visitor_lastname: z.string(),
  visitor_email: z.string(),
  image: z.string().nullable(),
  created_at: z.string(),
  check_in_time: z.string(),
  check_out_time: z.string().nullable(),
  event: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
});
export type EventVisitorLog = z.infer<typeof eventVisitorLogSchema>;
