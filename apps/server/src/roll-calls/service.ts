/**
 * The evacuation roll call (issue 14). Starting one freezes a site's on-site list (issue
 * 28; or every site's, for a roll call of the whole company)
 * — `openChecks()`, the one presence rule — into `roll_call_people` in one INSERT …
 * SELECT, so whoever arrives afterwards is not in it. A mark is one UPDATE of one row,
 * and the counts are counted by the database, so marks racing from several phones stay
 * exact. Ending it keeps the record: who started and ended it, and who marked whom.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  PERSON_KINDS,
  ROLL_CALL_STATUSES,
  type RollCall,
  type RollCallCounts,
  type RollCallPerson,
  type RollCallStatus,
} from '@sesame/shared';
import { z } from 'zod';
import type { Db } from '../db/client';
import { column, idRow, rowsOf } from '../db/rows';
import { audit } from '../audit/service';
import type { Principal } from '../auth/principal';
import { newId } from '../db/ids';
import { badRequest, conflict, isUniqueViolation, notFound } from '../errors';
import { openChecks } from '../on-site/presence';
import { findSite, listSites, withinSites } from '../sites/service';

const iso = (value: Date | null) => value?.toISOString() ?? null;
const staff = (id: string | null, name: string | null) =>
  id ? { id, name: (name ?? '').trim() } : null;

/** Whether `who` is limited to some sites of company `companyId` (their own company). */
const limitedIn = (who: Principal, companyId: string) =>
  who.siteIds.length > 0 && who.companyId === companyId;

/**
 * The site a roll call of company `companyId` covers for `who` (issue 28): the `requested`
 * one (404 when it is not the company's, or beyond the caller's site limits; 400 when it is
 * archived), else the company's only active site, else — several sites — one of the caller's
 * when they are limited to one active site, every site (null) when they are not limited,
 * and 400 `rollCall.siteRequired` for whoever is limited to several.
 */
export async function rollCallSite(
  db: Db,
  who: Principal,
  companyId: string,
  requested: string | undefined,
): Promise<string | null> {
  const limited = limitedIn(who, companyId);
  if (requested) {
    const site = await findSite(db, requested);
    if (!site || site.companyId !== companyId) throw notFound();
    if (limited && !withinSites(who, site.id)) throw notFound();
    if (site.archivedAt) {
      throw badRequest((m) => m.site.archivedSite, { site: (m) => m.site.archivedSite });
    }
    return site.id;
  }
  const active = await listSites(db, companyId);
  if (active.length === 1) return active[0]!.id;
  if (!limited) return null;
  const theirs = active.filter((site) => withinSites(who, site.id));
  if (theirs.length === 1) return theirs[0]!.id;
  throw badRequest((m) => m.rollCall.siteRequired, { site: (m) => m.rollCall.siteRequired });
}

/**
 * Starts a roll call of `companyId` at site `siteId` (null: every site), freezing who is
 * inside there now. 409 while one covering the same people is open: one per site, and one
 * of every site excludes any other — checked under the company row's lock, so two starts
 * at once cannot overlap (the unique index keeps one per site and one of every site).
 */
export async function startRollCall(
  db: Db,
  companyId: string,
  siteId: string | null,
  startedBy: string,
): Promise<{ id: string; people: number }> {
  const id = newId();
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql`select id from companies where id = ${companyId} for update`);
      const open = await rowsOf(
        tx,
        z.object({ site_id: z.string().nullable() }),
        sql`select site_id from roll_calls where company_id = ${companyId} and ended_at is null`,
      );
      if (open.some((row) => siteId === null || row.site_id === null || row.site_id === siteId)) {
        throw conflict((m) => m.rollCall.alreadyRunning);
      }
      await tx.execute(
        sql`insert into roll_calls (id, company_id, site_id, started_by)
            values (${id}, ${companyId}, ${siteId}, ${startedBy})`,
      );
      const inserted = await rowsOf(
        tx,
        idRow,
        sql`insert into roll_call_people
                   (id, roll_call_id, check_id, person_table, person_id, person_kind,
                    firstname, lastname, organisation, check_in_at)
            select gen_random_uuid(), ${id}, o.check_id, o.tbl, o.person_id,
                   case when o.tbl = 'visitor'
                     then case when v.event_id is null then 'visitor' else 'event_guest' end
                     else case when q.kind = 'member' then 'member' else 'qr_user' end end,
                   coalesce(v.firstname, q.firstname, ''), coalesce(v.lastname, q.lastname, ''),
                   coalesce(v.organisation_name, q.title), o.check_in_at
              from (${openChecks(companyId, siteId === null ? undefined : [siteId])}) o
              left join visitors v on o.tbl = 'visitor' and v.id = o.person_id
              left join qr_users q on o.tbl = 'user' and q.id = o.person_id
            returning id`,
      );
      await audit(tx, {
        companyId,
        actorUserId: startedBy,
        action: 'roll_call.started',
        detail: { roll_call_id: id, site_id: siteId, people: inserted.length },
      });
      return { id, people: inserted.length };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'roll_calls_one_open_key')) {
      throw conflict((m) => m.rollCall.alreadyRunning);
    }
    throw error;
  }
}

/** A roll call as its guard reads it: its company, its site (null: every site). */
export interface RollCallKey {
  id: string;
  companyId: string;
  siteId: string | null;
  ended: boolean;
}

/** The roll call `id`'s company, site and state (for the guard), or null. */
export async function findRollCall(db: Db, id: string): Promise<RollCallKey | null> {
  const [row] = await rowsOf(
    db,
    z.object({
      id: z.string(),
      company_id: z.string(),
      site_id: z.string().nullable(),
      ended_at: column.time.nullable(),
    }),
    sql`select id, company_id, site_id, ended_at from roll_calls where id = ${id}`,
  );
  return row
    ? {
        id: row.id,
        companyId: row.company_id,
        siteId: row.site_id,
        ended: row.ended_at !== null,
      }
    : null;
}

/** The person row `personId` of roll call `rollCallId`: its roll call's company and site, or null. */
export async function findRollCallPerson(
  db: Db,
  key: { rollCallId: string; personId: string },
): Promise<{ companyId: string; siteId: string | null } | null> {
  const [row] = await rowsOf(
    db,
    z.object({ company_id: z.string(), site_id: z.string().nullable() }),
    sql`select rc.company_id, rc.site_id from roll_call_people p join roll_calls rc on rc.id = p.roll_call_id
         where p.id = ${key.personId} and p.roll_call_id = ${key.rollCallId}`,
  );
  return row ? { companyId: row.company_id, siteId: row.site_id } : null;
}

/**
 * A staff member limited to some sites reads and marks the roll calls of their sites and
 * those of every site; another site's is a 404 to them, as a record out of reach.
 */
export function assertRollCallWithinSites(
  who: Principal,
  rollCall: { companyId: string; siteId: string | null },
): void {
  if (rollCall.siteId === null || !limitedIn(who, rollCall.companyId)) return;
  if (!withinSites(who, rollCall.siteId)) throw notFound();
}

/** The counts of a roll call, counted by the database. */
export async function countRollCall(db: Db, rollCallId: string): Promise<RollCallCounts> {
  const [row] = await rowsOf(
    db,
    z.object({
      total: column.count,
      safe: column.count,
      missing: column.count,
      unknown: column.count,
    }),
    sql`select count(*) as total,
               count(*) filter (where status = 'safe') as safe,
               count(*) filter (where status = 'missing') as missing,
               count(*) filter (where status = 'unknown') as unknown
          from roll_call_people where roll_call_id = ${rollCallId}`,
  );
  // An aggregate without group by gives one row, whatever it counts.
  return row ?? { total: 0, safe: 0, missing: 0, unknown: 0 };
}

const personDbRow = z.object({
  id: z.string(),
  person_id: z.string(),
  person_kind: z.enum(PERSON_KINDS),
  firstname: z.string(),
  lastname: z.string(),
  organisation: z.string().nullable(),
  check_in_at: column.time,
  status: z.enum(ROLL_CALL_STATUSES),
  marked_by: z.string().nullable(),
  marked_by_name: z.string().nullable(),
  marked_at: column.time.nullable(),
  site_id: z.string().nullable(),
  site_name: z.string().nullable(),
  site_timezone: z.string().nullable(),
});
type PersonDbRow = z.infer<typeof personDbRow>;

const personColumns = sql`p.id, p.person_id, p.person_kind, p.firstname, p.lastname, p.organisation,
  p.check_in_at, p.status, p.marked_by, trim(mu.firstname || ' ' || mu.name) as marked_by_name, p.marked_at,
  ps.id as site_id, ps.name as site_name, ps.timezone as site_timezone`;

/**
 * Who marked a person, and the site of the stay they were frozen from (issue 28: in a roll
 * call of every site, each person's own; null once retention removed that check).
 */
const personJoins = sql`left join users mu on mu.id = p.marked_by
  left join sites ps on ps.id = coalesce(
    (select vc.site_id from visitor_checks vc where p.person_table = 'visitor' and vc.id = p.check_id),
    (select uc.site_id from user_checks uc where p.person_table = 'user' and uc.id = p.check_id))`;

const toPerson = (row: PersonDbRow): RollCallPerson => ({
  id: row.id,
  person_id: row.person_id,
  kind: row.person_kind,
  firstname: row.firstname,
  lastname: row.lastname,
  organisation: row.organisation,
  check_in_time: row.check_in_at.toISOString(),
  status: row.status,
  marked_by: staff(row.marked_by, row.marked_by_name),
  marked_at: iso(row.marked_at),
  site:
    row.site_id === null
      ? null
      : { id: row.site_id, name: row.site_name ?? '', timezone: row.site_timezone ?? 'UTC' },
});

/**
 * Marks one person: one UPDATE, only while the roll call is open. `unknown` undoes a
 * mark. Null when the roll call has ended.
 */
export async function markPerson(
  db: Db,
  rollCallId: string,
  personId: string,
  status: RollCallStatus,
  by: string,
): Promise<RollCallPerson | null> {
  const marked = status !== 'unknown';
  const [row] = await rowsOf(
    db,
    personDbRow,
    sql`with updated as (
          update roll_call_people p
             set status = ${status},
                 marked_by = ${marked ? by : null},
                 marked_at = ${marked ? sql`now()` : sql`null`}
           where p.id = ${personId} and p.roll_call_id = ${rollCallId}
             and exists (select 1 from roll_calls rc where rc.id = ${rollCallId} and rc.ended_at is null)
          returning p.*)
        select ${personColumns} from updated p ${personJoins}`,
  );
  return row ? toPerson(row) : null;
}

/** Ends the roll call (once): false when it had ended already. */
export async function endRollCall(
  db: Db,
  rollCall: { id: string; companyId: string },
  by: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const ended = await rowsOf(
      tx,
      idRow,
      sql`update roll_calls set ended_at = now(), ended_by = ${by}
           where id = ${rollCall.id} and ended_at is null returning id`,
    );
    if (ended.length === 0) return false;
    const counts = await countRollCall(tx, rollCall.id);
    await audit(tx, {
      companyId: rollCall.companyId,
      actorUserId: by,
      action: 'roll_call.ended',
      detail: { roll_call_id: rollCall.id, ...counts },
    });
    return true;
  });
}

const rollCallDbRow = z.object({
  id: z.string(),
  company_id: z.string(),
  company_name: z.string(),
  company_slug: z.string(),
  site_id: z.string().nullable(),
  site_name: z.string().nullable(),
  site_timezone: z.string().nullable(),
  started_by: z.string().nullable(),
  started_by_name: z.string().nullable(),
  started_at: column.time,
  ended_by: z.string().nullable(),
  ended_by_name: z.string().nullable(),
  ended_at: column.time.nullable(),
});

async function present(db: Db, where: SQL): Promise<RollCall | null> {
  const [head] = await rowsOf(
    db,
    rollCallDbRow,
    sql`select rc.id, c.id as company_id, c.name as company_name, c.slug as company_slug,
               s.id as site_id, s.name as site_name, s.timezone as site_timezone,
               rc.started_by, trim(su.firstname || ' ' || su.name) as started_by_name, rc.started_at,
               rc.ended_by, trim(eu.firstname || ' ' || eu.name) as ended_by_name, rc.ended_at
          from roll_calls rc join companies c on c.id = rc.company_id
          left join sites s on s.id = rc.site_id
          left join users su on su.id = rc.started_by
          left join users eu on eu.id = rc.ended_by
         where ${where}
         order by rc.ended_at is null desc, rc.started_at desc, rc.id desc limit 1`,
  );
  if (!head) return null;
  const [people, counts] = await Promise.all([
    rowsOf(
      db,
      personDbRow,
      sql`select ${personColumns} from roll_call_people p ${personJoins}
           where p.roll_call_id = ${head.id} order by lower(p.lastname), lower(p.firstname), p.id`,
    ),
    countRollCall(db, head.id),
  ]);
  return {
    id: head.id,
    company: { id: head.company_id, name: head.company_name, slug: head.company_slug },
    site:
      head.site_id === null
        ? null
        : { id: head.site_id, name: head.site_name ?? '', timezone: head.site_timezone ?? 'UTC' },
    started_by: staff(head.started_by, head.started_by_name),
    started_at: head.started_at.toISOString(),
    ended_by: staff(head.ended_by, head.ended_by_name),
    ended_at: iso(head.ended_at),
    counts,
    people: people.map(toPerson),
  };
}

/** A roll call with its people and counts. */
export const getRollCall = (db: Db, id: string) => present(db, sql`rc.id = ${id}`);

/**
 * A company's latest roll call (an open one, if any, is the latest), or null. With
 * `siteId`, the latest covering that site: its own or one of every site. Without it, for
 * someone limited to some sites, the latest of theirs or of every site; else any.
 */
export async function latestRollCall(
  db: Db,
  who: Principal,
  companyId: string,
  siteId: string | undefined,
): Promise<RollCall | null> {
  if (siteId) {
    const site = await findSite(db, siteId);
    if (!site || site.companyId !== companyId) throw notFound();
    if (limitedIn(who, companyId) && !withinSites(who, site.id)) throw notFound();
    return present(
      db,
      sql`rc.company_id = ${companyId} and (rc.site_id is null or rc.site_id = ${site.id})`,
    );
  }
  if (limitedIn(who, companyId)) {
    return present(
      db,
      sql`rc.company_id = ${companyId} and (rc.site_id is null or rc.site_id in (${sql.join(
        who.siteIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}))`,
    );
  }
  return present(db, sql`rc.company_id = ${companyId}`);
}
