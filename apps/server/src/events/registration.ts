/**
 * The one way into an event (issue 17): a registration through the share link
 * (`POST /evenement/{company}/{event}/register`) and a visitor form sent with
 * `evenements_id` (`POST /visitor/create`, the spec's JoinEvent call) both go
 * through `register` here, so both have the same limits and the same refusals:
 *  - a few registrations per client and event in a window (429), whichever call made them;
 *  - a closed or past event refuses (409, a sentence that says which);
 *  - the visitor form's checks with the event's place, date and time (400, 413, 415);
 *  - an address already registered to the event (409), a few registration mails per
 *    address per day (429), in the registration's transaction (service.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  ID_FILE_MAX_BYTES,
  asOneLine,
  visitorFormSchema,
  type VisitorCreateInput,
} from '@sesame/shared';
import { findCompany } from '../companies/service';
import type { Db } from '../db/client';
import { conflict, HttpError, notFound } from '../errors';
import { visitorFormError } from '../visitors/form-error';
import { ALLOWED } from '../files/detect';
import { checkFile, withStoredFileCleanup, type MultipartBody } from '../files/uploads';
import type { VisitorRow } from '../visitors/service';
import { eventState, findEvent, findEventBySlug, registerForEvent, type EventRow } from './service';

export interface Registration {
  visitor: VisitorRow;
  requestId: string;
  fields: VisitorCreateInput;
}

export interface RegistrationDesk {
  /**
   * Registers the sender of `body` (the visitor form's multipart fields and its
   * `request_image`) for `event`; throws the HttpError that says why not. `body` may be
   * a reader: it is then read only once the limit and the event's state let it in.
   */
  register(
    request: FastifyRequest,
    event: EventRow,
    body: MultipartBody | (() => Promise<MultipartBody>),
  ): Promise<Registration>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One desk per server: both routes count registrations in the same place. */
const desks = new WeakMap<object, RegistrationDesk>();

export function registrationDesk(app: FastifyInstance): RegistrationDesk {
  const known = desks.get(app.server);
  if (known) return known;
  const limits = app.config.rateLimits;
  /** The event whose registration a request is counted against (read by the key). */
  const eventOf = new WeakMap<FastifyRequest, string>();
  const limit = app.createRateLimit({
    max: limits.registrationsPerClientPerEvent,
    timeWindow: limits.registrationWindowMs,
    keyGenerator: (request) => `registration|${request.ip}|${eventOf.get(request) ?? ''}`,
  });

  const desk: RegistrationDesk = {
    async register(request, event, sent) {
      // Per client and event: a share link is no way to mail many people from one place.
      eventOf.set(request, event.id);
      const counted = await limit(request);
      if (!counted.isAllowed && counted.isExceeded) {
        throw new HttpError(429, (m) => m.event.clientLimit);
      }
      const state = eventState(event, event.site.timezone);
      if (state !== 'open') throw refusal(state);
      const body = typeof sent === 'function' ? await sent() : sent;

      const upload = body.files.request_image;
      const parsed = visitorFormSchema.safeParse({
        // The visitor's mails follow the form's language, else the one they called in.
        language: request.lang,
        ...body.fields,
        // The place, date and time are the event's whatever is sent; no host, no reason.
        // On one line: an event stored before its fields refused line breaks (issue 26 §5)
        // must not fail its visitors' forms on a field they cannot change.
        company_id: event.companyId,
        host: '',
        reason: '',
        address: asOneLine(event.addressName),
        city: asOneLine(event.city ?? ''),
        state: asOneLine(event.state ?? ''),
        zipcode: asOneLine(event.zipcode ?? ''),
        // The event's own country is stored with the registration as it is (a code, or a
        // name written before countries were codes): not checked again as the visitor's input.
        country: '',
        request_date: event.dateEvent,
        request_time: event.timeEvent,
        request_image: upload ? { size: upload.bytes.length } : undefined,
      });
      if (!parsed.success) throw visitorFormError(parsed.error);
      const document = checkFile(upload, ALLOWED.identityDocument, ID_FILE_MAX_BYTES);

      const outcome = await withStoredFileCleanup(app.storage, (storage) =>
        app.db.transaction((tx) =>
          registerForEvent(tx, storage, {
            eventId: event.id,
            timeZone: event.site.timezone,
            fields: parsed.data,
            document,
            mailsPerRecipientPerDay: limits.registrationMailsPerRecipientPerDay,
          }),
        ),
      );
      switch (outcome.kind) {
        case 'registered':
          request.log.info(
            { eventId: event.id, visitorId: outcome.visitor.id, companyId: event.companyId },
            'event registration',
          );
          return { visitor: outcome.visitor, requestId: outcome.requestId, fields: parsed.data };
        case 'gone':
          throw notFound();
        case 'duplicate':
          throw conflict((m) => m.event.alreadyRegistered);
        case 'recipientLimit':
          throw new HttpError(429, (m) => m.event.recipientLimit);
        default:
          throw refusal(outcome.kind);
      }
    },
  };
  desks.set(app.server, desk);
  return desk;
}

function refusal(state: 'closed' | 'over'): HttpError {
  return conflict(
    state === 'closed' ? (m) => m.event.registrationClosed : (m) => m.event.eventOver,
  );
}

/**
 * The event a visitor form names (`evenements_id`: the event's id, or its slug within
 * the form's company), of the form's company when it names one (its id or slug);
 * null when there is no such event there.
 */
export async function findEventOfForm(
  db: Db,
  eventRef: string,
  companyRef: string,
): Promise<EventRow | null> {
  let companyId: string | undefined;
  if (companyRef) {
    const company = await findCompany(db, companyRef);
    if (!company) return null;
    companyId = company.id;
  }
  if (UUID.test(eventRef)) {
    const event = await findEvent(db, eventRef);
    return event && (!companyId || event.companyId === companyId) ? event : null;
  }
  if (!companyId) return null;
  return findEventBySlug(db, companyId, eventRef);
}
