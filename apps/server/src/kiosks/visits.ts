/**
 * What a kiosk does with visits (issue 29): find a visitor expected today at its site by
 * the first letters of their last name (first name, initial, host and time only — never
 * an e-mail, a phone, a document or a code), turn a visit it found into the visitor's
 * code for the code check, file a walk-in's request with the host's mail, and say how the
 * host answered. Each reads the kiosk's own company and site only.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { KioskExpected, KioskCheckAnswer, KioskWalkInInput, Language } from '@sesame/shared';
import { KIOSK_LIMITS, kioskWalkInSchema, sayIn } from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import { z } from 'zod';
import type { Db } from '../db/client';
import { newUidn } from '../db/ids';
import { rowsOf } from '../db/rows';
import { files, kiosks, sites, visitRequests, visitors } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { dayBounds } from '../events/time';
import { currentInvitationDay, isInvited } from '../invitations/days';
import type { FileStorage } from '../files/storage';
import { detectMediaType } from '../files/detect';
import { storeFile } from '../files/uploads';
import { findHost, queueFrontDeskMails, queueRequestFiledMails } from '../requests/host-loop';
import { createVisitRequest } from '../visitors/service';
import { wallClock } from '../time-zones';
import { checkAtKiosk, storedUidn } from '../checkins/toggle';
import type { Database } from '../db/client';
import { documentsToSign, signForVisit } from '../documents/signing';
import { requireTypeFields, visitorTypeOf } from '../visitor-types/steps';
import { screenVisit } from '../watchlist/match';
import type { KioskDevice } from './device';
import { presentToSign } from './service';

/** The `files.owner_type` of a walk-in's photo taken by a kiosk. */
export const VISITOR_PHOTO_OWNER = 'visitor_photo';

/** `q` as a LIKE pattern's literal text: a typed '%' or '_' is no wildcard. */
const literal = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Today's expected visits at the kiosk's site whose last name has a word starting with
 * `q` (accents and case ignored: 'kone' finds 'Koné', 'ba' 'Diallo Ba'): meetings whose
 * day, in the site's zone, holds `now`, their request not declined; an invited visitor
 * (issue 30) on a day of their invitation that is not cancelled only. Event guests are left
 * out: their QR code is their ticket, and a conference's hundreds of names are not for a
 * lobby's screen. At most KIOSK_LIMITS.searchMaxMatches.
 */
export async function searchExpected(
  db: Db,
  kiosk: Pick<KioskDevice, 'companyId' | 'siteId'>,
  q: string,
  now = new Date(),
): Promise<KioskExpected[]> {
  const words = sql`' ' || regexp_replace(sesame_fold(v.lastname), '[^[:alnum:]]+', ' ', 'g')`;
  // Typed as the last name is cut into words: "o'br" finds O'Brien, "n'guessan" N'Guessan.
  const pattern = `% ${literal(q.replace(/[^\p{L}\p{N}]+/gu, ' ').trim())}%`;
  const at = sql`${now.toISOString()}::timestamptz`;
  const found = await rowsOf(
    db,
    z.object({
      request_id: z.string(),
      visitor_id: z.string(),
      visitor_type_id: z.string().nullable(),
      email: z.string(),
      language: z.string(),
      firstname: z.string(),
      initial: z.string(),
      host: z.string().nullable(),
      time: z.string().nullable(),
    }),
    sql`
    select r.id as request_id, v.id as visitor_id, v.visitor_type_id, v.email, v.language,
           v.firstname, upper(left(v.lastname, 1)) as initial,
           coalesce(nullif(trim(u.firstname || ' ' || u.name), ''), r.host) as host,
           v.request_time as time
      from visitors v
      join visit_requests r on r.visitor_id = v.id
      left join users u on u.id = r.host_user_id
      ${currentInvitationDay(sql`v`, at)}
     where v.company_id = ${kiosk.companyId}::uuid and v.site_id = ${kiosk.siteId}::uuid
       and v.event_id is null and v.anonymised_at is null
       and v.day_starts_at <= ${at}
       and v.day_ends_at > ${at}
       and case when ${isInvited(sql`v`)} then iday.starts_at <= ${at} else true end
       and r.confirmed is not false
       and ${words} like sesame_fold(${pattern})
     order by v.request_time nulls last, v.firstname, r.id
     limit ${KIOSK_LIMITS.searchMaxMatches}`,
  );
  return Promise.all(
    found.map(async (row) => ({
      request_id: row.request_id,
      firstname: row.firstname,
      initial: row.initial ? `${row.initial}.` : '',
      host: row.host,
      time: row.time,
      to_sign: presentToSign(
        await documentsToSign(db, {
          companyId: kiosk.companyId,
          typeId: row.visitor_type_id,
          email: row.email,
          visitorId: row.visitor_id,
          now,
        }),
        row.language,
      ),
    })),
  );
}

/** What the kiosk's check of an expected visit reads of it (issue 31: its type's documents). */
export interface KioskVisit {
  uidn: string;
  visitorId: string;
  typeId: string | null;
  email: string;
  language: string;
  firstname: string;
}

const visitColumns = {
  uidn: visitors.uidn,
  visitorId: visitors.id,
  typeId: visitors.visitorTypeId,
  email: visitors.email,
  language: visitors.language,
  firstname: visitors.firstname,
};

/**
 * The visitor of a request the kiosk found: only a request of a visitor at the kiosk's own
 * site (anything else, another site's or company's: 404).
 */
export async function visitOfRequest(
  db: Db,
  kiosk: Pick<KioskDevice, 'companyId' | 'siteId'>,
  requestId: string,
): Promise<KioskVisit> {
  const [row] = await db
    .select(visitColumns)
    .from(visitRequests)
    .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
    .where(
      and(
        eq(visitRequests.id, requestId),
        eq(visitors.companyId, kiosk.companyId),
        eq(visitors.siteId, kiosk.siteId),
      ),
    )
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** The code of the visitor of a request the kiosk found (404 as `visitOfRequest`). */
export async function codeOfRequest(
  db: Db,
  kiosk: Pick<KioskDevice, 'companyId' | 'siteId'>,
  requestId: string,
): Promise<string> {
  return (await visitOfRequest(db, kiosk, requestId)).uidn;
}

/**
 * The visitor of a code read at the kiosk, at its own site; null for any other code (the
 * code check then answers as it always did: 404 or not here).
 */
export async function visitOfCode(
  db: Db,
  kiosk: Pick<KioskDevice, 'companyId' | 'siteId'>,
  code: string,
): Promise<KioskVisit | null> {
  const [row] = await db
    .select(visitColumns)
    .from(visitors)
    .where(
      and(
        eq(visitors.uidn, storedUidn(code)),
        eq(visitors.companyId, kiosk.companyId),
        eq(visitors.siteId, kiosk.siteId),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** The documents a visit found at the kiosk must still sign, in the visitor's language. */
export async function visitToSign(db: Db, companyId: string, visit: KioskVisit | null) {
  if (!visit) return [];
  const left = await documentsToSign(db, {
    companyId,
    typeId: visit.typeId,
    email: visit.email,
    visitorId: visit.visitorId,
  });
  return presentToSign(left, visit.language);
}

/**
 * What a walk-in of type `typeId` (the kiosk's site's, else 400) who typed `email` must
 * still sign: a visitor who signed the current version within its validity is not asked
 * again; without an e-mail, every document.
 */
export async function walkInToSign(
  db: Db,
  kiosk: Pick<KioskDevice, 'companyId' | 'siteId'>,
  typeId: string,
  email: string,
  language: string,
) {
  const type = await visitorTypeOf(db, kiosk.siteId, typeId);
  const left = await documentsToSign(db, {
    companyId: kiosk.companyId,
    typeId: type?.id ?? null,
    email,
  });
  return presentToSign(left, language);
}

export interface KioskCheckRequest {
  kiosk: Pick<KioskDevice, 'id' | 'companyId' | 'siteId'>;
  direction: 'in' | 'out';
  requestId?: string;
  code?: string;
  signatures: WalkInInput['signatures'];
  repeatWindowMs: number;
  lang: Language;
  /** Where the signatures' PDFs go (the route's `withStoredFileCleanup`). */
  storage: FileStorage;
}

/**
 * The kiosk's check of a visit found by name or by its code, in the caller's transaction.
 * On the way in (issue 31) the watchlist screens the visit first — held or denied: nothing
 * is done and the tablet hears 'held' with the welcome words, never why — then the
 * documents its type still asks must come signed (400 `visitorType.toSign`), then the
 * code check of the desk's rules.
 */
export async function checkVisitAtKiosk(
  tx: Database,
  check: KioskCheckRequest,
): Promise<KioskCheckAnswer> {
  const { kiosk } = check;
  const visit = check.requestId
    ? await visitOfRequest(tx, kiosk, check.requestId)
    : await visitOfCode(tx, kiosk, check.code ?? '');
  if (visit && check.direction === 'in') {
    const requestId = check.requestId ?? (await requestOfVisitor(tx, visit.visitorId));
    const screening = await screenVisit(tx, {
      visitorId: visit.visitorId,
      requestId,
      source: 'kiosk',
    });
    if (screening !== 'clear') {
      return {
        status: 'held',
        message: sayIn(check.lang, (m) => m.watchlist.kioskHeld),
        request_id: requestId ?? '',
        firstname: visit.firstname,
      };
    }
    await signForVisit(tx, {
      companyId: kiosk.companyId,
      siteId: kiosk.siteId,
      visitorId: visit.visitorId,
      typeId: visit.typeId,
      email: visit.email,
      language: visit.language === 'en' ? 'en' : 'fr',
      signed: check.signatures,
      storage: check.storage,
    });
  }
  const code = visit?.uidn ?? check.code ?? '';
  const { visitorId, ...result } = await checkAtKiosk(tx, code, {
    kioskId: kiosk.id,
    siteId: kiosk.siteId,
    direction: check.direction,
    repeatWindowMs: check.repeatWindowMs,
    lang: check.lang,
  });
  const requestId = check.requestId ?? (await requestOfVisitor(tx, visitorId)) ?? '';
  return { ...result, request_id: requestId };
}

/** The latest request of a visitor (the one a code check at the kiosk answers about). */
export async function requestOfVisitor(db: Db, visitorId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: visitRequests.id })
    .from(visitRequests)
    .where(eq(visitRequests.visitorId, visitorId))
    .orderBy(sql`${visitRequests.createdAt} desc`)
    .limit(1);
  return row?.id ?? null;
}

/** A JPEG data URL's bytes, checked (a JPEG, at most the kiosk's photo limit); else 400. */
export function photoBytes(dataUrl: string): Buffer {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (
    bytes.length === 0 ||
    bytes.length > KIOSK_LIMITS.photoMaxBytes ||
    detectMediaType(bytes) !== 'image/jpeg'
  ) {
    throw badRequest((m) => m.kiosk.photoInvalid, { photo: (m) => m.kiosk.photoInvalid });
  }
  return bytes;
}

const two = (n: number) => String(n).padStart(2, '0');

export type WalkInInput = z.output<typeof kioskWalkInSchema>;

/** What a walk-in came to (issue 31): waiting for the host, let in at once, or held. */
export interface WalkInFiled {
  requestId: string;
  told: string | null;
  status: 'waiting' | 'let_in' | 'held';
}

/**
 * A walk-in at the kiosk: the visitor at the kiosk's site, their day today in the site's
 * zone and the time now (HH:MM there), no identity document; the photo when taken; a
 * pending request filed by the kiosk, to the host chosen (an active staff member of the
 * company, else 400) or, without one, the site's front desk. Issue 31: the visitor type
 * chosen (else the site's first) says which fields are required (the photo only where the
 * kiosk takes one; a kiosk takes no identity document) and the documents to sign; then the
 * watchlist screens the visit before anyone is told: held, nothing more happens (no mail,
 * no check-in). A type without the host's approval is let in at once: the request
 * confirmed by no one and the visitor checked in by the kiosk; else the request mails are
 * queued as before (the visitor's acknowledgement only when an e-mail was given).
 * The photo's bytes are written first: run it inside `withStoredFileCleanup`.
 */
export async function fileWalkIn(
  tx: Db,
  storage: FileStorage,
  kiosk: Pick<KioskDevice, 'id' | 'companyId' | 'siteId'>,
  input: WalkInInput,
  options: { now?: Date; repeatWindowMs?: number } = {},
): Promise<WalkInFiled> {
  const now = options.now ?? new Date();
  let contact = '';
  if (input.contact) {
    const read = toE164(input.contact);
    if (!read) {
      throw badRequest((m) => m.validation.phoneInvalid, {
        contact: (m) => m.validation.phoneInvalid,
      });
    }
    contact = read;
  }
  // A photo is kept only where the kiosk asks for one (its settings may have changed since
  // the tablet loaded them): otherwise nothing of the face is stored.
  const [settings] = await tx
    .select({ askPhoto: kiosks.askPhoto })
    .from(kiosks)
    .where(eq(kiosks.id, kiosk.id))
    .limit(1);
  const askPhoto = settings?.askPhoto ?? false;
  const type = await visitorTypeOf(tx, kiosk.siteId, input.visitor_type_id);
  requireTypeFields(type, {
    organisation: !!input.organisation_name,
    phone: !!contact,
    id_number: !!input.id_number,
    // A kiosk cannot take an identity document: the type's is asked elsewhere.
    id_document: true,
    photo: !askPhoto || !!input.photo,
  });
  const host = input.host_user_id ? await findHost(tx, kiosk.companyId, input.host_user_id) : null;
  if (input.host_user_id && !host) {
    throw badRequest((m) => m.request.hostUnknown, {
      host_user_id: (m) => m.request.hostUnknown,
    });
  }
  const [site] = await tx.select().from(sites).where(eq(sites.id, kiosk.siteId)).limit(1);
  if (!site) throw notFound();
  const clock = wallClock(now, site.timezone);
  const requestDate = `${two(clock.day)}/${two(clock.month)}/${clock.year}`;
  const day = dayBounds(requestDate, site.timezone);
  const photo =
    input.photo && askPhoto
      ? await storeFile(
          tx,
          storage,
          {
            field: 'photo',
            filename: 'photo.jpg',
            bytes: photoBytes(input.photo),
            mediaType: 'image/jpeg',
          },
          { companyId: kiosk.companyId, ownerType: VISITOR_PHOTO_OWNER },
        )
      : null;
  const [inserted] = await tx
    .insert(visitors)
    .values({
      companyId: kiosk.companyId,
      siteId: site.id,
      uidn: newUidn(),
      firstname: input.firstname,
      lastname: input.lastname,
      email: input.email,
      contact,
      idNumber: input.id_number,
      organisationName: input.organisation_name,
      visitorTypeId: type?.id ?? null,
      requestDate,
      requestTime: `${two(clock.hour)}:${two(clock.minute)}`,
      dayStartsAt: day?.dayStartsAt ?? null,
      dayEndsAt: day?.dayEndsAt ?? null,
      language: input.language,
      photoFileId: photo?.id ?? null,
    })
    .returning();
  const visitor = inserted!;
  if (photo) await tx.update(files).set({ ownerId: visitor.id }).where(eq(files.id, photo.id));
  await signForVisit(tx, {
    companyId: kiosk.companyId,
    siteId: site.id,
    visitorId: visitor.id,
    typeId: type?.id ?? null,
    email: input.email,
    language: input.language,
    signed: input.signatures,
    storage,
    now,
  });
  const request = await createVisitRequest(tx, {
    companyId: kiosk.companyId,
    visitorId: visitor.id,
    host: host?.name ?? null,
    hostUserId: host?.id ?? null,
    reason: input.reason || null,
  });
  await tx.update(visitRequests).set({ kioskId: kiosk.id }).where(eq(visitRequests.id, request.id));
  // The watchlist, before anyone is told or anything opens.
  const screening = await screenVisit(tx, {
    visitorId: visitor.id,
    requestId: request.id,
    source: 'kiosk',
    now,
  });
  if (screening !== 'clear') return { requestId: request.id, told: null, status: 'held' };
  if (type && !type.hostApproval) {
    // Let in at once: confirmed by no one, checked in by this kiosk.
    await tx
      .update(visitRequests)
      .set({ status: 1, confirmed: true, decidedAt: now, decidedBy: null })
      .where(eq(visitRequests.id, request.id));
    // The check is typed for the database (rawPrepared's); a transaction runs its queries alike.
    await checkAtKiosk(tx as unknown as Database, visitor.uidn, {
      kioskId: kiosk.id,
      siteId: kiosk.siteId,
      direction: 'in',
      repeatWindowMs: options.repeatWindowMs ?? 0,
      now,
      lang: input.language,
    });
    return { requestId: request.id, told: host?.name ?? null, status: 'let_in' };
  }
  await queueRequestFiledMails(tx, {
    id: request.id,
    companyId: kiosk.companyId,
    visitorId: visitor.id,
    hostUserId: host?.id ?? null,
  });
  return { requestId: request.id, told: host?.name ?? null, status: 'waiting' };
}

/** How the host answered a walk-in this kiosk filed (another kiosk's request: 404). */
export async function walkInStatus(
  db: Db,
  kioskId: string,
  requestId: string,
): Promise<'waiting' | 'accepted' | 'declined'> {
  const [row] = await db
    .select({ confirmed: visitRequests.confirmed })
    .from(visitRequests)
    .where(and(eq(visitRequests.id, requestId), eq(visitRequests.kioskId, kioskId)))
    .limit(1);
  if (!row) throw notFound();
  if (row.confirmed === true) return 'accepted';
  if (row.confirmed === false) return 'declined';
  return 'waiting';
}

/**
 * The host did not answer within the kiosk's wait: the site's front desk gets the walk-in's
 * request mail (Valider / Annuler) too, once, and the request stays in the live request
 * list. Locked, so a host's decision at the same moment is seen (nothing is sent then).
 */
export async function tellFrontDesk(db: Db, kioskId: string, requestId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select({
        id: visitRequests.id,
        companyId: visitRequests.companyId,
        visitorId: visitRequests.visitorId,
        hostUserId: visitRequests.hostUserId,
        confirmed: visitRequests.confirmed,
      })
      .from(visitRequests)
      .where(and(eq(visitRequests.id, requestId), eq(visitRequests.kioskId, kioskId)))
      .for('update')
      .limit(1);
    if (!request) throw notFound();
    return queueFrontDeskMails(tx, request);
  });
}

export type { KioskWalkInInput };
