/**
 * Retention (issue 16), the one module that forgets on schedule. `retentionSweep` runs
 * hourly and at start (background.ts):
 * - every time: anonymous visitors who never filed a request (a day old, visitors/purge.ts)
 *   and sign-in failures a day old, SSO sign-ins an hour past their expiry;
 * - once a day, by whichever instance claims the day's row in `retention_runs` first:
 *   per company, identity documents and photos (a kiosk walk-in's too) `retention_documents_days` after the visit
 *   or event (a card holder's, after their card stopped being valid), visitor identities anonymised `retention_identity_days` after the last visit,
 *   checks older than `retention_checks_days` reduced to daily counts
 *   (`check_daily_counts`), audit entries older than `retention_audit_days` — each period
 *   as it holds today (privacy/periods.ts: a shortened one only from its date), and the
 *   audit log's never under the operator's floor (`AUDIT_MIN_DAYS`); signed documents (issue
 *   31: the signature rows and their PDFs) `retention_signatures_days` after signing.
 * Everything goes in short batches (no long lock while scans go on), stored files after
 * their rows. What was purged is logged and audited as counts, never as names.
 *
 * A day's run survives its process (issue 26): each batch adds its count to the day's row
 * and renews the row's heartbeat in its own transaction. A run that stopped (the server
 * stopping, an error) clears its heartbeat and is taken up again at the next sweep; one
 * whose process was killed is taken over once its heartbeat is older than `RUN_LEASE_MS`,
 * the same day. The run that finishes writes the day's audit entry with the day's totals
 * and its number of attempts; a day whose run never finished is closed, and audited as
 * unfinished, by the next day's.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  AUDIT_MIN_DAYS_DEFAULT,
  PURGE_COUNT_KEYS,
  RETENTION_DEFAULTS,
  type PurgeCountKey,
} from '@sesame/shared';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import { idRow, rowsOf } from '../db/rows';
import type { FileStorage } from '../files/storage';
import { audit } from '../audit/service';
import { forgetOldLoginFailures } from '../auth/login-throttle';
import { forgetOldSignIns } from '../sso/sign-in-service';
import { forgetOldDeliveries } from '../webhooks/service';
import { purgeUnfiledVisitors } from '../visitors/purge';
import { periodInForce } from './periods';

const BATCH = 500;

export type RetentionCounts = Record<PurgeCountKey, number>;
type CountKey = PurgeCountKey;
const COUNT_KEYS = PURGE_COUNT_KEYS;

/** Adds a batch's count to the run's totals, inside the batch's own transaction. */
export type Tally = (tx: Db, key: CountKey, n: number) => Promise<void>;
/** One batch's own tally, its key already chosen. */
type Count = (tx: Db, n: number) => Promise<void>;

/** A run's heartbeat older than this: its process is gone and another sweep takes it over. */
export const RUN_LEASE_MS = 10 * 60_000;

/** A row of `… returning stored_name`: a file deleted, its bytes to remove. */
const storedNameRow = z.object({ stored_name: z.string() });

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
  count: Count,
): Promise<number> {
  const names = await db.transaction(async (tx) => {
    const deleted = await rowsOf(
      tx,
      storedNameRow,
      sql`
      with due as (${due}), cleared as (${clear})
      delete from files where id in (select file_id from due) returning stored_name`,
    );
    const gone = deleted.map((row) => row.stored_name);
    await count(tx, gone.length);
    return gone;
  });
  await Promise.all(names.map((name) => storage.remove(name).catch(() => undefined)));
  return names.length;
}

/**
 * One batch of visitors' files held in `column` past their company's documents period,
 * counted from the last visit: identity documents (`request_image_id`), and walk-ins'
 * photos (`photo_file_id`, a kiosk's camera, issue 29) as identity documents are.
 */
function purgeVisitorFilesBatch(
  db: Database,
  storage: FileStorage,
  column: 'request_image_id' | 'photo_file_id',
  count: Count,
): Promise<number> {
  const held = sql.raw(column);
  return purgeFilesBatch(
    db,
    storage,
    sql`select v.id, v.${held} as file_id
        from visitors v
        join companies c on c.id = v.company_id
        left join events e on e.id = v.event_id
        where v.${held} is not null
          and ${LAST_VISIT} < now() - make_interval(days => ${periodInForce('documents_days')})
        limit ${BATCH}
        for update of v skip locked`,
    sql`update visitors set ${held} = null where id in (select id from due) returning id`,
    count,
  );
}

/**
 * One batch of card holders' documents and photos past their company's period, counted
 * from the day the card stopped being valid (re-issued, or expired); a card still valid,
 * or a member card without an end, keeps its photo.
 */
function purgeCardDocumentsBatch(
  db: Database,
  storage: FileStorage,
  count: Count,
): Promise<number> {
  return purgeFilesBatch(
    db,
    storage,
    sql`select q.id, q.document_id as file_id
        from qr_users q
        join companies c on c.id = q.company_id
        where q.document_id is not null
          and coalesce(q.revoked_at, q.date_exp) < now() - make_interval(days => ${periodInForce('documents_days')})
        limit ${BATCH}
        for update of q skip locked`,
    sql`update qr_users set document_id = null where id in (select id from due) returning id`,
    count,
  );
}

/** The personal fields of visitors, blanked; what stays says nothing about who they were. */
export const ANONYMOUS_VISITOR = sql.raw(`
  firstname = 'Anonyme', lastname = '', email = '', contact = '', id_number = '',
  organisation_name = '', address = null, city = null, state = null, country = null,
  zipcode = null, uidn = 'ANON-' || replace(id::text, '-', ''), anonymised_at = now()`);

/** One batch of visitors whose last visit is past their company's identity period. */
async function anonymiseIdentitiesBatch(
  db: Database,
  storage: FileStorage,
  count: Count,
): Promise<number> {
  const result = await db.transaction(async (tx) => {
    const due = await rowsOf(
      tx,
      z.object({ id: z.string(), file_id: z.string().nullable() }),
      sql`
        select v.id, v.request_image_id as file_id
        from visitors v
        join companies c on c.id = v.company_id
        left join events e on e.id = v.event_id
        where v.anonymised_at is null
          and ${LAST_VISIT} < now() - make_interval(days => ${periodInForce('identity_days')})
        limit ${BATCH}
        for update of v skip locked`,
    );
    await count(tx, due.length);
    if (due.length === 0) return { count: 0, names: [] };
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

/** Deletes the file rows of these visitors' documents and photos; answers their stored names. */
export async function forgetVisitorsFiles(
  tx: Db,
  ids: ReturnType<typeof sql.join>,
): Promise<string[]> {
  const deleted = await rowsOf(
    tx,
    storedNameRow,
    sql`
    with docs as (select request_image_id as id from visitors where id in (${ids}) and request_image_id is not null
                  union all
                  select photo_file_id from visitors where id in (${ids}) and photo_file_id is not null),
    cleared as (update visitors set request_image_id = null, photo_file_id = null where id in (${ids}) returning id)
    delete from files where id in (select id from docs) returning stored_name`,
  );
  return deleted.map((row) => row.stored_name);
}

/**
 * Checks older than their company's period, folded into daily counts (the day in the
 * zone of the check's site, issue 28) and deleted, in one statement per batch.
 */
async function foldChecksBatch(
  db: Database,
  table: 'visitor_checks' | 'user_checks',
  count: Count,
): Promise<number> {
  const kind = table === 'visitor_checks' ? 'visitor' : 'user';
  return db.transaction(async (tx) => {
    const [folded] = await rowsOf(
      tx,
      z.object({ n: z.number() }),
      sql`
    with due as (
      select k.id, k.company_id, to_char(k.check_in_at at time zone s.timezone, 'YYYY-MM-DD') as day
      from ${sql.raw(table)} k
      join companies c on c.id = k.company_id
      join sites s on s.id = k.site_id
      where k.check_in_at < now() - make_interval(days => ${periodInForce('checks_days')})
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
    select (select count(*) from gone)::int as n, (select count(*) from counted)::int as days`,
    );
    const n = folded?.n ?? 0;
    await count(tx, n);
    return n;
  });
}

/**
 * Audit entries older than their company's period (the trigger allows this purge only),
 * and never one younger than the operator's floor, whatever a company stored: so the
 * entry recording a retention change outlives the purges that change causes.
 */
async function purgeAuditBatch(db: Database, auditMinDays: number, count: Count): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local sesame.audit_purge = 'on'`);
    const deleted = await rowsOf(
      tx,
      idRow,
      sql`
      with due as (
        select a.id from audit_events a
        left join companies c on c.id = a.company_id
        where a.at < now() - make_interval(days => greatest(
          coalesce(${periodInForce('audit_days')}, ${RETENTION_DEFAULTS.audit_days}::int),
          ${auditMinDays}::int))
        limit ${BATCH * 4}
      )
      delete from audit_events where id in (select id from due) returning id`,
    );
    const n = deleted.length;
    await count(tx, n);
    return n;
  });
}

/**
 * An ended roll call's record names the people it counted: it goes when their
 * identities would be anonymised (the company's identity period after it ended).
 */
async function purgeRollCallsBatch(db: Database, count: Count): Promise<number> {
  return db.transaction(async (tx) => {
    const deleted = await rowsOf(
      tx,
      idRow,
      sql`
      with due as (
        select r.id from roll_calls r join companies c on c.id = r.company_id
        where r.ended_at is not null
          and r.ended_at < now() - make_interval(days => ${periodInForce('identity_days')})
        limit ${BATCH}
      )
      delete from roll_calls where id in (select id from due) returning id`,
    );
    const n = deleted.length;
    await count(tx, n);
    return n;
  });
}

/**
 * Signed documents (issue 31) older than their company's signatures period: the signature
 * rows (what was signed, by whom, the drawn image) and their PDFs' file rows in one
 * transaction, then the PDFs' bytes. Counted per signature.
 */
async function purgeSignaturesBatch(
  db: Database,
  storage: FileStorage,
  count: Count,
): Promise<number> {
  const result = await db.transaction(async (tx) => {
    const gone = await rowsOf(
      tx,
      z.object({ pdf_file_id: z.string().nullable() }),
      sql`
        with due as (
          select s.id from signatures s join companies c on c.id = s.company_id
          where s.signed_at < now() - make_interval(days => ${periodInForce('signatures_days')})
          limit ${BATCH}
          for update of s skip locked
        )
        delete from signatures where id in (select id from due) returning pdf_file_id`,
    );
    await count(tx, gone.length);
    const fileIds = gone.flatMap((row) => (row.pdf_file_id ? [row.pdf_file_id] : []));
    const names = fileIds.length
      ? (
          await rowsOf(
            tx,
            storedNameRow,
            sql`
            delete from files where id in (${sql.join(
              fileIds.map((id) => sql`${id}::uuid`),
              sql`, `,
            )}) returning stored_name`,
          )
        ).map((row) => row.stored_name)
      : [];
    return { count: gone.length, names };
  });
  await Promise.all(result.names.map((name) => storage.remove(name).catch(() => undefined)));
  return result.count;
}

/**
 * Runs `step` until a batch comes back short. A stopping server (`signal`) ends
 * between batches: each batch is one transaction, whole or not done at all, and what
 * was not reached is taken up by the next sweep, the same day.
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

export interface PurgeOptions {
  /** The server stopping: the purge ends after the batch in hand. */
  signal?: AbortSignal;
  /** The audit log's floor in days (the config's `auditMinDays`). */
  auditMinDays?: number;
  /** Where each batch's count goes, in its transaction (a day's run); none by default. */
  tally?: Tally;
}

const noTally: Tally = () => Promise.resolve();

/** The daily purge, without its claim (tests and the benchmark call it directly). */
export async function purgeDue(
  db: Database,
  storage: FileStorage,
  options: PurgeOptions = {},
): Promise<Omit<RetentionCounts, 'unfiledVisitors'>> {
  const { signal, auditMinDays = AUDIT_MIN_DAYS_DEFAULT, tally = noTally } = options;
  const counter =
    (key: CountKey): Count =>
    (tx, n) =>
      tally(tx, key, n);
  const documents =
    (await drain(
      () => purgeVisitorFilesBatch(db, storage, 'request_image_id', counter('documents')),
      BATCH,
      signal,
    )) +
    (await drain(
      () => purgeVisitorFilesBatch(db, storage, 'photo_file_id', counter('documents')),
      BATCH,
      signal,
    )) +
    (await drain(() => purgeCardDocumentsBatch(db, storage, counter('documents')), BATCH, signal));
  const identities = await drain(
    () => anonymiseIdentitiesBatch(db, storage, counter('identities')),
    BATCH,
    signal,
  );
  const visitorChecks = await drain(
    () => foldChecksBatch(db, 'visitor_checks', counter('visitorChecks')),
    BATCH * 4,
    signal,
  );
  const userChecks = await drain(
    () => foldChecksBatch(db, 'user_checks', counter('userChecks')),
    BATCH * 4,
    signal,
  );
  const auditEntries = await drain(
    () => purgeAuditBatch(db, auditMinDays, counter('auditEntries')),
    BATCH * 4,
    signal,
  );
  const rollCalls = await drain(() => purgeRollCallsBatch(db, counter('rollCalls')), BATCH, signal);
  const signatures = await drain(
    () => purgeSignaturesBatch(db, storage, counter('signatures')),
    BATCH,
    signal,
  );
  return { documents, identities, visitorChecks, userChecks, auditEntries, rollCalls, signatures };
}

const today = () => new Date().toISOString().slice(0, 10);
const leaseExpired = (leaseMs: number) =>
  sql`(retention_runs.heartbeat_at is null or retention_runs.heartbeat_at < now() - make_interval(secs => ${leaseMs / 1000}::float8))`;

/**
 * The day's run, for this instance: a new day's row, or the row of a run that is not
 * finished and that no live instance holds (stopped, failed, or killed longer than the
 * lease ago). Answers its attempt number, or null when the run is done or held elsewhere.
 * One statement: two instances claiming at once never both get it.
 */
export async function claimRetentionDay(
  db: Db,
  day = today(),
  leaseMs = RUN_LEASE_MS,
): Promise<number | null> {
  const [row] = await rowsOf(
    db,
    z.object({ attempts: z.number() }),
    sql`
    insert into retention_runs (day, heartbeat_at) values (${day}, now())
    on conflict (day) do update
      set heartbeat_at = now(), attempts = retention_runs.attempts + 1
      where retention_runs.finished_at is null and ${leaseExpired(leaseMs)}
    returning attempts`,
  );
  return row?.attempts ?? null;
}

/** A run's tally: the batch's count into the day's totals, and the run's heartbeat. */
function runTally(day: string): Tally {
  return async (tx, key, n) => {
    await tx.execute(sql`
      update retention_runs set heartbeat_at = now(),
        counts = coalesce(counts, '{}'::jsonb)
          || jsonb_build_object(${key}::text, coalesce((counts ->> ${key}::text)::int, 0) + ${n}::int)
      where day = ${day}`);
  };
}

/** The run stopped before its end: the next sweep takes it up without waiting for the lease. */
async function releaseRun(db: Db, day: string): Promise<void> {
  await db.execute(
    sql`update retention_runs set heartbeat_at = null where day = ${day} and finished_at is null`,
  );
}

/** A day's row as a run's end reads it: its totals so far (jsonb, null before any batch). */
const runRow = z.object({
  counts: z.record(z.string(), z.unknown()).nullable(),
  attempts: z.number(),
});

/** A run's totals, every count present (a key no batch wrote yet: 0). */
function totalsOf(stored: Record<string, unknown> | null): RetentionCounts {
  const totals = Object.fromEntries(COUNT_KEYS.map((key) => [key, Number(stored?.[key] ?? 0)]));
  // Object.fromEntries types its keys as string; COUNT_KEYS gave every one of RetentionCounts.
  return totals as RetentionCounts;
}

export interface RetentionRun extends RetentionCounts {
  day: string;
  /** 1, or more when the day's run was taken up again after a stop. */
  attempts: number;
}

/**
 * Earlier days whose run never finished (killed, and no sweep came back that day): the
 * work they left is today's run's, and each is closed with its audit entry, marked
 * unfinished, holding what it did.
 */
async function closeAbandonedRuns(db: Database, day: string, leaseMs: number): Promise<void> {
  await db.transaction(async (tx) => {
    const closed = await rowsOf(
      tx,
      runRow.extend({ day: z.string() }),
      sql`
        update retention_runs set finished_at = now(), heartbeat_at = null
        where day < ${day} and finished_at is null and ${leaseExpired(leaseMs)}
        returning day, counts, attempts`,
    );
    for (const run of closed) {
      await audit(tx, {
        companyId: null,
        actorUserId: null,
        action: 'retention.purged',
        detail: {
          day: run.day,
          ...totalsOf(run.counts),
          attempts: run.attempts,
          finished: false,
        },
      });
    }
  });
}

/** The run's end: the day's row closed and its audit entry, once, in one transaction. */
async function finishRun(db: Database, day: string): Promise<RetentionRun | null> {
  return db.transaction(async (tx) => {
    const [row] = await rowsOf(
      tx,
      runRow,
      sql`
        update retention_runs set finished_at = now(), heartbeat_at = null
        where day = ${day} and finished_at is null
        returning counts, attempts`,
    );
    // Another instance took the run over and finished it first: its entry is the day's.
    if (!row) return null;
    const run = { day, ...totalsOf(row.counts), attempts: row.attempts };
    await audit(tx, {
      companyId: null,
      actorUserId: null,
      action: 'retention.purged',
      detail: { ...run, finished: true },
    });
    return run;
  });
}

export interface SweepOptions {
  /** The day, 'YYYY-MM-DD' (UTC); today by default. */
  day?: string;
  /** The server stopping (background.ts). */
  signal?: AbortSignal;
  /** The audit log's floor in days (the config's `auditMinDays`). */
  auditMinDays?: number;
  /** How long a run's heartbeat holds it (`RUN_LEASE_MS`). */
  leaseMs?: number;
}

/**
 * One sweep: the hourly steps, then the day's purge if this instance claims it (a new day,
 * or a run left unfinished). Answers the day's totals when this sweep finished the run;
 * null when the run was done or held elsewhere, or when this sweep stopped before the end.
 */
export async function retentionSweep(
  db: Database,
  storage: FileStorage,
  options: SweepOptions = {},
): Promise<RetentionRun | null> {
  const { day = today(), signal, auditMinDays, leaseMs = RUN_LEASE_MS } = options;
  const unfiledVisitors = await purgeUnfiledVisitors(db, storage, signal);
  await forgetOldLoginFailures(db);
  await forgetOldSignIns(db);
  await forgetOldDeliveries(db);
  if (signal?.aborted) return null;
  await closeAbandonedRuns(db, day, leaseMs);
  if ((await claimRetentionDay(db, day, leaseMs)) === null) return null;
  const tally = runTally(day);
  try {
    await db.transaction((tx) => tally(tx, 'unfiledVisitors', unfiledVisitors));
    await purgeDue(db, storage, { signal, auditMinDays, tally });
  } catch (error) {
    // Failed midway: what it did is counted; the next sweep takes the rest up today.
    await releaseRun(db, day).catch(() => undefined);
    throw error;
  }
  if (signal?.aborted) {
    await releaseRun(db, day);
    return null;
  }
  return finishRun(db, day);
}
