/**
 * The invited visitor's own page (issue 30), by the signed link of their mail: their visit
 * as they may see it (theirs alone: no identity document, no other visitor of the group),
 * the details the site asks before arrival (the identity number and document, the privacy
 * notice), and "Je suis arrivé(e)" on a day of the visit, which tells the host and the
 * site's front desk — by mail and on the live screens — and opens no door (it is no
 * check-in: the front desk still scans the code).
 */
import { and, eq, isNull } from 'drizzle-orm';
import {
  asLanguage,
  countryName,
  type DocumentToSign,
  type InvitationLinkView,
  type Language,
  type VisitorTypeField,
} from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import {
  companies,
  files,
  invitations,
  sites,
  visitRequests,
  visitorTypes,
  visitors,
} from '../db/schema';
import { documentsToSign, signForVisit, type Signed } from '../documents/signing';
import { presentToSign } from '../kiosks/service';
import { badRequest, notFound } from '../errors';
import type { CheckedFile } from '../files/uploads';
import { storeFile } from '../files/uploads';
import type { FileStorage } from '../files/storage';
import { enqueueInvitationMails, INVITATION_HERE_MAIL } from '../mail/outbox';
import { deciders, findHost } from '../requests/host-loop';
import { enqueueChat, hostWays } from '../chat/outbox';
import { VISITOR_DOCUMENT_OWNER } from '../visitors/service';
import { notifyInvitation } from './live';
import { readInvitationRequest, visitDays, type VisitDay } from './request-read';

// The page's routes read the days from here, with the rest of the visit.
export { visitDays, type VisitDay };

/** One invited visitor's visit, as their link reaches it. */
export interface LinkedVisit {
  requestId: string;
  companyId: string;
  visitorId: string;
  invitationId: string;
  siteId: string;
  hostUserId: string | null;
  /** The host's name: their account's, else the name written on the request. */
  hostName: string | null;
  cancelled: boolean;
  hereAt: Date | null;
  firstname: string;
  lastname: string;
  code: string;
  detailsCompleted: boolean;
  /** What the details step reads of the visitor (issue 31): what they already gave. */
  email: string;
  organisation: string;
  contact: string;
  idNumber: string;
  hasDocument: boolean;
  /** The visit's type, when it has one. */
  type: {
    id: string;
    nameFr: string;
    nameEn: string;
    color: string;
    requiredFields: VisitorTypeField[];
  } | null;
  invitation: {
    firstDate: string;
    time: string;
    endTime: string;
    rrule: string | null;
    reason: string | null;
    language: Language;
    sequence: number;
  };
  site: {
    name: string;
    address: string | null;
    city: string | null;
    zipcode: string | null;
    country: string | null;
    timezone: string;
  };
  company: { name: string; slug: string; logo: string | null };
}

/**
 * The visit of request `requestId` if it is an invitation's, its visitor not erased and its
 * company not archived; else null (the link then reads as invalid).
 */
export async function findLinkedVisit(db: Db, requestId: string): Promise<LinkedVisit | null> {
  const row = await readInvitationRequest(
    db,
    {
      request: {
        id: visitRequests.id,
        companyId: visitRequests.companyId,
        visitorId: visitRequests.visitorId,
        hereAt: visitRequests.hereAt,
        cancelledAt: visitRequests.cancelledAt,
      },
      visitor: {
        firstname: visitors.firstname,
        lastname: visitors.lastname,
        uidn: visitors.uidn,
        detailsCompletedAt: visitors.detailsCompletedAt,
        email: visitors.email,
        organisation: visitors.organisationName,
        contact: visitors.contact,
        idNumber: visitors.idNumber,
        requestImageId: visitors.requestImageId,
      },
      type: {
        id: visitorTypes.id,
        nameFr: visitorTypes.nameFr,
        nameEn: visitorTypes.nameEn,
        color: visitorTypes.color,
        requiredFields: visitorTypes.requiredFields,
      },
      invitation: {
        id: invitations.id,
        siteId: invitations.siteId,
        hostUserId: invitations.hostUserId,
        firstDate: invitations.firstDate,
        time: invitations.time,
        endTime: invitations.endTime,
        rrule: invitations.rrule,
        reason: invitations.reason,
        language: invitations.language,
        sequence: invitations.sequence,
        cancelledAt: invitations.cancelledAt,
      },
      site: {
        name: sites.name,
        address: sites.address,
        city: sites.city,
        zipcode: sites.zipcode,
        country: sites.country,
        timezone: sites.timezone,
      },
      company: { name: companies.name, slug: companies.slug },
      logo: files.storedName,
    },
    [eq(visitRequests.id, requestId), isNull(visitors.anonymisedAt), isNull(companies.archivedAt)],
  );
  if (!row) return null;
  const { request, visitor, invitation } = row;
  return {
    requestId: request.id,
    companyId: request.companyId,
    visitorId: request.visitorId,
    invitationId: invitation.id,
    siteId: invitation.siteId,
    hostUserId: invitation.hostUserId,
    hostName: row.hostName,
    cancelled: request.cancelledAt !== null || invitation.cancelledAt !== null,
    hereAt: request.hereAt,
    firstname: visitor.firstname,
    lastname: visitor.lastname,
    code: visitor.uidn,
    detailsCompleted: visitor.detailsCompletedAt !== null,
    email: visitor.email,
    organisation: visitor.organisation,
    contact: visitor.contact,
    idNumber: visitor.idNumber,
    hasDocument: visitor.requestImageId !== null,
    // jsonb column: written only from the visitor type schema's fields.
    type: row.type?.id
      ? { ...row.type, requiredFields: row.type.requiredFields as VisitorTypeField[] }
      : null,
    invitation: {
      firstDate: invitation.firstDate,
      time: invitation.time,
      endTime: invitation.endTime,
      rrule: invitation.rrule,
      reason: invitation.reason,
      language: asLanguage(invitation.language),
      sequence: invitation.sequence,
    },
    site: row.site,
    company: { ...row.company, logo: row.logo },
  };
}

/** The day of the visit holding `now` (not cancelled), if any. */
export const dayHolding = (days: VisitDay[], now: Date) =>
  days.find((d) => !d.cancelled && d.startsAt <= now && now < d.endsAt);

/** A site's address on one line, its country named in `language`; '' without any part. */
export function siteAddress(site: LinkedVisit['site'], language: string): string {
  return [
    site.address,
    [site.zipcode, site.city].filter((part) => part?.trim()).join(' '),
    countryName(site.country, language),
  ]
    .filter((part) => part?.trim())
    .join(', ');
}

/** An OpenStreetMap search of an address (no key, no tracker); null without an address. */
export function siteMapUrl(address: string): string | null {
  return address
    ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`
    : null;
}

/** The visit as its visitor's page shows it (GET /api/public/invitation). */
export function presentLinkedVisit(
  visit: LinkedVisit,
  days: VisitDay[],
  input: { now: Date; language: string; logoUrl: string | null; toSign: DocumentToSign[] },
): InvitationLinkView {
  const address = siteAddress(visit.site, input.language);
  const next = days.find((d) => !d.cancelled && d.endsAt > input.now);
  return {
    company: {
      name: visit.company.name,
      slug: visit.company.slug,
      logo: visit.company.logo,
      logo_url: input.logoUrl,
    },
    site: {
      name: visit.site.name,
      address,
      map_url: siteMapUrl(address),
      timezone: visit.site.timezone,
    },
    host: visit.hostName,
    firstname: visit.firstname,
    lastname: visit.lastname,
    code: visit.code,
    date: visit.invitation.firstDate,
    time: visit.invitation.time,
    end_time: visit.invitation.endTime,
    days: days.map((d) => ({ day: d.day, cancelled: d.cancelled })),
    next_day: visit.cancelled ? null : (next?.day ?? null),
    rrule: visit.invitation.rrule,
    reason: visit.invitation.reason,
    language: visit.invitation.language,
    cancelled: visit.cancelled,
    details_completed: visit.detailsCompleted,
    today_is_visit_day: !visit.cancelled && dayHolding(days, input.now) !== undefined,
    here_at: visit.hereAt?.toISOString() ?? null,
    privacy_notice_url: `/api/public/privacy-notice/${encodeURIComponent(visit.company.slug)}${
      input.language === 'en' ? '?lang=en' : ''
    }`,
    visitor_type: visit.type
      ? {
          id: visit.type.id,
          name_fr: visit.type.nameFr,
          name_en: visit.type.nameEn,
          color: visit.type.color,
          required_fields: visit.type.requiredFields,
        }
      : null,
    to_sign: input.toSign,
  };
}

/** The documents of the visit's type its visitor must still sign, in the invitation's language. */
export async function linkedVisitToSign(db: Db, visit: LinkedVisit): Promise<DocumentToSign[]> {
  const left = await documentsToSign(db, {
    companyId: visit.companyId,
    typeId: visit.type?.id ?? null,
    email: visit.email,
    visitorId: visit.visitorId,
  });
  return presentToSign(left, visit.invitation.language);
}

/** What the visit's type requires that the visitor has not given yet (the details step asks these). */
export function fieldsStillAsked(visit: LinkedVisit): VisitorTypeField[] {
  const required = visit.type?.requiredFields ?? (['id_number', 'id_document'] as const);
  const onFile: Record<VisitorTypeField, boolean> = {
    organisation: !!visit.organisation,
    phone: !!visit.contact,
    id_number: !!visit.idNumber,
    id_document: visit.hasDocument,
    // A link cannot take the kiosk's photo: the kiosk or the desk does.
    photo: true,
  };
  return required.filter((field) => !onFile[field]);
}

/** News of this one visitor's visit on the live feed: its host and its site's screens hear it. */
function notifyVisit(tx: Db, visit: LinkedVisit, op: 'completed' | 'here'): Promise<void> {
  return notifyInvitation(tx, {
    company_id: visit.companyId,
    site_id: visit.siteId,
    invitation_id: visit.invitationId,
    request_id: visit.requestId,
    host_user_id: visit.hostUserId,
    op,
  });
}

/**
 * The visitor completes their details: the identity number and document (stored as the
 * visitor form stores it), the moment they did. A second completion replaces the document:
 * the old one's row goes in this transaction, and its stored name is returned so the caller
 * removes its bytes once the transaction is committed. A cancelled visit has nothing to
 * complete (400). Audited with no actor (the visitor is no staff member), told live.
 */
export async function completeDetails(
  tx: Db,
  storage: FileStorage,
  input: {
    visit: LinkedVisit;
    idNumber: string;
    /** The identity document; null when the type does not ask one now (issue 31). */
    document: CheckedFile | null;
    /** The organisation and phone given at this step ('' when not). */
    organisation?: string;
    contact?: string;
    signed?: readonly Signed[];
    now?: Date;
  },
): Promise<{ replaced: string | null }> {
  const { visit } = input;
  const now = input.now ?? new Date();
  if (visit.cancelled) throw badRequest((m) => m.invitation.detailsClosed);
  const [locked] = await tx
    .select({ requestImageId: visitors.requestImageId })
    .from(visitors)
    .where(eq(visitors.id, visit.visitorId))
    .for('update')
    .limit(1);
  if (!locked) throw notFound((m) => m.invitation.linkInvalid);
  let contact: string | null = null;
  if (input.contact) {
    contact = toE164(input.contact);
    if (!contact) {
      throw badRequest((m) => m.validation.phoneInvalid, {
        contact: (m) => m.validation.phoneInvalid,
      });
    }
  }
  // The documents of the visit's type, signed at this step (issue 31).
  await signForVisit(tx, {
    companyId: visit.companyId,
    siteId: visit.siteId,
    visitorId: visit.visitorId,
    typeId: visit.type?.id ?? null,
    email: visit.email,
    language: visit.invitation.language,
    signed: input.signed ?? [],
    storage,
    now,
  });
  const document = input.document
    ? await storeFile(tx, storage, input.document, {
        companyId: visit.companyId,
        ownerType: VISITOR_DOCUMENT_OWNER,
        ownerId: visit.visitorId,
      })
    : null;
  await tx
    .update(visitors)
    .set({
      ...(input.idNumber ? { idNumber: input.idNumber } : {}),
      ...(input.organisation ? { organisationName: input.organisation } : {}),
      ...(contact ? { contact } : {}),
      ...(document ? { requestImageId: document.id } : {}),
      detailsCompletedAt: now,
    })
    .where(eq(visitors.id, visit.visitorId));
  let replaced: string | null = null;
  if (document && locked.requestImageId) {
    const [old] = await tx
      .delete(files)
      .where(
        and(
          eq(files.id, locked.requestImageId),
          eq(files.companyId, visit.companyId),
          eq(files.ownerType, VISITOR_DOCUMENT_OWNER),
        ),
      )
      .returning({ storedName: files.storedName });
    replaced = old?.storedName ?? null;
  }
  await audit(tx, {
    companyId: visit.companyId,
    actorUserId: null,
    action: 'invitation.details_completed',
    subjectType: 'visitor',
    subjectId: visit.visitorId,
    detail: {
      invitationId: visit.invitationId,
      requestId: visit.requestId,
      replaced: replaced ? 1 : 0,
    },
  });
  await notifyVisit(tx, visit, 'completed');
  return { replaced };
}

/** What "Je suis arrivé(e)" did: whom it told (the host by name, else the front desk). */
export interface Arrival {
  host: string | null;
  /** Mails and chat messages queued by this press (0 when it was pressed already today). */
  queued: number;
}

/**
 * "Je suis arrivé(e)": on a day of the invitation holding `now` in the site's zone (not
 * cancelled), for a visit not cancelled, marks the request (`here_at`) and queues the
 * "here" mail to the host and to the site's front desk (once per request, day and person),
 * told live. Pressed again the same day, it answers the same and does nothing more. It is
 * no check-in: no door opens, the front desk still scans the code.
 */
export async function announceArrival(
  tx: Db,
  input: { visit: LinkedVisit; now?: Date },
): Promise<Arrival> {
  const { visit } = input;
  const now = input.now ?? new Date();
  if (visit.cancelled) throw badRequest((m) => m.invitation.visitCancelled);
  const today = dayHolding(await visitDays(tx, visit.invitationId), now);
  if (!today) throw badRequest((m) => m.invitation.notToday);
  const [locked] = await tx
    .select({ hereAt: visitRequests.hereAt, cancelledAt: visitRequests.cancelledAt })
    .from(visitRequests)
    .where(eq(visitRequests.id, visit.requestId))
    .for('update')
    .limit(1);
  if (!locked) throw notFound((m) => m.invitation.linkInvalid);
  if (locked.cancelledAt) throw badRequest((m) => m.invitation.visitCancelled);
  const host = visit.hostUserId ? await findHost(tx, visit.companyId, visit.hostUserId) : null;
  const answer = { host: host?.name || null };
  if (locked.hereAt && locked.hereAt >= today.startsAt) return { ...answer, queued: 0 };

  await tx.update(visitRequests).set({ hereAt: now }).where(eq(visitRequests.id, visit.requestId));
  const desk = (await deciders(tx, visit.companyId, null, visit.siteId)).filter(
    (person) => person.id !== host?.id,
  );
  const told = [...(host ? [{ id: host.id, email: host.email }] : []), ...desk];
  // Each by mail, by chat or both, as they chose (issue 34, chat/outbox.ts).
  const way = await hostWays(
    tx,
    visit.companyId,
    'here',
    told.map((person) => person.id),
  );
  // What the mail and the chat message are about: this visitor's arrival, on this day.
  const about = {
    visitorId: visit.visitorId,
    requestId: visit.requestId,
    invitationId: visit.invitationId,
    sequence: visit.invitation.sequence,
    day: today.day,
  };
  const byMail = told.filter((person) => way(person.id).mail);
  const mailed = await enqueueInvitationMails(
    tx,
    INVITATION_HERE_MAIL,
    byMail.map((person) => ({
      companyId: visit.companyId,
      toAddress: person.email,
      dedupeKey: `invitation-here:${visit.requestId}:${today.day}:${person.id}`,
      payload: { ...about, userId: person.id },
    })),
  );
  const byChat = told.filter((person) => way(person.id).chat);
  const chatted = await enqueueChat(
    tx,
    byChat.map((person) => ({
      companyId: visit.companyId,
      userId: person.id,
      kind: 'here' as const,
      payload: { ...about, cause: `here:${visit.requestId}:${today.day}` },
      dedupeKey: `chat_here:${visit.requestId}:${today.day}:${person.id}`,
    })),
  );
  const queued = mailed + chatted;
  await notifyVisit(tx, visit, 'here');
  return { ...answer, queued };
}
