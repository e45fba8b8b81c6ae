/**
 * What a kiosk does with visits (issue 29): find a visitor expected today at its site by
 * the first letters of their last name (first name, initial, host and time only — never
 * an e-mail, a phone, a document or a code), turn a visit it found into the visitor's
 * code for the code check, file a walk-in's request with the host's mail, and say how the
 * host answered. Each reads the kiosk's own company and site only.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { KioskExpected, KioskWalkInInput, Language } from '@sesame/shared';
import { KIOSK_LIMITS, kioskWalkInSchema } from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { newUidn } from '../db/ids';
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
import type { KioskDevice } from './device';

/** The `files.owner_type` of a walk-in's photo taken by a kiosk. */
export const VISITOR_PHOTO_OWNER = 'visitor_photo';

function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows;
}

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
  const result = await db.execute(sql`
    select r.id as request_id, v.firstname, upper(left(v.lastname, 1)) as initial,
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
     limit ${KIOSK_LIMITS.searchMaxMatches}`);
  return rowsOf<{
    request_id: string;
    firstname: string;
    initial: string;
    host: string | null;
    time: string | null;
  }>(result).map((row) => ({
    request_id: row.request_id,
    firstname: row.firstname,
    initial: row.initial ? `${row.initial}.` : '',
    host: row.host,
    time: row.time,
  }));
}

/**
 * The code of the visitor of a request the kiosk found: only a request of a visitor at
 * the kiosk's own site (anything else, another site's or company's: 404).
 */
export async function codeOfRequest(
  db: Db,
  kiosk: Pick<KioskDevice, 'companyId' | 'siteId'>,
  requestId: string,
): Promise<string> {
  const [row] = await db
    .select({ uidn: visitors.uidn })
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
  return row.uidn;
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

/**
 * A walk-in at the kiosk: the visitor at the kiosk's site, their day today in the site's
 * zone and the time now (HH:MM there), no identity document; the photo when taken; a
 * pending request filed by the kiosk, to the host chosen (an active staff member of the
 * company, else 400) or, without one, the site's front desk; their request mail queued in
 * the same transaction (the visitor's acknowledgement only when an e-mail was given).
 * The photo's bytes are written first: run it inside `withStoredFileCleanup`.
 */
export async function fileWalkIn(
  tx: Db,
  storage: FileStorage,
  kiosk: Pick<KioskDevice, 'id' | 'companyId' | 'siteId'>,
  input: WalkInInput,
  now = new Date(),
): Promise<{ requestId: string; told: string | null }> {
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
  // A photo is kept only where the kiosk asks for one (its settings may have changed since
  // the tablet loaded them): otherwise nothing of the face is stored.
  const [settings] = await tx
    .select({ askPhoto: kiosks.askPhoto })
    .from(kiosks)
    .where(eq(kiosks.id, kiosk.id))
    .limit(1);
  const photo =
    input.photo && settings?.askPhoto
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
  const [visitor] = await tx
    .insert(visitors)
    .values({
      companyId: kiosk.companyId,
      siteId: site.id,
      uidn: newUidn(),
      firstname: input.firstname,
      lastname: input.lastname,
      email: input.email,
      contact,
      idNumber: '',
      organisationName: input.organisation_name,
      requestDate,
      requestTime: `${two(clock.hour)}:${two(clock.minute)}`,
      dayStartsAt: day?.dayStartsAt ?? null,
      dayEndsAt: day?.dayEndsAt ?? null,
      language: input.language as Language,
      photoFileId: photo?.id ?? null,
    })
    .returning();
  if (photo) await tx.update(files).set({ ownerId: visitor!.id }).where(eq(files.id, photo.id));
  const request = await createVisitRequest(tx, {
    companyId: kiosk.companyId,
    visitorId: visitor!.id,
    host: host?.name ?? null,
    hostUserId: host?.id ?? null,
    reason: input.reason || null,
  });
  await tx.update(visitRequests).set({ kioskId: kiosk.id }).where(eq(visitRequests.id, request.id));
  await queueRequestFiledMails(tx, {
    id: request.id,
    companyId: kiosk.companyId,
    visitorId: visitor!.id,
    hostUserId: host?.id ?? null,
  });
  return { requestId: request.id, told: host?.name ?? null };
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
