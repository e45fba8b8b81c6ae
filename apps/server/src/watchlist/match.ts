/**
 * The watchlist's check (issue 31), one rule for every way in: a request filed, an invitation
 * created, a walk-in at the kiosk, a code scanned. A visit matches an entry still in force
 * of its company by an exact e-mail (lower-cased), phone (E.164) or ID number (upper-cased),
 * or by a full name whose pg_trgm similarity to the entry's (both folded: accents and case
 * aside) reaches the company's threshold. Each kind is its own index lookup (UNION ALL), so
 * 10,000 entries cost a scan a few index probes, not a pass over the list.
 *
 * A match holds the visit (`watchlist_holds`, one pending per visit): the reviewers hear it
 * live (the table's trigger, migration 0029), the site's security contacts get a mail, and
 * the audit log has it. Nothing of it is ever told to the visitor; a close name match is a
 * review, never a refusal.
 */
import { and, eq, sql } from 'drizzle-orm';
import { HOLD_MATCHES, HOLD_STATUSES, type HoldMatch, type HoldSource } from '@sesame/shared';
import { z } from 'zod';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { mailOutbox, sites, visitors, watchlistHolds } from '../db/schema';

export interface WatchedPerson {
  firstname: string;
  lastname: string;
  email: string | null;
  /** E.164, as stored. */
  phone: string | null;
  idNumber: string | null;
}

export interface WatchlistMatch {
  entryId: string;
  matchedOn: HoldMatch;
  /** The name's similarity (0–1) for a name match; null for an exact one. */
  similarity: number | null;
}

/** `sesame_fold(firstname || ' ' || lastname)`: what the name index holds (schema.ts). */
const FOLDED_ENTRY_NAME = sql.raw(`sesame_fold(e.firstname || ' ' || e.lastname)`);

/**
 * The best entry in force at `now` that `person` matches in `companyId`: an exact
 * identifier first (e-mail, then phone, then ID number), else the closest name at or above
 * the company's threshold; null when none does.
 */
export async function matchWatchlist(
  db: Db,
  companyId: string,
  person: WatchedPerson,
  now = new Date(),
): Promise<WatchlistMatch | null> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const inForce = sql`e.company_id = ${companyId}::uuid and (e.until is null or e.until > ${at})`;
  const email = person.email?.trim().toLowerCase() ?? '';
  const phone = person.phone?.trim() ?? '';
  const idNumber = person.idNumber?.trim().toUpperCase() ?? '';
  const name = `${person.firstname} ${person.lastname}`.trim();
  const lookups = [];
  if (email) {
    lookups.push(sql`select e.id, 'email' as matched_on, null::real as similarity, 0 as rank
      from watchlist_entries e where ${inForce} and e.email = ${email}`);
  }
  if (phone) {
    lookups.push(sql`select e.id, 'phone', null::real, 1
      from watchlist_entries e where ${inForce} and e.phone = ${phone}`);
  }
  if (idNumber) {
    lookups.push(sql`select e.id, 'id_number', null::real, 2
      from watchlist_entries e where ${inForce} and upper(e.id_number) = ${idNumber}`);
  }
  if (person.firstname.trim() && person.lastname.trim()) {
    // `%` finds candidates by the trigram index (pg_trgm's own 0.3 floor, which the
    // threshold's range starts at); the company's threshold then decides.
    lookups.push(sql`select e.id, 'name', similarity(${FOLDED_ENTRY_NAME}, sesame_fold(${name}))::real, 3
      from watchlist_entries e
     where ${inForce} and e.lastname <> ''
       and ${FOLDED_ENTRY_NAME} % sesame_fold(${name})
       and similarity(${FOLDED_ENTRY_NAME}, sesame_fold(${name})) >=
           (select c.watchlist_name_threshold from companies c where c.id = ${companyId}::uuid)`);
  }
  if (lookups.length === 0) return null;
  const [best] = await rowsOf(
    db,
    z.object({
      id: z.string(),
      matched_on: z.enum(HOLD_MATCHES),
      similarity: z.number().nullable(),
    }),
    sql`select * from (${sql.join(lookups, sql` union all `)}) m(id, matched_on, similarity, rank)
        order by rank, similarity desc nulls last limit 1`,
  );
  if (!best) return null;
  return {
    entryId: best.id,
    matchedOn: best.matched_on,
    similarity: best.similarity,
  };
}

/** The mail kind a site's security contacts get for a held visit (mail/watchlist-templates.ts). */
export const WATCHLIST_ALERT_MAIL = 'watchlist_alert';

export interface HoldInput {
  companyId: string;
  siteId: string;
  visitorId: string;
  requestId: string | null;
  source: HoldSource;
  match: WatchlistMatch;
}

/**
 * Holds a visit for review, in the caller's transaction: the hold (none if one is already
 * pending for this visit: answers that one), its audit entry ('watchlist.held', ids and what
 * matched only), and a mail to each of the site's security contacts. The live alert is the
 * table's trigger.
 */
export async function holdVisit(tx: Db, hold: HoldInput): Promise<string> {
  const [written] = await tx
    .insert(watchlistHolds)
    .values({
      companyId: hold.companyId,
      siteId: hold.siteId,
      entryId: hold.match.entryId,
      visitorId: hold.visitorId,
      requestId: hold.requestId,
      source: hold.source,
      matchedOn: hold.match.matchedOn,
      similarity: hold.match.similarity,
    })
    .onConflictDoNothing()
    .returning({ id: watchlistHolds.id });
  if (!written) {
    const [pending] = await tx
      .select({ id: watchlistHolds.id })
      .from(watchlistHolds)
      .where(
        and(eq(watchlistHolds.visitorId, hold.visitorId), eq(watchlistHolds.status, 'pending')),
      )
      .limit(1);
    if (!pending) throw new Error('expected a pending hold for the visitor');
    return pending.id;
  }
  await audit(tx, {
    companyId: hold.companyId,
    actorUserId: null,
    action: 'watchlist.held',
    subjectType: 'watchlist_hold',
    subjectId: written.id,
    detail: {
      visitor_id: hold.visitorId,
      request_id: hold.requestId,
      entry_id: hold.match.entryId,
      source: hold.source,
      matched_on: hold.match.matchedOn,
    },
  });
  const [site] = await tx
    .select({ emails: sites.securityEmails })
    .from(sites)
    .where(eq(sites.id, hold.siteId))
    .limit(1);
  const contacts = [...new Set(site?.emails ?? [])];
  if (contacts.length > 0) {
    await tx.insert(mailOutbox).values(
      contacts.map((toAddress) => ({
        companyId: hold.companyId,
        kind: WATCHLIST_ALERT_MAIL,
        toAddress,
        payload: { holdId: written.id },
        dedupeKey: `watchlist_alert:${written.id}:${toAddress.toLowerCase()}`,
      })),
    );
  }
  return written.id;
}

/**
 * Where a visit stands with the watchlist: 'clear' (no match, or a reviewer allowed this
 * visit), 'held' (a review is pending: just now, or before), 'denied' (a reviewer refused it).
 */
export type Screening = 'clear' | 'held' | 'denied';

/**
 * Screens a visit (a visitor row and its request) at one of the ways in, in the caller's
 * transaction: a decision already taken on this visit stands (allowed: clear, denied:
 * denied) and a pending review stays pending; otherwise the visitor's identity is matched and
 * a match holds the visit.
 */
export async function screenVisit(
  tx: Db,
  visit: { visitorId: string; requestId: string | null; source: HoldSource; now?: Date },
): Promise<Screening> {
  const [decided] = await rowsOf(
    tx,
    z.object({ status: z.enum(HOLD_STATUSES) }),
    sql`select status from watchlist_holds where visitor_id = ${visit.visitorId}::uuid
         order by case status when 'pending' then 0 when 'denied' then 1 else 2 end, created_at desc
         limit 1`,
  );
  if (decided?.status === 'pending') return 'held';
  if (decided?.status === 'denied') return 'denied';
  if (decided?.status === 'allowed') return 'clear';
  const [person] = await tx
    .select({
      companyId: visitors.companyId,
      siteId: visitors.siteId,
      firstname: visitors.firstname,
      lastname: visitors.lastname,
      email: visitors.email,
      phone: visitors.contact,
      idNumber: visitors.idNumber,
    })
    .from(visitors)
    .where(eq(visitors.id, visit.visitorId))
    .limit(1);
  if (!person) return 'clear';
  const match = await matchWatchlist(tx, person.companyId, person, visit.now);
  if (!match) return 'clear';
  await holdVisit(tx, {
    companyId: person.companyId,
    siteId: person.siteId,
    visitorId: visit.visitorId,
    requestId: visit.requestId,
    source: visit.source,
    match,
  });
  return 'held';
}
