/**
 * Issue 12 §9: the CSV export streams its rows (pages on the sort key, so no
 * connection is held for a download's length), newest first, ties broken by id,
 * capped, same bytes.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { visitorChecks } from '../src/db/schema';
import { streamVisitorLog } from '../src/checkins/logs';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant, buildVisitor } from './helpers/factories';

describe(`streamed visitor-log export (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it('streams every row across batch boundaries in order, up to the cap', async () => {
    const acme = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, { company: acme.company, firstname: 'Flux' });
    const base = Date.UTC(2031, 0, 1);
    // 1,234 closed checks; pairs share a check-in time, so the order needs the id too.
    const rows = Array.from({ length: 1234 }, (_, i) => ({
      companyId: acme.company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      checkInAt: new Date(base + Math.floor(i / 2) * 60_000),
      checkOutAt: new Date(base + Math.floor(i / 2) * 60_000 + 30_000),
      checkInMethod: 'scan' as const,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await ctx.db.insert(visitorChecks).values(rows.slice(i, i + 500));

    const query = { page: 1, per_page: 10 } as Parameters<typeof streamVisitorLog>[1];
    const seen: { at: number; id: string }[] = [];
    for await (const row of streamVisitorLog(ctx.db, query, acme.company.id, 50_000))
      seen.push({ at: row.checkInAt.getTime(), id: row.id });
    expect(seen).toHaveLength(1234);
    expect(new Set(seen.map((r) => r.id)).size).toBe(1234);
    const sorted = [...seen].sort(
      (a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
    expect(seen).toEqual(sorted);

    let capped = 0;
    for await (const _ of streamVisitorLog(ctx.db, query, acme.company.id, 700)) capped += 1;
    expect(capped).toBe(700);

    const token = await tokenFor(ctx.app, acme.staff.ROLE_SUPERVISOR.email);
    const res = await as(ctx.app, token)({ method: 'GET', url: '/api/visitorlog/export' });
    expect(res.statusCode).toBe(200);
    const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(1 + 1234 + 1);
    expect(lines[1]).toMatch(/^Flux;/);
  });

  it('loses no row whose instant has microseconds JavaScript cannot hold', async () => {
    const acme = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    // 1,100 checks at one instant with microseconds, written by the database itself
    // (a JavaScript Date would round them to the millisecond).
    await ctx.db.execute(sql`
      insert into visitor_checks (id, company_id, site_id, visitor_id, check_in_at, check_out_at, check_in_method)
      select gen_random_uuid(), ${acme.company.id}, ${visitor.siteId}, ${visitor.id},
             timestamptz '2031-02-03 10:00:00.123456+00', timestamptz '2031-02-03 10:30:00+00', 'scan'
      from generate_series(1, 1100)`);
    const query = { page: 1, per_page: 10 } as Parameters<typeof streamVisitorLog>[1];
    let count = 0;
    for await (const _ of streamVisitorLog(ctx.db, query, acme.company.id, 50_000)) count += 1;
    expect(count).toBe(1100);
  });

  it('an empty range is the header alone', async () => {
    const acme = await buildTenant(ctx.db);
    const token = await tokenFor(ctx.app, acme.staff.ROLE_SUPERVISOR.email);
    const res = await as(ctx.app, token)({ method: 'GET', url: '/api/visitorlog/export' });
    expect(res.statusCode).toBe(200);
    const text = res.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFFPrénom;Nom;')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(2);
  });
});
