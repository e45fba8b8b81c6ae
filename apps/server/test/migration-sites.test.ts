/**
 * Issue 28, migration 0026: each existing company gets one site from its own address, in the
 * zone it ran in, and every request, event, check, roll call and setting moves to it. Nothing
 * is lost: the schema of migration 0025 is filled with raw SQL (three companies: two in zones
 * 19 hours apart with their own day end and early arrivals, one archived with no address),
 * the server's own code migrates it, and every table keeps its count and every row, column
 * by column, but for the columns the migration adds or moves.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCompany } from '../src/companies/service';
import { MIGRATIONS_FOLDER, type DatabaseHandle } from '../src/db/client';
import { mainSite, siteHasHistory } from '../src/sites/service';
import { openDatabaseAt, type OldDatabase, type RawSql, type Row } from './helpers/migrations';
import { until } from './helpers/poll';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

// Companies: Nouméa (UTC+11) and Los Angeles (UTC-8), and an archived one left at the defaults.
const A = id(1);
const B = id(2);
const C = id(3);
// Users.
const aAdmin = id(11);
const aHost = id(12);
const bAdmin = id(13);
const bHost = id(14);
const cUser = id(15);
// Events, files.
const aEvent = id(21);
const bEvent = id(22);
const aImage = id(23);
// Visitors: a confirmed request, one waiting, one declined, an event guest, an anonymised one.
const v1 = id(31);
const v2 = id(32);
const v3 = id(33);
const v4 = id(34);
const v5 = id(35);
const v6 = id(36);
const v7 = id(37);
// QR users and members.
const aMember = id(41);
const aQr = id(42);
const bMember = id(43);
// Roll calls.
const aRollEnded = id(51);
const aRollOpen = id(52);
const bRollOpen = id(53);

const OLD_SCHEMA_DATA = `
INSERT INTO companies (id, name, slug, description, email, phone_number, country, city, state, address,
                       zipcode, timezone, day_end, arrival_early_minutes, kiosk_email_enabled,
                       retention_checks_days, privacy_notice, created_at)
VALUES
  ('${A}', 'Mairie de Nouméa', 'noumea', 'Accueil central', 'accueil@noumea.example', '+687 27 31 15',
   'NC', 'Nouméa', NULL, '16 rue du Général Mangin', '98800', 'Pacific/Noumea', '18:30', 15, true,
   400, 'Vos données restent en Nouvelle-Calédonie.', '2025-01-10T08:00:00Z'),
  ('${B}', 'Bright Labs', 'bright-labs', NULL, 'desk@bright.example', NULL,
   'US', 'Los Angeles', 'CA', '100 Main St', '90012', 'America/Los_Angeles', '22:00', 45, false,
   730, NULL, '2025-03-02T17:30:00Z');
INSERT INTO companies (id, name, slug, archived_at, created_at)
VALUES ('${C}', 'Ancienne Société', 'ancienne', '2026-01-05T00:00:00Z', '2024-06-01T00:00:00Z');

INSERT INTO users (id, company_id, name, firstname, email, password_hash, roles, status, language, arrival_mail, created_at)
VALUES
  ('${aAdmin}', '${A}', 'Wamytan', 'Léa', 'lea@noumea.example', 'x', '{ROLE_ADMIN}', true, 'fr', true, '2025-01-10T08:05:00Z'),
  ('${aHost}', '${A}', 'Tein', 'Paul', 'paul@noumea.example', 'x', '{ROLE_USER}', true, 'fr', true, '2025-01-11T08:05:00Z'),
  ('${bAdmin}', '${B}', 'Smith', 'Ann', 'ann@bright.example', 'x', '{ROLE_SUPER_ADMIN,ROLE_USER}', true, 'en', true, '2025-03-02T18:00:00Z'),
  ('${bHost}', '${B}', 'Jones', 'Bob', 'bob@bright.example', 'x', '{ROLE_USER}', false, 'en', false, '2025-03-03T18:00:00Z'),
  ('${cUser}', '${C}', 'Martin', 'Jean', 'jean@ancienne.example', 'x', '{ROLE_MANAGER}', true, 'fr', true, '2024-06-01T00:00:00Z');

INSERT INTO files (id, company_id, owner_type, owner_id, stored_name, original_name, media_type, size, sha256)
VALUES ('${aImage}', '${A}', 'visitor', '${v1}', 'a1b2.jpg', 'photo.jpg', 'image/jpeg', 1234, 'abc');

INSERT INTO events (id, company_id, name, slug, location, address_name, city, zipcode, country,
                    date_event, time_event, starts_at, created_by, day_starts_at, day_ends_at)
VALUES
  ('${aEvent}', '${A}', 'Forum des métiers', 'forum', 'Salle 1', 'Hôtel de ville', 'Nouméa', '98800', 'NC',
   '2026-11-20', '09:00', '2026-11-19T22:00:00Z', '${aAdmin}', '2026-11-19T13:00:00Z', '2026-11-20T13:00:00Z'),
  ('${bEvent}', '${B}', 'Open house', 'open-house', 'Lobby', 'HQ', 'Los Angeles', '90012', 'US',
   '2026-11-20', '10:00', '2026-11-20T18:00:00Z', NULL, '2026-11-20T08:00:00Z', '2026-11-21T08:00:00Z');

INSERT INTO visitors (id, company_id, event_id, uidn, firstname, lastname, email, contact, id_number,
                      organisation_name, city, country, visitor_type, request_date, request_time, language,
                      request_image_id, anonymised_at, day_starts_at, day_ends_at, created_at)
VALUES
  ('${v1}', '${A}', NULL, 'UA1', 'Éloïse', 'Gorodey', 'eloise@example.nc', '+687 11', 'ID1', 'OPT', 'Nouméa', 'NC',
   'visitor', '2026-11-20', '08:30', 'fr', '${aImage}', NULL, '2026-11-19T13:00:00Z', '2026-11-20T13:00:00Z', '2026-11-18T01:00:00Z'),
  ('${v2}', '${A}', NULL, 'UA2', 'Marc', 'Kaloi', 'marc@example.nc', '+687 12', 'ID2', 'SLN', NULL, NULL,
   'visitor', '2026-11-21', '10:00', 'fr', NULL, NULL, '2026-11-20T13:00:00Z', '2026-11-21T13:00:00Z', '2026-11-18T02:00:00Z'),
  ('${v3}', '${A}', NULL, 'UA3', 'Zoé', 'Naisseline', 'zoe@example.nc', '+687 13', 'ID3', 'CCI', NULL, NULL,
   'visitor', '2026-11-22', '14:00', 'en', NULL, NULL, '2026-11-21T13:00:00Z', '2026-11-22T13:00:00Z', '2026-11-18T03:00:00Z'),
  ('${v4}', '${A}', '${aEvent}', 'UA4', 'Hugo', 'Wéa', 'hugo@example.nc', '+687 14', 'ID4', 'Lycée', NULL, NULL,
   'event', NULL, NULL, 'fr', NULL, NULL, '2026-11-19T13:00:00Z', '2026-11-20T13:00:00Z', '2026-11-18T04:00:00Z'),
  ('${v5}', '${A}', NULL, 'UA5', '-', '-', '-', '-', '-', '-', NULL, NULL,
   'visitor', '2025-02-01', '09:00', 'fr', NULL, '2026-01-01T00:00:00Z', NULL, NULL, '2025-01-31T00:00:00Z'),
  ('${v6}', '${B}', NULL, 'UB1', 'Carla', 'Diaz', 'carla@example.com', '+1 213', 'ID6', 'Acme', 'Los Angeles', 'US',
   'visitor', '2026-11-20', '11:00', 'en', NULL, NULL, '2026-11-20T08:00:00Z', '2026-11-21T08:00:00Z', '2026-11-19T01:00:00Z'),
  ('${v7}', '${B}', '${bEvent}', 'UB2', 'Dan', 'Lee', 'dan@example.com', '+1 310', 'ID7', 'Globex', NULL, NULL,
   'event', NULL, NULL, 'en', NULL, NULL, '2026-11-20T08:00:00Z', '2026-11-21T08:00:00Z', '2026-11-19T02:00:00Z');

INSERT INTO visit_requests (id, company_id, visitor_id, host_user_id, host, reason, status, confirmed,
                            decided_by, decided_at, decline_reason, created_at)
VALUES
  ('${id(61)}', '${A}', '${v1}', '${aHost}', 'Paul Tein', 'Réunion', 1, true, '${aHost}', '2026-11-18T02:00:00Z', NULL, '2026-11-18T01:00:00Z'),
  ('${id(62)}', '${A}', '${v2}', '${aHost}', 'Paul Tein', 'Livraison', NULL, NULL, NULL, NULL, NULL, '2026-11-18T02:00:00Z'),
  ('${id(63)}', '${A}', '${v3}', '${aAdmin}', 'Léa Wamytan', 'Entretien', 2, false, '${aAdmin}', '2026-11-18T04:00:00Z', 'Complet', '2026-11-18T03:00:00Z'),
  ('${id(64)}', '${A}', '${v5}', NULL, 'Accueil', NULL, 1, true, NULL, NULL, NULL, '2025-01-31T00:00:00Z'),
  ('${id(65)}', '${B}', '${v6}', '${bHost}', 'Bob Jones', 'Demo', 1, true, '${bAdmin}', '2026-11-19T03:00:00Z', NULL, '2026-11-19T01:00:00Z');

INSERT INTO qr_users (id, company_id, kind, uidn, firstname, lastname, email, type, date_exp, created_by, revoked_at, created_at)
VALUES
  ('${aMember}', '${A}', 'member', 'MA1', 'Sonia', 'Backès', 'sonia@example.nc', 'permanent', NULL, '${aAdmin}', NULL, '2025-05-01T00:00:00Z'),
  ('${aQr}', '${A}', 'permanent', 'QA1', 'Yann', 'Ihage', NULL, 'temporary', '2026-12-31T12:00:00Z', '${aAdmin}', NULL, '2025-05-02T00:00:00Z'),
  ('${bMember}', '${B}', 'member', 'MB1', 'Eve', 'Park', 'eve@example.com', 'permanent', NULL, NULL, NULL, '2025-05-03T00:00:00Z');

-- Visitor checks: closed (v1, whose confirmed meeting queues the host's arrival mail), open by hand (v4),
-- undone (v2), departure undone (v6, open again), closed automatically (v7).
INSERT INTO visitor_checks (id, company_id, visitor_id, check_in_at, check_out_at, check_in_method, check_out_method,
                            check_in_by, check_out_by, undone_at, undone_by, undo_reason,
                            undone_out_at, undone_out_method, undone_out_by, out_undone_at, out_undone_by, out_undo_reason)
VALUES
  ('${id(71)}', '${A}', '${v1}', '2026-11-19T21:00:00Z', '2026-11-19T23:00:00Z', 'scan', 'scan', '${aAdmin}', '${aAdmin}',
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ('${id(72)}', '${A}', '${v4}', '2026-11-19T22:10:00Z', NULL, 'manual', NULL, '${aAdmin}', NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  ('${id(73)}', '${A}', '${v2}', '2026-11-20T21:00:00Z', NULL, 'scan', NULL, '${aAdmin}', NULL,
   '2026-11-20T21:01:00Z', '${aAdmin}', 'Mauvaise personne', NULL, NULL, NULL, NULL, NULL, NULL),
  ('${id(74)}', '${B}', '${v6}', '2026-11-20T17:00:00Z', NULL, 'kiosk', NULL, NULL, NULL,
   NULL, NULL, NULL, '2026-11-20T18:00:00Z', 'manual', '${bAdmin}', '2026-11-20T18:05:00Z', '${bAdmin}', 'Still inside'),
  ('${id(75)}', '${B}', '${v7}', '2026-11-20T16:00:00Z', '2026-11-21T06:00:00Z', 'scan', 'automatic', '${bAdmin}', NULL,
   NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);

-- User checks: a member inside, a QR user's closed visit and an undone one, B's member checked out by hand.
INSERT INTO user_checks (id, company_id, qr_user_id, check_in_at, check_out_at, check_in_method, check_out_method,
                         check_in_by, check_out_by, undone_at, undone_by, undo_reason)
VALUES
  ('${id(81)}', '${A}', '${aMember}', '2026-11-19T20:00:00Z', NULL, 'scan', NULL, '${aAdmin}', NULL, NULL, NULL, NULL),
  ('${id(82)}', '${A}', '${aQr}', '2026-11-18T20:00:00Z', '2026-11-19T02:00:00Z', 'scan', 'scan', '${aAdmin}', '${aAdmin}', NULL, NULL, NULL),
  ('${id(83)}', '${A}', '${aQr}', '2026-11-19T20:30:00Z', NULL, 'manual', NULL, '${aAdmin}', NULL, '2026-11-19T20:31:00Z', '${aAdmin}', 'Erreur'),
  ('${id(84)}', '${B}', '${bMember}', '2026-11-20T16:00:00Z', NULL, 'scan', NULL, '${bAdmin}', NULL, NULL, NULL, NULL);
UPDATE user_checks SET check_out_at = '2026-11-20T20:00:00Z', check_out_method = 'manual', check_out_by = '${bAdmin}'
 WHERE id = '${id(84)}';

-- Roll calls: A's ended one and its open one (one open per company then), B's open one.
INSERT INTO roll_calls (id, company_id, started_by, started_at, ended_at, ended_by)
VALUES
  ('${aRollEnded}', '${A}', '${aAdmin}', '2026-11-10T01:00:00Z', '2026-11-10T01:20:00Z', '${aAdmin}'),
  ('${aRollOpen}', '${A}', '${aAdmin}', '2026-11-19T23:30:00Z', NULL, NULL),
  ('${bRollOpen}', '${B}', '${bAdmin}', '2026-11-20T19:00:00Z', NULL, NULL);
INSERT INTO roll_call_people (id, roll_call_id, check_id, person_table, person_id, person_kind, firstname, lastname,
                              organisation, check_in_at, status, marked_by, marked_at)
VALUES
  ('${id(91)}', '${aRollEnded}', '${id(82)}', 'user', '${aQr}', 'qr_user', 'Yann', 'Ihage', NULL, '2026-11-09T20:00:00Z', 'safe', '${aAdmin}', '2026-11-10T01:05:00Z'),
  ('${id(92)}', '${aRollOpen}', '${id(72)}', 'visitor', '${v4}', 'event_guest', 'Hugo', 'Wéa', 'Lycée', '2026-11-19T22:10:00Z', 'unknown', NULL, NULL),
  ('${id(93)}', '${aRollOpen}', '${id(81)}', 'user', '${aMember}', 'member', 'Sonia', 'Backès', NULL, '2026-11-19T20:00:00Z', 'missing', '${aAdmin}', '2026-11-19T23:35:00Z'),
  ('${id(94)}', '${bRollOpen}', '${id(74)}', 'visitor', '${v6}', 'visitor', 'Carla', 'Diaz', 'Acme', '2026-11-20T17:00:00Z', 'unknown', NULL, NULL);

INSERT INTO check_daily_counts (company_id, day, kind, checks)
VALUES ('${A}', '2026-11-19', 'visitor', 3), ('${A}', '2026-11-19', 'user', 2), ('${B}', '2026-11-20', 'visitor', 4),
       ('${C}', '2025-12-01', 'user', 7);

INSERT INTO audit_events (id, company_id, actor_user_id, action, subject_type, subject_id, detail, at)
VALUES
  ('${id(101)}', '${A}', '${aAdmin}', 'company.updated', 'company', '${A}', '{"fields":["timezone","day_end"]}', '2026-11-01T00:00:00Z'),
  ('${id(102)}', '${B}', '${bAdmin}', 'request.confirmed', 'request', '${id(65)}', NULL, '2026-11-19T03:00:00Z'),
  ('${id(103)}', NULL, NULL, 'retention.purge', NULL, NULL, '{"checks":0}', '2026-11-02T00:00:00Z');

INSERT INTO mail_outbox (id, company_id, kind, to_address, payload, status, attempts, sent_at, dedupe_key, created_at)
VALUES ('${id(111)}', '${B}', 'request_confirmed', 'carla@example.com', '{"visitorId":"${v6}"}', 'sent', 1,
        '2026-11-19T03:01:00Z', 'request_confirmed:${id(65)}', '2026-11-19T03:00:00Z');

INSERT INTO sessions (id, user_id, expires_at, revoked_at, created_at)
VALUES ('${id(121)}', '${aAdmin}', '2026-12-31T00:00:00Z', NULL, '2026-11-19T00:00:00Z'),
       ('${id(122)}', '${bHost}', '2026-12-31T00:00:00Z', '2026-11-20T00:00:00Z', '2026-11-19T00:00:00Z');
INSERT INTO login_throttle (key, failures, next_allowed_at, updated_at)
VALUES ('email:bob@bright.example', 3, '2026-11-20T00:01:00Z', '2026-11-20T00:00:00Z');
INSERT INTO scan_requests (user_id, key, result, route, request_hash, created_at)
VALUES ('${aAdmin}', 'k1', '{"ok":true}', 'GET /api/get-qr-data/:uidn', 'h1', '2026-11-19T21:00:00Z');
INSERT INTO sign_in_refusals (user_id, client, minute, attempts)
VALUES ('${bHost}', 'web', '2026-11-20T00:00:00Z', 2);
INSERT INTO retention_runs (day, started_at, finished_at, counts, attempts)
VALUES ('2026-11-19', '2026-11-19T01:00:00Z', '2026-11-19T01:00:05Z', '{"checks":0}', 1);
`;

/** What each company was at 0025: its site must be made of it. */
interface OldCompany {
  id: string;
  name: string;
  address: string | null;
  city: string | null;
  zipcode: string | null;
  country: string | null;
  email: string | null;
  timezone: string;
  day_end: string;
  arrival_early_minutes: number;
  created_at: string;
}

/** Columns migration 0026 adds; the rest of every row stays as it was. */
const ADDED: Record<string, string[]> = {
  events: ['site_id'],
  visitor_checks: ['site_id'],
  user_checks: ['site_id'],
  roll_calls: ['site_id'],
  // Migrations 0027's (issue 29) and 0028's (issue 30), applied with it: the kiosk's, the
  // badge's and the invitation's columns.
  visit_requests: ['kiosk_id', 'invitation_id', 'here_at', 'cancelled_at'],
  scan_requests: ['kiosk_id'],
  // Migration 0029's (issue 31): a visitor's type, the signed documents' retention and the
  // watchlist's name threshold.
  visitors: ['site_id', 'photo_file_id', 'details_completed_at', 'visitor_type_id'],
  // Migration 0031's (issue 33): who manages an account, and a session's provider; 0032's
  // (issue 34): where a host's messages go; 0033's (issue 35): the weekly summary mail.
  users: [
    'home_site_id',
    'site_ids',
    'provisioned_by',
    'external_id',
    'updated_at',
    'notification_channels',
    'weekly_report',
    'weekly_report_site_id',
  ],
  sessions: ['sso_company_id'],
  companies: [
    'retention_signatures_days',
    'retention_signatures_pending_days',
    'retention_signatures_pending_at',
    'watchlist_name_threshold',
    // 0037: each company's count of watchlist entries.
    'watchlist_entry_count',
  ],
};
/**
 * Tables that later migrations create (0027: kiosks and badge prints; 0028: invitations;
 * 0029: visitor types, documents, signatures, the watchlist; 0030: the rate-limit counters; 0031: single sign-on and SCIM; 0032: API keys, webhooks, chat; 0033: weekly reports; 0035: the dashboard's summary; 0036: its months and all sites' days),
 * empty here but for the four default visitor types 0029 gives every site.
 */
const LATER_TABLES = [
  'badge_prints',
  'invitation_days',
  'invitations',
  'kiosks',
  'visitor_types',
  'site_documents',
  'document_versions',
  'visitor_type_documents',
  'signatures',
  'watchlist_entries',
  'watchlist_holds',
  'rate_limit_hits',
  'company_sso',
  'sso_domains',
  'sso_sign_ins',
  'scim_tokens',
  'scim_groups',
  'scim_group_members',
  'api_keys',
  'webhook_endpoints',
  'webhook_deliveries',
  'company_chat',
  'chat_channels',
  'chat_outbox',
  'weekly_reports_sent',
  'dashboard_summaries',
  'dashboard_days',
  'dashboard_company_days',
  'dashboard_all_sites_days',
  'dashboard_months',
  'dashboard_month_summaries',
];
/** Columns it moves from the company to its site. */
const MOVED: Record<string, string[]> = {
  companies: ['timezone', 'day_end', 'arrival_early_minutes'],
};
/** The records that happen in a place: each now names its company's site. */
const PLACED = ['events', 'visitors', 'visitor_checks', 'user_checks', 'roll_calls'];

async function publicTables(sql: RawSql): Promise<string[]> {
  const rows = await sql.query(
    `select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  return rows.map((r) => String(r.table_name));
}

async function columnsOf(sql: RawSql, table: string): Promise<string[]> {
  const rows = await sql.query(
    `select column_name from information_schema.columns
      where table_schema = 'public' and table_name = $1 order by column_name`,
    [table],
  );
  return rows.map((r) => String(r.column_name));
}

/** Every row of `table` as JSON (the same rendering before and after), in a stable order. */
async function rowsOf(sql: RawSql, table: string): Promise<Row[]> {
  const rows = await sql.query(`select to_jsonb(t) as row from "${table}" t`);
  return rows.map((r) => r.row as Row);
}

const without = (row: Row, columns: string[]): Row =>
  Object.fromEntries(Object.entries(row).filter(([column]) => !columns.includes(column)));
const keyOf = (row: Row) => (typeof row.id === 'string' ? row.id : JSON.stringify(row));
const sorted = (rows: Row[]) => [...rows].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));

describe('migration 0026: each company gets its site, and its records move to it', () => {
  let old: OldDatabase;
  let migrated: { handle: DatabaseHandle; sql: RawSql };
  const before: Record<string, { columns: string[]; rows: Row[] }> = {};
  const after: Record<string, { columns: string[]; rows: Row[] }> = {};
  let oldCompanies: OldCompany[];
  let sites: Row[];
  /** company id → the id of its site. */
  const siteOf = new Map<string, string>();

  beforeAll(async () => {
    old = await openDatabaseAt('0025_sign_in_refusals_notice_en');
    await old.sql.exec(OLD_SCHEMA_DATA);
    for (const table of await publicTables(old.sql)) {
      before[table] = {
        columns: await columnsOf(old.sql, table),
        rows: await rowsOf(old.sql, table),
      };
    }
    oldCompanies = (await old.sql.query(
      `select id, name, address, city, zipcode, country, email, timezone, day_end,
              arrival_early_minutes, to_jsonb(created_at) #>> '{}' as created_at
         from companies order by id`,
    )) as unknown as OldCompany[];

    migrated = await old.migrate();
    for (const table of await publicTables(migrated.sql)) {
      after[table] = {
        columns: await columnsOf(migrated.sql, table),
        rows: await rowsOf(migrated.sql, table),
      };
    }
    sites = after.sites?.rows ?? [];
    for (const site of sites) siteOf.set(String(site.company_id), String(site.id));
  });

  afterAll(async () => {
    await old?.close();
  });

  it('filled the old schema with what the test means to carry over', () => {
    // A guard on the fixture itself: an empty table would prove nothing below.
    expect(before.companies?.columns).toEqual(
      expect.arrayContaining(['timezone', 'day_end', 'arrival_early_minutes']),
    );
    expect(before.sites).toBeUndefined();
    for (const table of Object.keys(before)) {
      expect(before[table]?.rows.length, `rows in ${table}`).toBeGreaterThan(0);
    }
    // The old triggers ran as the rows were written: the host's arrival mail, the manual checks' audit.
    expect(before.mail_outbox?.rows.map((r) => r.kind).sort()).toEqual([
      'host_arrival',
      'request_confirmed',
    ]);
    expect(before.audit_events?.rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['check.manual_in', 'check.manual_out']),
    );
  });

  it('gives each company one site from its own name, address, e-mail, zone, day end and early arrivals', () => {
    expect(sites).toHaveLength(oldCompanies.length);
    for (const company of oldCompanies) {
      const own = sites.filter((s) => s.company_id === company.id);
      expect(own, company.name).toHaveLength(1);
      expect(own[0]).toEqual({
        id: expect.any(String),
        company_id: company.id,
        name: company.name,
        address: company.address,
        city: company.city,
        zipcode: company.zipcode,
        country: company.country,
        timezone: company.timezone,
        front_desk_email: company.email,
        opens_at: '00:00',
        day_end: company.day_end,
        arrival_early_minutes: company.arrival_early_minutes,
        short_code: null,
        // Migration 0027 (issue 29): no badge printer, the default label.
        badge_printer_url: null,
        badge_size: '62x100',
        // Migration 0029 (issue 31): no security contact yet.
        security_emails: [],
        archived_at: null,
        created_at: company.created_at,
      });
    }
    const byCompany = Object.fromEntries(sites.map((s) => [s.company_id, s]));
    expect(byCompany[A]).toMatchObject({
      name: 'Mairie de Nouméa',
      address: '16 rue du Général Mangin',
      timezone: 'Pacific/Noumea',
      day_end: '18:30',
      arrival_early_minutes: 15,
      front_desk_email: 'accueil@noumea.example',
    });
    expect(byCompany[B]).toMatchObject({
      timezone: 'America/Los_Angeles',
      day_end: '22:00',
      arrival_early_minutes: 45,
    });
    // The archived company, created with the column defaults and no address, keeps its history too.
    expect(byCompany[C]).toMatchObject({
      address: null,
      front_desk_email: null,
      timezone: 'Africa/Abidjan',
      day_end: '23:59',
      arrival_early_minutes: 0,
    });
    expect(new Set(siteOf.values()).size).toBe(3);
  });

  it('moves every event, visitor, check and roll call to its company’s site', () => {
    for (const table of PLACED) {
      const rows = after[table]?.rows ?? [];
      expect(rows.length, table).toBe(before[table]?.rows.length);
      for (const row of rows) {
        expect(row.site_id, `${table} ${String(row.id)}`).toBe(siteOf.get(String(row.company_id)));
      }
    }
    // A visitor's site is their meeting's or their event's: one and the same here.
    const visitors = after.visitors?.rows ?? [];
    const events = Object.fromEntries((after.events?.rows ?? []).map((e) => [e.id, e]));
    for (const visitor of visitors.filter((v) => v.event_id)) {
      expect(visitor.site_id).toBe(events[String(visitor.event_id)]?.site_id);
    }
  });

  it('homes every user at their company’s site, limited to none', () => {
    const users = after.users?.rows ?? [];
    expect(users).toHaveLength(5);
    for (const user of users) {
      expect(user.home_site_id, String(user.email)).toBe(siteOf.get(String(user.company_id)));
      expect(user.site_ids).toEqual([]);
    }
  });

  it('takes the zone, day end and early arrivals off the company; the company reads them from its site', async () => {
    expect(after.companies?.columns).not.toContain('timezone');
    expect(after.companies?.columns).not.toContain('day_end');
    expect(after.companies?.columns).not.toContain('arrival_early_minutes');

    const noumea = await findCompany(migrated.handle.db, A);
    expect(noumea).toMatchObject({
      name: 'Mairie de Nouméa',
      mainSiteId: siteOf.get(A),
      timezone: 'Pacific/Noumea',
      dayEnd: '18:30',
      arrivalEarlyMinutes: 15,
    });
    const bright = await findCompany(migrated.handle.db, 'bright-labs');
    expect(bright).toMatchObject({
      mainSiteId: siteOf.get(B),
      timezone: 'America/Los_Angeles',
      dayEnd: '22:00',
      arrivalEarlyMinutes: 45,
    });
    expect((await mainSite(migrated.handle.db, C)).id).toBe(siteOf.get(C));
    // Its history makes each site one to archive, never to delete.
    expect(await siteHasHistory(migrated.handle.db, String(siteOf.get(A)))).toBe(true);
  });

  it('applied every later migration to the old database', async () => {
    const journal = JSON.parse(
      readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const [applied] = await migrated.sql.query(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    );
    expect(applied?.n).toBe(journal.entries.length);
  });

  it('keeps every table’s count', () => {
    const counts = (side: typeof before) =>
      Object.fromEntries(Object.entries(side).map(([table, t]) => [table, t.rows.length]));
    expect(Object.keys(after).sort()).toEqual(
      [...Object.keys(before), 'sites', ...LATER_TABLES].sort(),
    );
    const { sites: siteCount, visitor_types: typeCount, ...rest } = counts(after);
    const later = LATER_TABLES.filter((table) => table !== 'visitor_types');
    expect(later.map((table) => rest[table])).toEqual(later.map(() => 0));
    const afterCounts = Object.fromEntries(
      Object.entries(rest).filter(([table]) => !later.includes(table)),
    );
    expect(afterCounts).toEqual(counts(before));
    expect(siteCount).toBe(3);
    expect(typeCount).toBe(4 * 3);
  });

  it('keeps every row, column by column, but for the columns it adds or moves', () => {
    for (const [table, old] of Object.entries(before)) {
      const added = ADDED[table] ?? [];
      const moved = MOVED[table] ?? [];
      const now = after[table];
      expect(now?.columns, table).toEqual(
        [...old.columns.filter((c) => !moved.includes(c)), ...added].sort(),
      );
      expect(
        sorted((now?.rows ?? []).map((row) => without(row, added))),
        `rows of ${table}`,
      ).toEqual(sorted(old.rows.map((row) => without(row, moved))));
    }
    // A sample named outright, should the comparison above ever compare nothing.
    const check = after.visitor_checks?.rows.find((r) => r.id === id(74));
    expect(check).toMatchObject({
      visitor_id: v6,
      check_in_method: 'kiosk',
      check_out_at: null,
      undone_out_method: 'manual',
      out_undo_reason: 'Still inside',
      site_id: siteOf.get(B),
    });
    const person = after.roll_call_people?.rows.find((r) => r.id === id(93));
    expect(person).toMatchObject({ status: 'missing', firstname: 'Sonia', lastname: 'Backès' });
  });

  it('leaves the live triggers working: each change is heard with its site', async () => {
    const sql = migrated.sql;
    const heard: Row[] = [];
    const sessions: Row[] = [];
    const stopLive = await sql.listen('sesame_live', (p) => heard.push(JSON.parse(p) as Row));
    const stopSession = await sql.listen('sesame_session', (p) =>
      sessions.push(JSON.parse(p) as Row),
    );
    try {
      const siteA = siteOf.get(A);
      const siteB = siteOf.get(B);
      // v1 (A, confirmed meeting with an active host) comes back in: presence, and the host's mail.
      await sql.query(
        `insert into visitor_checks (id, company_id, site_id, visitor_id, check_in_method, check_in_by)
         values ($1, $2, $3, $4, 'manual', $5)`,
        [id(201), A, siteA, v1, aAdmin],
      );
      // The QR user scans in at A's desk; B's visitor leaves.
      await sql.query(
        `insert into user_checks (id, company_id, site_id, qr_user_id, check_in_method)
         values ($1, $2, $3, $4, 'scan')`,
        [id(202), A, siteA, aQr],
      );
      await sql.query(
        `update visitor_checks set check_out_at = now(), check_out_method = 'manual' where id = $1`,
        [id(74)],
      );
      // A new request for v2; A's roll call ends; B starts one for all its sites.
      await sql.query(
        `insert into visit_requests (id, company_id, visitor_id, host) values ($1, $2, $3, 'Accueil')`,
        [id(203), A, v2],
      );
      await sql.query(`update roll_calls set ended_at = now() where id = $1`, [aRollOpen]);
      await sql.query(
        `insert into roll_calls (id, company_id, site_id, started_by) values ($1, $2, null, $3)`,
        [id(204), B, bAdmin],
      );
      // Limiting a user to a site ends their streams, as a role change does.
      await sql.query(`update users set site_ids = array[$1]::uuid[] where id = $2`, [
        siteA,
        aHost,
      ]);

      await until(() => heard.length >= 6 && sessions.length >= 1, 'the notifications');
      expect(heard).toEqual([
        {
          type: 'presence',
          company_id: A,
          site_id: siteA,
          person_id: v1,
          table: 'visitor',
          op: 'in',
        },
        {
          type: 'presence',
          company_id: A,
          site_id: siteA,
          person_id: aQr,
          table: 'user',
          op: 'in',
        },
        {
          type: 'presence',
          company_id: B,
          site_id: siteB,
          person_id: v6,
          table: 'visitor',
          op: 'out',
        },
        { type: 'request', company_id: A, site_id: siteA, request_id: id(203), op: 'created' },
        { type: 'rollCall', company_id: A, site_id: siteA, roll_call_id: aRollOpen, op: 'ended' },
        { type: 'rollCall', company_id: B, site_id: null, roll_call_id: id(204), op: 'started' },
      ]);
      expect(sessions).toEqual([{ user_id: aHost }]);
      // The database's own writers still write with the new columns in place.
      const mails = await sql.query(
        `select to_address, payload->>'checkId' as check_id from mail_outbox where kind = 'host_arrival' and dedupe_key = $1`,
        [`host_arrival:${id(201)}`],
      );
      expect(mails).toEqual([{ to_address: 'paul@noumea.example', check_id: id(201) }]);
      const audits = await sql.query(
        `select action from audit_events where detail->>'checkId' = any($1::text[]) order by action`,
        [[id(201), id(74)]],
      );
      expect(audits.map((r) => r.action)).toEqual(['check.manual_in', 'check.manual_out']);
    } finally {
      await stopLive();
      await stopSession();
    }
  });
});
