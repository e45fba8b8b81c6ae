/**
 * `npm run bench -- dashboard` (issue 35, "fast at size"), on PostgreSQL: the dashboard's
 * queries at a company's two years of history — 20 sites in four time zones, 300 hosts,
 * 200,000 visitors and their requests (meetings asked for and answered after a delay,
 * some declined, cancelled or never answered; invitations of one or several days, daily
 * or weekly, with their invitation_days; event registrations), and 1,000,000 visitor
 * checks (arrivals through the day with a morning peak, lengths by kind of visit, a
 * second arrival after lunch for some, ~5 % automatic check-outs, ~1 % undone, some
 * no-shows, today's visitors still inside). Written set-based (generate_series, a fixed
 * seed), each table in time order as the desk writes it, then VACUUM ANALYZE.
 *
 * It prints, for the periods 'today', 7 days, 30 days and the longest (366 days), of all
 * sites and of the busiest site:
 *   - each query of DASHBOARD_QUERIES (dashboard/figures.ts) alone, p50 and p95 of
 *     SAMPLES calls after a warm-up (each reads the period and the previous one);
 *   - the whole GET /api/dashboard through the real server (bench/serve.ts), p50 and p95;
 *   - the EXPLAIN (ANALYZE, BUFFERS) plan of the slowest query's slowest statement.
 * Budget: every query p95 < 100 ms. Daily aggregates, written by a sweep and not in the
 * check's transaction: the settled days (ended 2 days ago) are summarized first, as a
 * server's background sweep would have (its time is printed), the last days are read
 * from the checks; the plans printed say how. Why not counters in the check's
 * transaction: a per-site, per-day row updated by every check would make the desk's
 * concurrent check-ins wait on one row lock, and the code check's throughput is budgeted
 * (`npm run bench -- checkin`).
 *
 * The machine's load average is printed with the figures (the machine may be shared).
 * BENCH_DASHBOARD_SAMPLES=n changes the samples per figure (30); BENCH_DASHBOARD_KEEP=1
 * keeps the database at the end (its name is printed), to try an index on it by hand.
 * BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local server) names the
 * PostgreSQL server; the benchmark creates and drops its own database there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { addDays } from '@sesame/shared';
import { DEFAULT_DATABASE_TIMEOUTS } from '../apps/server/src/db/availability';
import { openPostgres, type Database, type DatabaseHandle } from '../apps/server/src/db/client';
import { databaseOn, onConnection } from '../apps/server/src/db/one-connection';
import {
  DASHBOARD_QUERIES,
  localDay,
  type DashboardScope,
} from '../apps/server/src/dashboard/figures';
import {
  DASHBOARD_SETTLED_DAYS,
  lastSettledDay,
  summarizeSettledDays,
} from '../apps/server/src/dashboard/summary';
import { freePort } from '../e2e/support/server';

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * BENCH_DASHBOARD_REUSE=name runs on a database an earlier run kept (BENCH_DASHBOARD_KEEP=1)
 * instead of seeding a new one: the sweep then only summarizes what it lacks (after a
 * change to the summary's tables, say), and the database is kept again.
 */
const REUSE = process.env.BENCH_DASHBOARD_REUSE;
/** Its own name per run: other benchmarks may run on the same server at the same time. */
const DATABASE = REUSE ?? `sesame_bench_dashboard_${process.pid}`;
const SITES = 20;
const HOSTS = 300;
const HISTORY_DAYS = 730;
const CHECKS = 1_000_000;
/** 200,000 visitors: meetings, invited visitors (two per invitation), event guests. */
const MEETINGS = 135_000;
const INVITATIONS = 27_500;
const EVENTS = 200;
const EVENT_GUESTS = 10_000;
const SAMPLES = Number(process.env.BENCH_DASHBOARD_SAMPLES ?? 30);
const WARMUP = 3;
const SLOW_MS = 1_000;
const SLOW_SAMPLES = 5;
/** BENCH_DASHBOARD_KEEP=1 keeps the seeded database (to try an index by hand), named at the end. */
const KEEP = process.env.BENCH_DASHBOARD_KEEP === '1' || REUSE !== undefined;
const BUDGET_MS = 100;
/** The sites' zones: eight in Paris, six in Abidjan, three in Casablanca, three in Toronto. */
const ZONES = [
  ...Array<string>(8).fill('Europe/Paris'),
  ...Array<string>(6).fill('Africa/Abidjan'),
  ...Array<string>(3).fill('Africa/Casablanca'),
  ...Array<string>(3).fill('America/Toronto'),
];
const VIEWER = { email: 'bench-dashboard@sesame.test', password: 'Bench-Password-123' };
const PERIODS = [
  { name: 'today', days: 1 },
  { name: '7 days', days: 7 },
  { name: '30 days', days: 30 },
  { name: '366 days', days: 366 },
] as const;

const admin = <T>(work: (client: pg.Client) => Promise<T>) => onConnection(SERVER_URL, work);
const count = (n: number) => n.toLocaleString('en');
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** SQL turning a row number into a code-shaped uidn: 'ABCD-EFGH-JKMN'. */
const UIDN_OF = (n: string) =>
  `overlay(overlay(lpad(upper(to_hex(${n})), 12, '0') placing '-' from 5 for 0) placing '-' from 10 for 0)`;

/**
 * One company of 20 sites and its two years. `now` is the bench's clock: nothing happens
 * after it (today's later arrivals are not there yet, today's visitors still inside have
 * no departure). Returns the busiest site's id.
 */
async function seed(db: pg.Client, now: Date): Promise<string> {
  const { hashPassword } = await import('../apps/server/src/auth/passwords');
  const hash = await hashPassword(VIEWER.password);
  const at = now.toISOString();
  const step = async (what: string, statements: string, values: unknown[] = []) => {
    const started = performance.now();
    await db.query(statements, values);
    console.log(`  ${what} (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  };
  // random() below follows this seed: the same history at every run (relative to `now`).
  await db.query('select setseed(0.35)');
  // The rows are written consistent; their foreign keys' checks (a trigger per row and key,
  // four million for the checks alone) are left out while seeding.
  await db.query(`set session_replication_role = replica`);
  await step(
    'company, 20 sites, 3 visitor types each, 300 hosts and the viewer',
    `
    insert into companies (id, name, slug) values (gen_random_uuid(), 'Bench Dashboard', 'bench-dashboard');
    insert into sites (id, company_id, name, timezone, short_code, arrival_early_minutes, day_end)
      select gen_random_uuid(), c.id, 'Site ' || lpad(g::text, 2, '0'), (array['${ZONES.join("','")}'])[g],
             'S' || lpad(g::text, 2, '0'), 30, '20:00'
        from companies c, generate_series(1, ${SITES}) g where c.slug = 'bench-dashboard';
    create table bench_site as
      select row_number() over (order by s.name)::int as n, s.id, s.company_id, s.timezone as tz,
             (timestamptz '${at}' at time zone s.timezone)::date as today
        from sites s;
    insert into visitor_types (id, company_id, site_id, name_fr, name_en, color, position)
      select gen_random_uuid(), s.company_id, s.id, t.fr, t.en, t.color, t.k
        from bench_site s,
             (values (1, 'Réunion', 'Meeting', '#1E88E5'), (2, 'Prestataire', 'Contractor', '#F4511E'),
                     (3, 'Livraison', 'Delivery', '#43A047')) t(k, fr, en, color);
    create table bench_type as
      select s.n as site_n, t.position as k, t.id from visitor_types t join bench_site s on s.id = t.site_id;
    insert into users (id, company_id, name, firstname, email, password_hash, roles)
      select gen_random_uuid(), c.id, 'Hôte ' || g,
             (array['Awa','Jean','Marie','Moussa','Fatou','Paul','Aya','Sophie','Koffi','Nadia'])[1 + g % 10],
             'host' || g || '@bench.test', '${hash}', array['ROLE_EMPLOYEE']
        from companies c, generate_series(1, ${HOSTS}) g where c.slug = 'bench-dashboard';
    create table bench_host as
      select row_number() over (order by u.email)::int as n, u.id, u.firstname || ' ' || u.name as name
        from users u where u.email like 'host%@bench.test';
    insert into users (id, company_id, name, firstname, email, password_hash, roles)
      select gen_random_uuid(), id, 'Direction', 'Bench', '${VIEWER.email}', '${hash}', array['ROLE_SUPER_ADMIN']
        from companies where slug = 'bench-dashboard';
  `,
  );

  // Meetings: a day in the two years (weekends mostly moved to the Friday or Monday before),
  // a request made days before (a fifth are walk-ins, the same day), answered after a delay
  // of a minute to two days (7 % never), 88 % of answers yes, 2 % cancelled; 88 % come.
  // Busier sites first: site 1 gets about 15 % of the visits, site 20 about 2.5 %.
  await step(
    `${count(MEETINGS)} meetings`,
    `
    create table bench_meeting as
    with base as (
      select g, 1 + least(${SITES - 1}, floor(${SITES} * power(random(), 1.6)))::int as site_n,
             floor(random() * ${HISTORY_DAYS})::int as d, random() as r_week, random() as r_walk,
             random() as r_lead, random() as r_dec, random() as r_delay, random() as r_conf,
             random() as r_cancel, random() as r_host, 1 + floor(${HOSTS} * power(random(), 2))::int as host_n,
             random() as r_type, random() as r_came
        from generate_series(1, ${MEETINGS}) g
    ), dayed as (
      select b.*, s.id as site_id, s.tz, s.today - ${HISTORY_DAYS - 1} + b.d as day0
        from base b join bench_site s on s.n = b.site_n
    ), shifted as (
      select d.*, case when extract(isodow from day0) = 6 and r_week < 0.85 then day0 - 1
                       when extract(isodow from day0) = 7 and r_week < 0.85 then day0 - 2
                       else day0 end as day
        from dayed d
    ), timed as (
      select s.*, (day::timestamp at time zone tz) as day_start,
             ((day + 1)::timestamp at time zone tz) as day_end,
             least(timestamptz '${at}' - interval '1 minute',
                   case when r_walk < 0.2 then (day::timestamp at time zone tz) + (480 + r_lead * 480) * interval '1 minute'
                        else (day::timestamp at time zone tz) + interval '9 hours' - r_lead * r_lead * 14 * interval '1 day'
                   end) as created_at
        from shifted s
    ), decided as (
      select t.*, case when r_dec < 0.93 then t.created_at + exp(r_delay * ln(case when r_walk < 0.2 then 60 else 2880 end)) * interval '1 minute' end as answer_at
        from timed t
    )
    select gen_random_uuid() as id, g, site_n, site_id, tz, day, day_start, day_end, created_at,
           case when answer_at <= timestamptz '${at}' then answer_at end as decided_at,
           case when answer_at <= timestamptz '${at}' then r_conf < 0.88 end as confirmed,
           case when answer_at <= timestamptz '${at}' and r_conf < 0.88 and r_cancel < 0.02
                then least(answer_at + interval '1 hour', timestamptz '${at}') end as cancelled_at,
           host_n, r_host < 0.9 as host_is_user,
           case when r_type < 0.7 then 1 when r_type < 0.8 then 2 when r_type < 0.85 then 3 end as type_k,
           r_came < 0.88 as came
      from decided;
  `,
  );

  // Invitations: a first day in the two years or the next three weeks, one day (40 %) or
  // several, weekly or every weekday, up to a year ahead; 3 % cancelled, 3 % of days
  // cancelled; two visitors each.
  await step(
    `${count(INVITATIONS)} invitations and their days`,
    `
    create table bench_invitation as
    with base as (
      select g, 1 + least(${SITES - 1}, floor(${SITES} * power(random(), 1.6)))::int as site_n,
             floor(random() * ${HISTORY_DAYS + 21})::int as d, random() as r_kind, random() as r_len,
             random() as r_lead, random() as r_cancel, 1 + floor(${HOSTS} * power(random(), 2))::int as host_n,
             random() as r_type
        from generate_series(1, ${INVITATIONS}) g
    ), dayed as (
      select b.*, s.id as site_id, s.company_id, s.tz, s.today,
             s.today - ${HISTORY_DAYS - 1} + b.d as day0
        from base b join bench_site s on s.n = b.site_n
    )
    select gen_random_uuid() as id, g, site_n, site_id, company_id, tz, today, host_n,
           case extract(isodow from day0) when 6 then day0 + 2 when 7 then day0 + 1 else day0 end as first_day,
           case when r_kind < 0.4 then 'once' when r_kind < 0.7 then 'weekly' else 'weekdays' end as kind,
           case when r_kind < 0.4 then 1 else 2 + floor(power(r_len, 1.5) * 58)::int end as days,
           r_lead, r_cancel < 0.03 as cancelled,
           case when r_type < 0.8 then 2 else 1 end as type_k
      from dayed;
    create table bench_invitation_day as
      select i.id as invitation_id, i.g, day, (day::timestamp at time zone i.tz) as starts_at,
             ((day + 1)::timestamp at time zone i.tz) as ends_at, random() < 0.03 as cancelled
        from bench_invitation i,
             lateral (select case i.kind when 'weekly' then i.first_day + 7 * j else i.first_day + j end as day
                        from generate_series(0, case i.kind when 'weekdays' then (i.days * 7) / 5 else i.days - 1 end) j) d
       where extract(isodow from day) < 6 and day <= i.today + 365;
  `,
  );

  await step(
    `${EVENTS} events`,
    `
    create table bench_event as
    with base as (
      select g, 1 + least(${SITES - 1}, floor(${SITES} * power(random(), 1.6)))::int as site_n,
             floor(random() * ${HISTORY_DAYS + 30})::int as d
        from generate_series(1, ${EVENTS}) g
    )
    select gen_random_uuid() as id, g, s.id as site_id, s.company_id, s.tz,
           s.today - ${HISTORY_DAYS - 1} + d as day,
           ((s.today - ${HISTORY_DAYS - 1} + d)::timestamp at time zone s.tz) as day_start,
           ((s.today - ${HISTORY_DAYS - 1} + d + 1)::timestamp at time zone s.tz) as day_end
      from base b join bench_site s on s.n = b.site_n;
    insert into events (id, company_id, site_id, name, slug, location, address_name, date_event, time_event,
                        starts_at, day_starts_at, day_ends_at, created_at)
      select id, company_id, site_id, 'Événement ' || g, 'evenement-' || g, 'Grande salle', 'Siège',
             to_char(day, 'DD/MM/YYYY'), '14:00', day_start + interval '14 hours', day_start, day_end,
             least(day_start - interval '30 days', timestamptz '${at}')
        from bench_event order by day_start;
    create table bench_guest as
      select gen_random_uuid() as id, k as g, e.id as event_id, e.site_id, e.tz, e.day_start, e.day_end,
             least(e.day_start - random() * interval '20 days', timestamptz '${at}') as created_at,
             random() < 0.7 as came
        from (select k, 1 + (k * 7919 + floor(random() * 3)::int) % ${EVENTS} as event_n
                from generate_series(1, ${EVENT_GUESTS}) k) guest
        join bench_event e on e.g = guest.event_n;
  `,
  );

  // The visitors, their requests, the invitations and their days, in time order.
  await step(
    `${count(MEETINGS + 2 * INVITATIONS + EVENT_GUESTS)} visitors and their requests, ${count(INVITATIONS)} invitations`,
    `
    insert into invitations (id, company_id, site_id, host_user_id, reason, first_date, time, end_time, rrule,
                             visitor_type_id, cancelled_at, created_at)
      select i.id, i.company_id, i.site_id, h.id, 'Intervention', to_char(i.first_day, 'DD/MM/YYYY'), '08:30', '17:30',
             case i.kind when 'weekly' then 'FREQ=WEEKLY;COUNT=' || i.days
                         when 'weekdays' then 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=' || i.days end,
             t.id, case when i.cancelled then timestamptz '${at}' end,
             least((i.first_day::timestamp at time zone i.tz) - i.r_lead * i.r_lead * interval '10 days' + interval '10 hours',
                   timestamptz '${at}' - interval '1 minute')
        from bench_invitation i join bench_host h on h.n = i.host_n
        left join bench_type t on t.site_n = i.site_n and t.k = i.type_k
       order by 12;
    insert into invitation_days (id, company_id, invitation_id, day, starts_at, ends_at, cancelled_at)
      select gen_random_uuid(), i.company_id, d.invitation_id, d.day, d.starts_at, d.ends_at,
             case when d.cancelled then timestamptz '${at}' end
        from bench_invitation_day d join bench_invitation i on i.id = d.invitation_id
       order by d.starts_at;
    create table bench_visitor as
      select m.id, m.g as n, m.site_id, null::uuid as event_id, null::uuid as invitation_id, t.id as type_id,
             case when m.type_k is null then (array['Autre', '', null])[1 + m.g % 3] end as type_text,
             m.day_start, m.day_end, m.created_at
        from bench_meeting m left join bench_type t on t.site_n = m.site_n and t.k = m.type_k
      union all
      select gen_random_uuid(), ${MEETINGS} + 2 * i.g - pair, i.site_id, null, i.id, t.id, null,
             (i.first_day::timestamp at time zone i.tz), coalesce(last.ends_at, (i.first_day + 1)::timestamp at time zone i.tz),
             r.created_at
        from bench_invitation i join invitations r on r.id = i.id
        left join (select invitation_id, max(ends_at) as ends_at from bench_invitation_day group by 1) last
          on last.invitation_id = i.id
        left join bench_type t on t.site_n = i.site_n and t.k = i.type_k, generate_series(0, 1) pair
      union all
      select g.id, ${MEETINGS + 2 * INVITATIONS} + g.g, g.site_id, g.event_id, null, null, null,
             g.day_start, g.day_end, g.created_at
        from bench_guest g;
    insert into visitors (id, company_id, site_id, event_id, uidn, firstname, lastname, email, contact,
                          id_number, organisation_name, visitor_type, visitor_type_id, request_date,
                          request_time, day_starts_at, day_ends_at, created_at)
      select v.id, c.id, v.site_id, v.event_id, ${UIDN_OF('v.n')}, 'Visiteur', 'N' || v.n,
             'v' || v.n || '@example.com', '0700000000', 'ID-' || v.n, 'Acme', v.type_text, v.type_id,
             to_char(v.day_start, 'DD/MM/YYYY'), '09:00', v.day_start, v.day_end, v.created_at
        from bench_visitor v, companies c where c.slug = 'bench-dashboard'
       order by v.created_at;
    insert into visit_requests (id, company_id, visitor_id, host_user_id, host, reason, status, confirmed,
                                decided_at, invitation_id, cancelled_at, created_at)
      select gen_random_uuid(), v.company_id, x.visitor_id, x.host_user_id, x.host, x.reason, x.status,
             x.confirmed, x.decided_at, x.invitation_id, x.cancelled_at, v.created_at
        from (
          select m.id as visitor_id, case when m.host_is_user then h.id end as host_user_id,
                 case when m.host_is_user then h.name else 'M. Traoré' end as host, 'Réunion' as reason,
                 case when m.confirmed then 1 when not m.confirmed then 2 end as status, m.confirmed,
                 m.decided_at, null::uuid as invitation_id, m.cancelled_at
            from bench_meeting m join bench_host h on h.n = m.host_n
          union all
          select b.id, r.host_user_id, h.name, 'Intervention', case when r.cancelled_at is null then 1 else 2 end,
                 r.cancelled_at is null, r.created_at, r.id, r.cancelled_at
            from bench_visitor b join invitations r on r.id = b.invitation_id
            join bench_host h on h.id = r.host_user_id
          union all
          select g.id, null, null, 'Événement', 1, true, g.created_at, null, null from bench_guest g
        ) x join visitors v on v.id = x.visitor_id
       order by v.created_at;
  `,
  );

  // The visits that happened: a meeting confirmed and not cancelled (88 % came), each
  // invitation day neither cancelled (85 % came), an event (70 % came); none after now.
  // Each gets an arrival: 65 % around 9:00 (a normal spread of 40 minutes), the others
  // through the working day; events at 14:00. Lengths: meetings 20 minutes to 4 hours,
  // invited contractors 4 to 9 hours, events 1 to 3 hours, the latest leaving by 19:55;
  // 5 % are the automatic check-out at the site's day end (20:00); 1 % undone.
  await step(
    'visits that happened and their first arrivals',
    `
    create table bench_visit as
      select m.id as visitor_id, m.site_id, m.day_start, 'meeting' as kind
        from bench_meeting m where m.confirmed and m.cancelled_at is null and m.came
      union all
      select b.id, i.site_id, d.starts_at, 'invited'
        from bench_invitation_day d join bench_invitation i on i.id = d.invitation_id
        join bench_visitor b on b.invitation_id = i.id
       where not i.cancelled and not d.cancelled and random() < 0.85
      union all
      select g.id, g.site_id, g.day_start, 'event' from bench_guest g where g.came;
    create table bench_check as
    with timed as (
      select v.*, random() as r_peak, random() as r_len, random() as r_auto, random() as r_undo,
             random() as r_method,
             case when v.kind = 'event' then 840 + (random() - 0.5) * 60
                  when random() < 0.65
                  then greatest(420, least(1140, 540 + 40 * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random())))
                  else 480 + random() * 540 end as in_minute
        from bench_visit v
    ), lengths as (
      select t.*, t.day_start + t.in_minute * interval '1 minute' as check_in_at,
             case t.kind when 'meeting' then exp(ln(20) + r_len * ln(12))
                         when 'invited' then 240 + r_len * 300
                         else 60 + r_len * 120 end as length_minutes
        from timed t
    )
    select l.visitor_id, l.site_id, l.day_start, l.kind, l.check_in_at, l.r_undo < 0.01 as undone,
           case when l.r_undo < 0.01 then null
                when l.r_auto < 0.05 then l.day_start + interval '20 hours'
                else least(l.check_in_at + l.length_minutes * interval '1 minute',
                           l.day_start + interval '19 hours 35 minutes' + l.r_len * interval '20 minutes') end
             as check_out_at,
           case when l.r_undo < 0.01 then null when l.r_auto < 0.05 then 'automatic'
                when l.r_method < 0.85 then 'scan' else 'manual' end as check_out_method,
           case when l.kind = 'event' or l.r_method < 0.8 then 'scan' when l.r_method < 0.92 then 'manual' else 'kiosk' end
             as check_in_method
        from lengths l
       where l.check_in_at <= timestamptz '${at}';
  `,
  );
  // A second arrival after lunch for some visits (out 30 to 90 minutes, back for 1 to 3
  // hours), as many as make the checks CHECKS in all.
  await step(
    'second arrivals after lunch, up to a million checks',
    `
    create table bench_check2 as
    with later as (
      select c.visitor_id, c.site_id, c.day_start, c.kind,
             c.check_out_at + (30 + random() * 60) * interval '1 minute' as check_in_at,
             random() as r_len, random() as r_auto, random() as r_undo, random() as r_method, random() as rank
        from bench_check c
       where not c.undone and c.check_out_method is distinct from 'automatic' and c.kind <> 'event'
    )
    select l.visitor_id, l.site_id, l.day_start, l.kind, l.check_in_at, l.r_undo < 0.01 as undone,
           case when l.r_undo < 0.01 then null
                when l.r_auto < 0.05 then l.day_start + interval '20 hours'
                else least(l.check_in_at + (60 + l.r_len * 120) * interval '1 minute', l.day_start + interval '20 hours') end
             as check_out_at,
           case when l.r_undo < 0.01 then null when l.r_auto < 0.05 then 'automatic'
                when l.r_method < 0.85 then 'scan' else 'manual' end as check_out_method,
           'scan' as check_in_method, l.rank
      from later l
     where l.check_in_at < l.day_start + interval '19 hours 30 minutes'
       and l.check_in_at <= timestamptz '${at}';
  `,
  );
  const { rows: firsts } = await db.query<{ n: string }>('select count(*) as n from bench_check');
  const seconds = Math.max(0, CHECKS - Number(firsts[0]!.n));
  await step(
    `${count(CHECKS)} visitor checks (${count(Number(firsts[0]!.n))} first arrivals, ${count(seconds)} second), in time order`,
    `
    insert into visitor_checks (id, company_id, site_id, visitor_id, check_in_at, check_out_at, check_in_method,
                                check_out_method, check_in_by, undone_at, undo_reason, created_at)
      select gen_random_uuid(), s.company_id, c.site_id, c.visitor_id, c.check_in_at,
             case when c.check_out_at <= timestamptz '${at}' then c.check_out_at end,
             c.check_in_method,
             case when c.check_out_at <= timestamptz '${at}' then c.check_out_method end,
             h.id, case when c.undone then c.check_in_at + interval '3 minutes' end,
             case when c.undone then 'Erreur de saisie' end, c.check_in_at
        from (
          (select visitor_id, site_id, check_in_at, check_out_at, check_out_method, check_in_method, undone
             from bench_check limit ${CHECKS})
          union all
          (select visitor_id, site_id, check_in_at, check_out_at, check_out_method, check_in_method, undone
             from bench_check2 order by rank limit ${seconds})
        ) c
        join bench_site s on s.id = c.site_id
        join bench_host h on h.n = 1 + (hashtext(c.visitor_id::text) & 2147483647) % ${HOSTS}
       order by c.check_in_at;
  `,
  );
  await step(
    'the seed tables dropped; VACUUM ANALYZE',
    `
    drop table bench_check, bench_check2, bench_visit, bench_visitor, bench_guest, bench_event,
               bench_invitation_day, bench_invitation, bench_meeting, bench_host, bench_type;
  `,
  );
  await db.query(`reset session_replication_role`);
  const { rows: busiest } = await db.query<{ id: string }>('select id from bench_site where n = 1');
  await db.query('drop table bench_site');
  await db.query('vacuum analyze');
  return busiest[0]!.id;
}

/** What the database holds, said with the figures. */
async function describe(db: pg.Client): Promise<string> {
  const { rows } = await db.query<Record<string, string>>(`
    select (select count(*) from visitor_checks) as checks,
           (select count(*) from visitor_checks where undone_at is not null) as undone,
           (select count(*) from visitor_checks where check_out_method = 'automatic') as automatic,
           (select count(*) from visitor_checks where check_out_at is null and undone_at is null) as inside,
           (select count(*) from visitors) as visitors,
           (select count(*) from visit_requests) as requests,
           (select count(*) from visit_requests where invitation_id is null and decided_at is not null) as answered,
           (select count(*) from invitations) as invitations,
           (select count(*) from invitation_days) as invitation_days,
           (select count(*) from events) as events,
           (select count(*) from visitors where event_id is not null) as guests,
           (select min(check_in_at)::date::text from visitor_checks) as first,
           (select max(check_in_at)::date::text from visitor_checks) as last,
           pg_size_pretty(pg_total_relation_size('visitor_checks')) as checks_size,
           pg_size_pretty(pg_indexes_size('visitor_checks')) as checks_indexes`);
  const r = rows[0]!;
  const n = (k: string) => count(Number(r[k]));
  return (
    `${n('checks')} visitor checks from ${r.first} to ${r.last} (${n('undone')} undone, ${n('automatic')} automatic check-outs, ${n('inside')} inside now; ` +
    `table and indexes ${r.checks_size}, of which indexes ${r.checks_indexes}), ${n('visitors')} visitors, ` +
    `${n('requests')} requests (${n('answered')} answered, not invitations), ${n('invitations')} invitations of ${n('invitation_days')} days, ` +
    `${n('events')} events with ${n('guests')} registrations`
  );
}

interface Child {
  url: string;
  stop(): Promise<void>;
}

async function serve(): Promise<Child> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-'));
  const child: ChildProcess = fork(path.join(import.meta.dirname, 'serve.ts'), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      BENCH_MODE: 'app',
      PORT: String(port),
      DATABASE_URL: databaseOn(SERVER_URL, DATABASE),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: VIEWER.email, password: VIEWER.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

interface Timing {
  p50: number;
  p95: number;
  max: number;
  samples: number;
  failed: number;
}

/**
 * WARMUP unmeasured calls, then SAMPLES measured one after another: p50, p95 (nearest
 * rank), the calls that failed. A call whose warm-up took over SLOW_MS is far over budget
 * whatever its p95: SLOW_SAMPLES of it are enough (marked), so that a run ends.
 */
async function timed(call: () => Promise<unknown>): Promise<Timing> {
  let failed = 0;
  const once = async () => {
    const started = performance.now();
    await call().catch(() => failed++);
    return performance.now() - started;
  };
  let warm = 0;
  for (let i = 0; i < WARMUP; i++) warm = Math.max(warm, await once());
  failed = 0;
  const samples = warm > SLOW_MS ? SLOW_SAMPLES : SAMPLES;
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await once());
  times.sort((a, b) => a - b);
  const rank = (q: number) => times[Math.max(0, Math.ceil(q * times.length) - 1)]!;
  return { p50: rank(0.5), p95: rank(0.95), max: times[times.length - 1]!, samples, failed };
}

/** A figure as printed: p50 / p95, '!' over budget, '*' fewer samples, failed calls. */
function cell(t: Timing): string {
  return (
    `${t.p50.toFixed(1)} / ${t.p95.toFixed(1)}` +
    (t.p95 < BUDGET_MS ? ' ' : '!') +
    (t.samples < SAMPLES ? '*' : ' ') +
    (t.failed ? ` (${t.failed} failed)` : '')
  );
}

/** The database handle with every statement it runs kept in `into` (for EXPLAIN). */
function recording(db: Database, into: SQL[]): Database {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'execute') {
        return (query: SQL) => {
          into.push(query);
          return target.execute(query);
        };
      }
      // Each read runs in its own transaction (figures.ts): record its statements too.
      if (prop === 'transaction') {
        return <T>(
          work: (tx: Database) => Promise<T>,
          config?: Parameters<Database['transaction']>[1],
        ) => target.transaction((tx) => work(recording(tx as unknown as Database, into)), config);
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
}

type QueryName = keyof typeof DASHBOARD_QUERIES;
interface Case {
  period: (typeof PERIODS)[number];
  sites: 'all sites' | 'site 1';
  scope: DashboardScope;
}

/** EXPLAIN (ANALYZE, BUFFERS) of each statement the query runs; the slowest one's plan. */
async function slowestPlan(
  handle: DatabaseHandle,
  client: pg.Client,
  query: QueryName,
  scope: DashboardScope,
): Promise<{ ms: number; plan: string }> {
  const statements: SQL[] = [];
  await DASHBOARD_QUERIES[query](recording(handle.db, statements), scope);
  const dialect = new PgDialect();
  // As each read sets them for its own transaction (figures.ts).
  await client.query(`set jit = off; set work_mem = '32MB'`);
  let slowest = { ms: -1, plan: '' };
  for (const statement of statements) {
    const { sql: text, params } = dialect.sqlToQuery(statement);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${text}`,
      params,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
    if (ms > slowest.ms) slowest = { ms, plan };
  }
  return slowest;
}

export async function run(): Promise<void> {
  if (!REUSE) {
    await admin(async (db) => {
      await db.query(`drop database if exists ${DATABASE} with (force)`);
      await db.query(`create database ${DATABASE}`);
    });
  }
  const url = databaseOn(SERVER_URL, DATABASE);
  const client = new pg.Client({ connectionString: url });
  let handle: DatabaseHandle | null = null;
  let server: Child | null = null;
  try {
    // Migrates the new database; its statements may take long while the seed is written.
    handle = await openPostgres(url, 10, { connectMs: 5_000, statementMs: 600_000 });
    await client.connect();
    const now = new Date();
    let busiest: string;
    if (REUSE) {
      busiest = (await client.query<{ id: string }>(`select id from sites where name = 'Site 01'`))
        .rows[0]!.id;
      console.log(`reusing ${REUSE}: ${await describe(client)}`);
    } else {
      console.log(`seeding two years of one company (load average ${load()})…`);
      const started = performance.now();
      busiest = await seed(client, now);
      console.log(
        `seeded in ${((performance.now() - started) / 1000).toFixed(0)} s: ${await describe(client)}`,
      );
    }
    // The sweep of a server that ran those two years: every settled day summarized.
    const sweep = performance.now();
    let summarized = 0;
    let months = 0;
    for (;;) {
      const n = await summarizeSettledDays(handle.db, { now, batches: 50 });
      summarized += n.days;
      months += n.months;
      if (n.days + n.months === 0) break;
    }
    await client.query(
      'vacuum analyze dashboard_days, dashboard_summaries, dashboard_company_days, dashboard_months, dashboard_month_summaries',
    );
    const { rows: kept } = await client.query<{ rows: string; size: string }>(
      `select count(*)::text as rows, pg_size_pretty(pg_total_relation_size('dashboard_days')) as size from dashboard_days
       union all
       select count(*)::text, pg_size_pretty(pg_total_relation_size('dashboard_months')) from dashboard_months`,
    );
    console.log(
      `summary of the settled days (up to ${lastSettledDay(now)}): ${count(summarized)} company days and ${count(months)} company months in ${((performance.now() - sweep) / 1000).toFixed(0)} s, ${count(Number(kept[0]!.rows))} rows in dashboard_days (${kept[0]!.size}) and ${count(Number(kept[1]!.rows))} in dashboard_months (${kept[1]!.size}); the ${DASHBOARD_SETTLED_DAYS + 2} days after it are read from the checks`,
    );
    const today = localDay(now, 'Europe/Paris');
    const company = (
      await client.query<{ id: string }>(`select id from companies where slug = 'bench-dashboard'`)
    ).rows[0]!.id;
    const cases: Case[] = PERIODS.flatMap((period) =>
      (['all sites', 'site 1'] as const).map((sites) => ({
        period,
        sites,
        scope: {
          companyId: company,
          siteIds: sites === 'site 1' ? [busiest] : undefined,
          from: addDays(today, 1 - period.days),
          to: today,
          now,
        },
      })),
    );

    // ── Each query alone ─────────────────────────────────────────────────
    console.log(
      `\neach query alone (readDashboard's parts; each reads the period and the previous one), p50 / p95 of ${SAMPLES} calls after ${WARMUP} unmeasured, ms; budget p95 < ${BUDGET_MS} ms (! over, * only ${SLOW_SAMPLES} calls: its warm-up took over ${SLOW_MS} ms); load average ${load()}:`,
    );
    const names = Object.keys(DASHBOARD_QUERIES) as QueryName[];
    const row = (label: string, cells: string[]) =>
      console.log(`  ${label.padEnd(32)}${cells.map((c) => c.padStart(30)).join('')}`);
    row(
      'query, sites',
      PERIODS.map((p) => p.name),
    );
    const results: { query: QueryName; c: Case; t: Timing }[] = [];
    for (const query of names) {
      for (const sites of ['all sites', 'site 1'] as const) {
        const cells: string[] = [];
        for (const c of cases.filter((k) => k.sites === sites)) {
          const t = await timed(() => DASHBOARD_QUERIES[query](handle!.db, c.scope));
          results.push({ query, c, t });
          cells.push(cell(t));
        }
        row(`${query}, ${sites}`, cells);
      }
    }
    const over = results.filter((r) => r.t.p95 >= BUDGET_MS);
    console.log(
      `  ${over.length ? `${over.length} of ${results.length} over ${BUDGET_MS} ms: UNDER` : `every query p95 < ${BUDGET_MS} ms: ok`}; load average ${load()}`,
    );

    // ── The whole dashboard through the server ───────────────────────────
    server = await serve();
    const token = await login(server.url);
    console.log(
      `\nGET /api/dashboard (the real server: every query of the answer, its pool of 10 connections, its ${DEFAULT_DATABASE_TIMEOUTS.statementMs / 1000} s statement timeout), p50 / p95, ms:`,
    );
    const dashboards: string[] = [];
    for (const sites of ['all sites', 'site 1'] as const) {
      const cells: string[] = [];
      for (const c of cases.filter((k) => k.sites === sites)) {
        const query = new URLSearchParams({ from: c.scope.from, to: c.scope.to });
        if (c.scope.siteIds) query.set('site', c.scope.siteIds[0]!);
        const t = await timed(async () => {
          const res = await fetch(`${server!.url}/api/dashboard?${query}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`dashboard ${res.status}`);
        });
        cells.push(cell(t));
        dashboards.push(`${c.period.name}, ${sites}: ${cell(t)}`);
      }
      row(`GET /api/dashboard, ${sites}`, cells);
    }
    console.log(`  load average ${load()}`);

    // ── Plans ────────────────────────────────────────────────────────────
    const slowest = results.reduce((a, b) => (b.t.p95 > a.t.p95 ? b : a));
    const worst = await slowestPlan(handle, client, slowest.query, slowest.c.scope);
    console.log(
      `\nthe slowest query, ${slowest.query} (${slowest.c.period.name}, ${slowest.c.sites}: p95 ${slowest.t.p95.toFixed(1)} ms): its slowest statement's EXPLAIN (ANALYZE, BUFFERS), ${worst.ms.toFixed(1)} ms:`,
    );
    console.log(worst.plan.replace(/^/gm, '    '));
    const week = cases.find((c) => c.period.days === 7 && c.sites === 'all sites')!;
    const read = await slowestPlan(handle, client, 'arrivals', week.scope);
    console.log(
      `\nhow the checks are read: arrivals (7 days, all sites), EXPLAIN (ANALYZE, BUFFERS), ${read.ms.toFixed(1)} ms:`,
    );
    console.log(read.plan.replace(/^/gm, '    '));
    const year = cases.find((c) => c.period.days === 366 && c.sites === 'all sites')!;
    const summary = await slowestPlan(handle, client, 'arrivals', year.scope);
    console.log(
      `\nhow a year is read: arrivals (366 days, all sites), EXPLAIN (ANALYZE, BUFFERS), ${summary.ms.toFixed(1)} ms:`,
    );
    console.log(summary.plan.replace(/^/gm, '    '));
    console.log(
      "\nwhole settled months from dashboard_months (the company's own rows for all sites, each site's for one), the other settled days from dashboard_all_sites_days or dashboard_days (one range per run of days and figure of their primary keys), the last days from the checks through visitor_checks_site_in_idx (site_id, check_in_at, then what the dashboard reads of a check: an index-only scan), the requests, visitors and invitations through their own indexes.",
    );
  } finally {
    await server?.stop();
    await handle?.close();
    await client.end().catch(() => undefined);
    if (KEEP) console.log(`\nBENCH_DASHBOARD_KEEP=1: database ${DATABASE} kept`);
    else await admin((db) => db.query(`drop database if exists ${DATABASE} with (force)`));
  }
}
