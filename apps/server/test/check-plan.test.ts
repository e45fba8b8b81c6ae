/**
 * Issue 32, the code check under a morning rush: the statement's plan must not depend on
 * fresh statistics. A desk at 9 a.m. has tens of thousands of checks written since the
 * last autovacuum, on statistics taken when the checks table was (nearly) empty. With
 * those, PostgreSQL believes `check_out_at is null and undone_at is null` holds for
 * 0.5 % × 0.5 % of the rows, so every partial index with that predicate looks like it
 * holds one row, and it walked a whole one (the site's open checks) to close one check.
 *
 * Here: statistics taken on empty checks tables (ANALYZE), then thousands of open checks
 * written without one; the plans of the very statements the code check's functions run
 * (CHECK_STATEMENTS: the read, and the close), both as the first executions plan them
 * (custom, with the values) and as a prepared statement or a PL/pgSQL function may after
 * five (generic), read the checks tables only through an index condition on the check's id
 * or the holder, and remove no row by filter. What is asserted is the plan's shape and the
 * rows it touched, never a time. Then the server's own function closes the right check.
 *
 * The same for the visitor's requests and invitation days (the invitation rules, issue 30):
 * statistics taken before any invitation, then another company's invitations; the read asks
 * whether the visitor is confirmed, whether invited, and their invitation's next day, by
 * the visitor's and the invitation's keys only, never by walking every invited request.
 */
import { randomUUID } from 'node:crypto';
import { eq, fillPlaceholders, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS } from '@sesame/shared';
import {
  CHECK_STATEMENTS,
  checkQrUserCodeStatement,
  checkVisitorCodeStatement,
  type CheckValues,
} from '../src/checkins/check-statement';
import type { DatabaseHandle } from '../src/db/client';
import { preparedQuery } from '../src/db/raw-prepared';
import { sessions, userChecks, visitorChecks } from '../src/db/schema';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';

/** Holders of each kind; all but the last FREE of them are inside (an open check). */
const HOLDERS = 4000;
const FREE = 10;
/** Closed checks of earlier days beside the open ones, as a desk's table has. */
const CLOSED = 2000;
/** Another company's invitations written after the statistics, and the days of each. */
const INVITATIONS = 500;
const INVITATION_DAYS = 10;
/** Another company's visitors, with a request each, when the statistics are taken. */
const OTHER_VISITORS = 100_000;
const OTHER_SLICE = 20_000;

/** One connection: PREPARE, SET and EXPLAIN in one transaction, rolled back. */
interface Connection {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  release(): void;
}

async function connectionOf(handle: DatabaseHandle): Promise<Connection> {
  const client: unknown = (handle.db as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const c = await client.connect();
    return { query: (text, params) => c.query(text, params), release: () => c.release() };
  }
  // PGlite: one in-process connection.
  const lite = client as {
    query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  };
  return { query: (text, params) => lite.query(text, params), release: () => undefined };
}

interface PlanNode {
  'Node Type': string;
  Operation?: string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  'Rows Removed by Filter'?: number;
  'Actual Loops'?: number;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe(`the code check's plan on statistics of empty checks tables (${testDatabaseKind})`, () => {
  let handle: DatabaseHandle;
  let conn: Connection;
  let base: Omit<CheckValues, 'newCheckId'>;
  const codes = { visitor: '', qrUser: '' };

  beforeAll(async () => {
    handle = await createTestDatabase();
    const db = handle.db;
    const company = await buildCompany(db);
    const desk = await buildUser(db, { company, role: 'ROLE_EMPLOYEE' });
    const [session] = await db
      .insert(sessions)
      .values({ userId: desk.id, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    const now = new Date();
    base = {
      sessionId: session!.id,
      userId: desk.id,
      now,
      // No repeat window: a second scan of someone inside closes their check.
      since: now,
      method: 'scan',
      site: null,
    };
    // Visitors with a confirmed request for today, and QR users, codes by row number.
    await db.execute(sql`
      insert into visitors (id, company_id, site_id, uidn, firstname, lastname, email, contact,
                            id_number, organisation_name, request_date, request_time, day_starts_at, day_ends_at)
      select gen_random_uuid(), ${company.id}, ${company.siteId}, 'PLAN-V-' || lpad(g::text, 6, '0'), 'Awa', 'N' || g,
             'v' || g || '@example.com', '0700000000', 'ID-' || g, 'Acme', '01/01/2030', '10:00',
             now() - interval '1 hour', now() + interval '8 hours'
        from generate_series(1, ${HOLDERS}::int) g`);
    await db.execute(sql`
      insert into visit_requests (id, company_id, visitor_id, host, reason, status, confirmed)
      select gen_random_uuid(), company_id, id, 'Hôte', 'Réunion', 1, true from visitors`);
    await db.execute(sql`
      insert into qr_users (id, company_id, kind, uidn, firstname, lastname, email, contact, title)
      select gen_random_uuid(), ${company.id}, 'member', 'PLAN-Q-' || lpad(g::text, 6, '0'), 'Yao', 'N' || g,
             'q' || g || '@example.com', '0700000000', 'Technicien'
        from generate_series(1, ${HOLDERS}::int) g`);
    // Another company's visitors, none invited yet, as many as make visit_requests' visitor
    // index a level deeper than its (all-null, deduplicated) invitation index: that is when
    // PostgreSQL preferred the latter for "is this visitor invited". In slices, each under
    // the test database's statement timeout.
    const other = await buildCompany(db);
    for (let from = 0; from < OTHER_VISITORS; from += OTHER_SLICE) {
      await db.execute(sql`
        insert into visitors (id, company_id, site_id, uidn, firstname, lastname, email, contact,
                              id_number, organisation_name, request_date, request_time)
        select gen_random_uuid(), ${other.id}, ${other.siteId}, 'PLAN-Y-' || g, 'Awa', 'N',
               'o@example.com', '0700000000', 'ID', 'Acme', '01/01/2030', '10:00'
          from generate_series(${from + 1}::int, ${from + OTHER_SLICE}::int) g`);
      await db.execute(sql`
        insert into visit_requests (id, company_id, visitor_id, host, reason, status, confirmed)
        select gen_random_uuid(), v.company_id, v.id, 'Hôte', 'Réunion', 1, true
          from generate_series(${from + 1}::int, ${from + OTHER_SLICE}::int) g
          join visitors v on v.uidn = 'PLAN-Y-' || g`);
    }
    // The statistics a database has before its morning: the checks tables empty, and no
    // invitation yet (every request's invitation_id null, as after the upgrade that added it).
    await db.execute(sql`analyze`);
    // Since: another company's invitations, INVITATIONS of them with INVITATION_DAYS days each
    // and an invited visitor each (codes after the holders': none of them is let in below),
    // which no code checked here concerns.
    await db.execute(sql`
      insert into invitations (id, company_id, site_id, first_date, time, end_time)
      select gen_random_uuid(), ${other.id}, ${other.siteId}, '01/01/2030', '10:00', '11:00'
        from generate_series(1, ${INVITATIONS}::int)`);
    await db.execute(sql`
      insert into invitation_days (id, company_id, invitation_id, day, starts_at, ends_at)
      select gen_random_uuid(), i.company_id, i.id, current_date + k,
             (current_date + k)::timestamptz, (current_date + k + 1)::timestamptz
        from invitations i, generate_series(0, ${INVITATION_DAYS - 1}::int) k
       where i.company_id = ${other.id}`);
    await db.execute(sql`
      insert into visitors (id, company_id, site_id, uidn, firstname, lastname, email, contact,
                            id_number, organisation_name, request_date, request_time)
      select gen_random_uuid(), ${other.id}, ${other.siteId}, 'PLAN-X-' || i.id, 'Invité', 'N',
             'i@example.com', '0700000000', 'ID', 'Acme', '01/01/2030', '10:00'
        from invitations i where i.company_id = ${other.id}`);
    await db.execute(sql`
      insert into visit_requests (id, company_id, visitor_id, host, reason, status, confirmed, invitation_id)
      select gen_random_uuid(), v.company_id, v.id, 'Hôte', 'Réunion', 1, true, i.id
        from visitors v join invitations i on v.uidn = 'PLAN-X-' || i.id`);
    // The morning since: earlier days' closed checks, and everyone inside but the last few.
    for (const [table, holders, column, prefix] of [
      ['visitor_checks', 'visitors', 'visitor_id', 'PLAN-V-'],
      ['user_checks', 'qr_users', 'qr_user_id', 'PLAN-Q-'],
    ] as const) {
      await db.execute(
        sql.raw(`
        insert into ${table} (id, company_id, site_id, ${column}, check_in_at, check_out_at,
                              check_in_method, check_out_method)
        select gen_random_uuid(), h.company_id, '${company.siteId}', h.id, now() - interval '2 days' - g * interval '1 minute',
               now() - interval '2 days' - g * interval '1 minute' + interval '1 hour', 'scan', 'scan'
          from generate_series(1, ${CLOSED}) g
          join ${holders} h on h.uidn = '${prefix}' || lpad((1 + g % ${HOLDERS})::text, 6, '0')`),
      );
      await db.execute(
        sql.raw(`
        insert into ${table} (id, company_id, site_id, ${column}, check_in_at, check_in_method)
        select gen_random_uuid(), company_id, '${company.siteId}', id, now() - interval '30 minutes', 'scan'
          from ${holders} order by uidn limit ${HOLDERS - FREE}`),
      );
    }
    // Someone inside (a check to close) and someone not (a check to open), of each kind.
    codes.visitor = `PLAN-V-${String(HOLDERS - FREE - 3).padStart(6, '0')}`;
    codes.qrUser = `PLAN-Q-${String(HOLDERS - FREE - 3).padStart(6, '0')}`;
    conn = await connectionOf(handle);
  }, 120_000);

  afterAll(async () => {
    conn?.release();
    await handle?.close();
  });

  /** The values the server passes (check-statement.ts's own, for 'checks.record'). */
  function valuesFor(name: keyof typeof CHECK_STATEMENTS, extra: Record<string, unknown>) {
    const literal = (roles: readonly string[]) => `{${roles.map((r) => `"${r}"`).join(',')}}`;
    return fillPlaceholders(preparedQuery(CHECK_STATEMENTS[name]).params, {
      recordRoles: literal(ACTIONS['checks.record'].roles),
      allCompanyRoles: literal(ACTIONS['checks.record'].allCompanies),
      ...base,
      now: base.now.toISOString(),
      since: base.since.toISOString(),
      newCheckId: randomUUID(),
      closeOnly: false,
      openOnly: false,
      callerUserId: base.userId,
      ...extra,
    });
  }

  /**
   * EXPLAIN (ANALYZE, FORMAT JSON) of `name` with `extra` values, rolled back: `custom` with
   * the values, as its first executions are planned; else the generic plan a prepared
   * statement (and a PL/pgSQL function's statement) may keep after five.
   */
  async function planOf(
    name: keyof typeof CHECK_STATEMENTS,
    extra: Record<string, unknown>,
    mode: 'custom' | 'generic',
  ): Promise<PlanNode[]> {
    const { sql: text } = preparedQuery(CHECK_STATEMENTS[name]);
    const values = valuesFor(name, extra);
    await conn.query('begin');
    try {
      await conn.query(`set local plan_cache_mode = force_${mode}_plan`);
      await conn.query(`prepare plan_test as ${text}`);
      const literals = values
        .map((v) => (v === null ? 'null' : `'${String(v).replace(/'/g, "''")}'`))
        .join(', ');
      const { rows } = await conn.query(
        `explain (analyze, format json) execute plan_test(${literals})`,
      );
      const raw = rows[0]!['QUERY PLAN'];
      const [explained] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
      return nodesOf(explained.Plan);
    } finally {
      await conn.query('rollback');
      // A prepared statement outlives its transaction.
      await conn.query('deallocate all');
    }
  }

  /** What the plan read of the checks table: each node, with how it found its rows. */
  function checksReads(nodes: PlanNode[], table: string) {
    return nodes
      .filter((n) => n['Relation Name'] === table || n['Index Name']?.startsWith(`${table}_`))
      .map((n) => ({
        node: n['Node Type'],
        index: n['Index Name'] ?? null,
        cond: n['Index Cond'] ?? n['Recheck Cond'] ?? null,
        removed: n['Rows Removed by Filter'] ?? 0,
      }));
  }

  /** The open check of the holder of `code` (the one a second scan closes). */
  async function openCheckOf(table: string, holders: string, column: string, code: string) {
    const { rows } = await conn.query(
      `select c.id from ${table} c join ${holders} h on h.id = c.${column}
        where h.uidn = $1 and c.check_out_at is null`,
      [code],
    );
    return String(rows[0]!.id);
  }

  for (const [name, closeName, table, holders, holder, kind] of [
    [
      'check_visitor_code',
      'close_visitor_check',
      'visitor_checks',
      'visitors',
      'visitor_id',
      'visitor',
    ],
    ['check_qr_user_code', 'close_user_check', 'user_checks', 'qr_users', 'qr_user_id', 'qrUser'],
  ] as const) {
    for (const mode of ['custom', 'generic'] as const) {
      it(`${name} (${mode} plan) reads ${table} by an index condition only`, async () => {
        const nodes = await planOf(name, { code: codes[kind] }, mode);
        const reads = checksReads(nodes, table);
        // The latest check, by holder: an index condition.
        expect(reads.length).toBeGreaterThan(0);
        for (const read of reads) {
          expect(read.node, JSON.stringify(read)).not.toBe('Seq Scan');
          if (
            read.node === 'Index Scan' ||
            read.node === 'Bitmap Index Scan' ||
            read.node === 'Index Only Scan'
          ) {
            expect(read.cond ?? 'no index condition: a walk', JSON.stringify(read)).toMatch(
              new RegExp(`\\((${holder}|id) = `),
            );
          }
          // A walk of an open-checks index filters out thousands: none here.
          expect(read.removed, JSON.stringify(read)).toBeLessThanOrEqual(1);
        }
      });

      if (kind === 'visitor')
        it(`${name} (${mode} plan) reads the visitor's requests and invitation days by the visitor only`, async () => {
          const nodes = await planOf(name, { code: codes[kind] }, mode);
          const reads = nodes.filter((n) =>
            ['visit_requests', 'invitation_days'].some(
              (t) => n['Relation Name'] === t || n['Index Name']?.startsWith(`${t}_`),
            ),
          );
          // Whether confirmed, whether invited, and the invitation's next day.
          expect(reads.length).toBeGreaterThanOrEqual(3);
          for (const read of reads) {
            const seen = JSON.stringify({ ...read, Plans: undefined });
            expect(read['Node Type'], seen).not.toBe('Seq Scan');
            // Not a walk of every invited request or every day: a probe by visitor or invitation.
            expect(
              read['Index Cond'] ?? read['Recheck Cond'] ?? 'no index condition',
              seen,
            ).toMatch(
              /\(([\w.]+\.)?(visitor_id|invitation_id) = |= ([\w.]+\.)?(visitor_id|invitation_id)\)/,
            );
            expect(read['Actual Rows'] ?? 0, seen).toBeLessThanOrEqual(INVITATION_DAYS);
          }
        });

      it(`${closeName} (${mode} plan) closes a check by the primary key's probe`, async () => {
        const latestId = await openCheckOf(table, holders, holder, codes[kind]);
        const nodes = await planOf(closeName, { latestId }, mode);
        // The close is the primary key's probe, not one of the open-checks indexes.
        const update = nodes.find(
          (n) => n['Node Type'] === 'ModifyTable' && n.Operation === 'Update',
        );
        expect(update?.['Relation Name']).toBe(table);
        const closeRead = (update!.Plans ?? [])
          .flatMap(nodesOf)
          .find((n) => n['Relation Name'] === table);
        expect(closeRead?.['Index Name']).toBe(`${table}_pkey`);
        expect(closeRead?.['Index Cond']).toMatch(/\(id = /);
        expect(closeRead?.['Rows Removed by Filter'] ?? 0).toBe(0);
      });
    }
  }

  it('closes the right check, and opens one for someone outside, through the same function', async () => {
    for (const [run, table, code, free] of [
      [
        checkVisitorCodeStatement,
        visitorChecks,
        codes.visitor,
        `PLAN-V-${String(HOLDERS).padStart(6, '0')}`,
      ],
      [
        checkQrUserCodeStatement,
        userChecks,
        codes.qrUser,
        `PLAN-Q-${String(HOLDERS).padStart(6, '0')}`,
      ],
    ] as const) {
      const open = async () =>
        Number(
          (
            await handle.db.execute<{ n: string }>(
              sql`select count(*) as n from ${table} where ${table.checkOutAt} is null and ${table.undoneAt} is null`,
            )
          ).rows[0]!.n,
        );
      const before = await open();
      expect(before).toBe(HOLDERS - FREE);
      const closing = await run(handle.db, { ...base, newCheckId: randomUUID(), code });
      expect(closing).toMatchObject({ authenticated: true, decision: 'close', wrote: true });
      expect(await open()).toBe(before - 1);
      const [closed] = await handle.db.select().from(table).where(eq(table.checkOutAt, base.now));
      expect(closed).toMatchObject({ checkOutMethod: 'scan', checkOutBy: base.userId });
      expect(closed!.checkInAt.getTime()).toBeGreaterThan(Date.now() - 86_400_000);
      const newCheckId = randomUUID();
      const opening = await run(handle.db, { ...base, newCheckId, code: free });
      expect(opening).toMatchObject({ decision: 'open', wrote: true, latestIn: null });
      expect(await open()).toBe(before);
      // Closing again: the one just closed is not closed twice, the holder's new check is opened.
      const again = await run(handle.db, { ...base, newCheckId: randomUUID(), code });
      expect(again).toMatchObject({ decision: 'open', wrote: true });
    }
  });
});
