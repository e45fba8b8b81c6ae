/**
 * Retention (issue 16), the one module that forgets on schedule. `retentionSweep` runs
 * hourly and at start (background.ts):
 * - every time: anonymous visitors who never filed a request (a day old, visitors/purge.ts)
 *   and sign-in failures a day old;
 * - once a day, by whichever instance claims the day's row in `retention_runs` first:
 *   per company, identity documents and photos `retention_documents_days` after the visit
 *   or event (a card holder's, after their card stopped being valid), visitor identities anonymised `retention_identity_days` after the last visit,
 *   checks older than `retention_checks_days` reduced to daily counts
 *   (`check_daily_counts`), audit entries older than `retention_audit_days`.
 * Everything goes in short batches (no long lock while scans go on), stored files after
 * their rows. What was purged is logged and audited as counts, never as names.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import type { FileStorage } from '../files/storage';
import { audit } from '../audit/service';
import { forgetOldLoginFailures } from '../auth/login-throttle';
import { purgeUnfiledVisitors } from '../visitors/purge';

const BATCH = 500;

export interface RetentionCounts {
  unfiledVisitors: number;
  documents: number;
  identities: number;
  visitorChecks: number;
  userChecks: number;
  auditEntries: number;
  rollCalls: number;
}

type Rows<T> = { rows: T[] } | T[];
function rowsOf<T>(result: unknown): T[] {
  const r = result as Rows<T>;
  return Array.isArray(r) ? r : r.rows;
}

/**
 * When a visitor was last here, or is due: the end of their meeting's day or their event's,
 * their latest check, or their form. A meeting booked far ahead keeps its document until then.
 */
const LAST_VISIT = sql.raw(`greatest(
  v.created_at,
  coalesce(v.day_ends_at, v.created_at),
  coalesce(e.day_ends_at, e.starts_at, v.created_at),
  coalesce((select max(k.check_in_at) from visitor_checks k where k.visitor_id = v.id), v.created_at)
)`);

/**
 * One batch of documents whose holders are `due` (`id`, `file_id`, locked): `clear`
 * unlinks them, the file rows go in the same statement, then the bytes. A removal
 * that fails leaves bytes no row names (the orphan sweep's), never a row naming none.
 */
async function purgeFilesBatch(
  db: Database,
  storage: FileStorage,
  due: SQL,
  clear: SQL,
): Promise<number> {
  const names = await db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with due as (${due}), cleared as (${clear})
      delete from files where id in (select file_id from due) returning stored_name`);
    return rowsOf<{ stored_name: string }>(result).map((row) => row.stored_name);
  });
  await Promise.all(names.map((name) => storage.remove(name).catch(() => undefined)));
  return names.length;
}

/** One batch of identity documents past their company's period: rows, then the bytes. */
function purgeDocumentsBatch(db: Database, storage: FileStorage): Promise<number> {
  return purgeFilesBatch(
    db,
    storage,
    sql`select v.id, v.request_image_id as file_id
        from visitors v
        join companies c on c.id = v.company_id
        left join events e on e.id = v.event_id
        where v.request_image_id is not null
          and ${LAST_VISIT} < now() - make_interval(days => c.retention_documents_days)
        limit ${BATCH}
        for update of v skip locked`,
    sql`update visitors set request_image_id = null where id in (select id from due) returning id`,
  );
}

/**
 * One batch of card holders' documents and photos past their company's period, counted
 * from the day the card stopped being valid (re-issued, or expired); a card still valid,
 * or a member card without an end, keeps its photo.
 */
function purgeCardDocumentsBatch(db: Database, storage: FileStorage): Promise<number> {
  return purgeFilesBatch(
    db,
    storage,
    sql`select q.id, q.document_id as file_id
        from qr_users q
        join companies c on c.id = q.company_id
        where q.document_id is not null
          and coalesce(q.revoked_at, q.date_exp) < now() - make_interval(days => c.retention_documents_days)
        limit ${BATCH}
        for update of q skip locked`,
    sql`update qr_users set document_id = null where id in (select id from due) returning id`,
  );
}

/** The personal fields of visitors, blanked; what stays says nothing about who they were. */
export const ANONYMOUS_VISITOR = sql.raw(`
  firstname = 'Anonyme', lastname = '', email = '', contact = '', id_number = '',
  organisation_name = '', address = null, city = null, state = null, country = null,
  zipcode = null, uidn = 'ANON-' || replace(id::text, '-', ''), anonymised_at = now()`);

/** One batch of visitors whose last visit is past their company's identity period. */
async function anonymiseIdentitiesBatch(db: Database, storage: FileStorage): Promise<number> {
  const result = await db.transaction(async (tx) => {
    const due = rowsOf<{ id: string; file_id: string | null }>(
      await tx.execute(sql`
        select v.id, v.request_image_id as file_id
        from visitors v
        join companies c on c.id = v.company_id
        left join events e on e.id = v.event_id
        where v.anonymised_at is null
          and ${LAST_VISIT} < now() - make_interval(days => c.retention_identity_days)
        limit ${BATCH}
        for update of v skip locked`),
    );
    if (due.length === 0) return { count: 0, names: [] as string[] };
    const ids = sql.join(
      due.map((row) => sql`${row.id}::uuid`),
      sql`, `,
    );
    const names = await forgetVisitorsFiles(tx, ids);
    await tx.execute(
      sql`update visitors set ${ANONYMOUS_VISITOR}, request_image_id = null where id in (${ids})`,
    );
    await tx.execute(
      sql`update visit_requests set host = null, reason = null, decline_reason = null where visitor_id in (${ids})`,
    );
    await tx.execute(
      sql`delete from mail_outbox where payload->>'visitorId' in (select (x)::text from unnest(array[${ids}]) x)`,
    );
    return { count: due.length, names };
  });
  await Promise.all(result.names.map((name) => storage.remove(name).catch(() => undefined)));
  return result.count;
}

/** Deletes the file rows of these visitors' documents; answers their stored names. */
export async function forgetVisitorsFiles(
  tx: Db,
  ids: ReturnType<typeof sql.join>,
): Promise<string[]> {
  const result = await tx.execute(sql`
    with docs as (select request_image_id as id from visitors where id in (${ids}) and request_image_id is not null),
    cleared as (update visitors set request_image_id = null where id in (${ids}) returning id)
    delete from files where id in (select id from docs) returning stored_name`);
  return rowsOf<{ stored_name: string }>(result).map((row) => row.stored_name);
}

/**
 * Checks older than their company's period, folded into daily counts (the day in the
 * company's time zone) and deleted, in one statement per batch.
 */
async function foldChecksBatch(
  db: Database,
  table: 'visitor_checks' | 'user_checks',
): Promise<number> {
  const kind = table === 'visitor_checks' ? 'visitor' : 'user';
  const result = await db.execute(sql`
    with due as (
      select k.id, k.company_id, to_char(k.check_in_at at time zone c.timezone, 'YYYY-MM-DD') as day
      from ${sql.raw(table)} k
      join companies c on c.id = k.company_id
      where k.check_in_at < now() - make_interval(days => c.retention_checks_days)
      limit ${BATCH * 4}
      for update of k skip locked
    ), gone as (
      delete from ${sql.raw(table)} where id in (select id from due) returning id
    ), counted as (
      insert into check_daily_counts (company_id, day, kind, checks)
      select company_id, day, ${kind}, count(*)::int from due group by company_id, day
      on conflict (company_id, day, kind) do update set checks = check_daily_counts.checks + excluded.checks
      returning 1
    )
    select (select count(*) from gone)::int as n, (select count(*) from counted)::int as days`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/** Audit entries older than their company's period (the trigger allows this purge only). */
async function purgeAuditBatch(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local sesame.audit_purge = 'on'`);
    const result = await tx.execute(sql`
      with due as (
        select a.id from audit_events a
        left join companies c on c.id = a.company_id
        where a.at < now() - make_interval(days => coalesce(c.retention_audit_days, 1095))
        limit ${BATCH * 4}
      )
      delete from audit_events where id in (select id from due) returning 1`);
    return rowsOf(result).length;
  });
}

/**
 * An ended roll call's record names the people it counted: it goes when their
 * identities would be anonymised (the company's identity period after it ended).
 */
async function purgeRollCallsBatch(db: Database): Promise<number> {
  const result = await db.execute(sql`
    with due as (
      select r.id from roll_calls r join companies c on c.id = r.company_id
      where r.ended_at is not null
        and r.ended_at < now() - make_interval(days => c.retention_identity_days)
      limit ${BATCH}
    )
    delete from roll_calls where id in (select id from due) returning 1`);
  return rowsOf(result).length;
}

/**
 * Runs `step` until a batch comes back short. A stopping server (`signal`) ends
 * between batches: each batch is one transaction, whole or not done at all, and what
 * was not reached is due again at the next day's purge.
 */
async function drain(
  step: () => Promise<number>,
  batch: number,
  signal?: AbortSignal,
): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    const n = await step();
    total += n;
    if (n < batch) return total;
  }
  return total;
}

/** The daily purge, without its claim (tests and the benchmark call it directly). */
export async function purgeDue(
  db: Database,
  storage: FileStorage,
  signal?: AbortSignal,
): Promise<Omit<RetentionCounts, 'unfiledVisitors'>> {
  const documents =
    (await drain(() => purgeDocumentsBatch(db, storage), BATCH, signal)) +
    (await drain(() => purgeCardDocumentsBatch(db, storage), BATCH, signal));
  const identities = await drain(() => anonymiseIdentitiesBatch(db, storage), BATCH, signal);
  const visitorChecks = await drain(() => foldChecksBatch(db, 'visitor_checks'), BATCH * 4, signal);
  const userChecks = await drain(() => foldChecksBatch(db, 'user_checks'), BATCH * 4, signal);
  const auditEntries = await drain(() => purgeAuditBatch(db), BATCH * 4, signal);
  const rollCalls = await drain(() => purgeRollCallsBatch(db), BATCH, signal);
  return { documents, identities, visitorChecks, userChecks, auditEntries, rollCalls };
}

/** Today's run, claimed by one instance only: true when this call claimed it. */
export async function claimRetentionDay(db: Db, day = new Date().toISOString().slice(0, 10)) {
  const result = await db.execute(
    sql`insert into retention_runs (day) values (${day}) on conflict (day) do nothing returning day`,
  );
  return rowsOf(result).length === 1;
}

/**
 * One sweep: the hourly steps, then the daily purge if this instance claims today.
 * Answers what it did (null: another instance had today's purge).
 */
export async function retentionSweep(
  db: Database,
  storage: FileStorage,
  day = new Date().toISOString().slice(0, 10),
  signal?: AbortSignal,
): Promise<RetentionCounts | null> {
  const unfiledVisitors = await purgeUnfiledVisitors(db, storage, signal);
  await forgetOldLoginFailures(db);
  if (signal?.aborted || !(await claimRetentionDay(db, day))) return null;
  const counts = { unfiledVisitors, ...(await purgeDue(db, storage, signal)) };
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`update retention_runs set finished_at = now(), counts = ${JSON.stringify(counts)}::jsonb where day = ${day}`,
    );
    await audit(tx, {
      companyId: null,
      actorUserId: null,
      action: 'retention.purged',
      detail: { ...counts },
    });
  });
  return counts;
}
