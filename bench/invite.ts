/**
 * `npm run bench -- invite` (issue 30), on PostgreSQL: a host imports a CSV of 500 visitors
 * (POST /api/invitations/import, multipart over HTTP) and the server answers once the 500
 * visits are written — a visitor and a request confirmed by the host each, with its code —
 * and the 500 invitation mails queued in the outbox, in the same transaction. Target: under
 * 10 s. The time from sending the request to its answer is measured RUNS times, each on a
 * fresh company (a ROLE_USER host signed in through the real login); the median is printed
 * beside the target, each run's figure and the rows it counted (visitors, requests of the
 * invitation, mails of kind 'invitation') beside it.
 *
 * The server is Sésame itself (buildApp, as `npm start` builds it, without the background
 * worker: a mail queued is what is measured, not its sending), in this process, listening
 * on loopback. BENCH_DATABASE_URL (else TEST_DATABASE_URL, else the local server) names the
 * PostgreSQL server; the benchmark creates and drops its own database there.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { TEST_PASSWORD, buildCompany, buildUser } from '../apps/server/test/helpers/factories';
import { onConnection } from '../apps/server/src/db/one-connection';

const SERVER_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = 'sesame_bench_invite';
const VISITORS = 500;
const RUNS = 3;
const TARGET_MS = 10_000;
const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(statement: string): Promise<void> {
  await onConnection(SERVER_URL, (client) => client.query(statement));
}

/** The CSV a French host saves from Excel: `;`, CRLF, a BOM; every visitor with an e-mail, some with a phone. */
function csvOf(run: number): Buffer {
  const lines = ['Prénom;Nom;E-mail;Téléphone;Organisation'];
  for (let n = 0; n < VISITORS; n++) {
    const phone = n % 4 === 0 ? `+225 07 07 ${String(10 + (n % 90))} 07 07` : '';
    lines.push(`Awa;Koné ${n};awa.kone.${run}.${n}@example.com;${phone};Société Générale CI`);
  }
  return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n')]);
}

/** DD/MM/YYYY, 30 days from now: a day the site has not passed. */
function visitDate(): string {
  const day = new Date(Date.now() + 30 * 86_400_000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(day.getUTCDate())}/${two(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const loadAverage = async () =>
  (await readFile('/proc/loadavg', 'utf8').catch(() => '? ? ?')).split(' ').slice(0, 3).join(' ');

interface Run {
  ms: number;
  visitors: number;
  requests: number;
  mails: number;
}

export async function run(): Promise<void> {
  await admin(`drop database if exists ${DATABASE} with (force)`);
  await admin(`create database ${DATABASE}`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-bench-invite-'));
  const loaded = loadConfig({
    ...process.env,
    DATABASE_URL: withDatabase(SERVER_URL, DATABASE),
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const config = {
    ...loaded,
    rateLimits: { ...loaded.rateLimits, allowList: LOOPBACK },
  };
  const database = await openDatabase(config);
  const app = await buildApp({ config, db: database.db, logger: false });
  const results: Run[] = [];
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no port');
    const base = `http://127.0.0.1:${address.port}`;

    for (let n = 1; n <= RUNS; n++) {
      const company = await buildCompany(database.db, { timezone: 'Africa/Abidjan' });
      const host = await buildUser(database.db, { company, role: 'ROLE_USER' });
      const login = await fetch(`${base}/api/login_check`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: host.email, password: TEST_PASSWORD }),
      });
      if (!login.ok) throw new Error(`login answered ${login.status}: ${await login.text()}`);
      const { token } = (await login.json()) as { token: string };

      const form = new FormData();
      form.set('site_id', company.siteId);
      form.set('date', visitDate());
      form.set('time', '09:00');
      form.set('end_time', '17:00');
      form.set('reason', 'Formation sécurité');
      form.set('language', 'fr');
      form.set('file', new Blob([new Uint8Array(csvOf(n))], { type: 'text/csv' }), 'visiteurs.csv');

      const started = performance.now();
      const res = await fetch(`${base}/api/invitations/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      });
      const answer = await res.text();
      const ms = performance.now() - started;
      if (res.status !== 201) throw new Error(`the import answered ${res.status}: ${answer}`);
      const { invitation_id: invitationId } = JSON.parse(answer) as { invitation_id: string };

      const client = new pg.Client({ connectionString: config.databaseUrl });
      await client.connect();
      try {
        const counted = await client.query<{ visitors: string; requests: string; mails: string }>(
          `select (select count(*) from visitors where company_id = $1) as visitors,
                  (select count(*) from visit_requests
                    where invitation_id = $2 and confirmed and status = 1) as requests,
                  (select count(*) from mail_outbox
                    where company_id = $1 and kind = 'invitation'
                      and payload->>'invitationId' = $2::text) as mails`,
          [company.id, invitationId],
        );
        const row = counted.rows[0]!;
        const figures = {
          ms,
          visitors: Number(row.visitors),
          requests: Number(row.requests),
          mails: Number(row.mails),
        };
        results.push(figures);
        console.log(
          `run ${n}: ${VISITORS} lines imported in ${seconds(ms)} (request → 201); counted ` +
            `${figures.visitors} visitors, ${figures.requests} confirmed requests of the invitation, ` +
            `${figures.mails} invitation mails queued; load ${await loadAverage()}`,
        );
        if (
          figures.visitors !== VISITORS ||
          figures.requests !== VISITORS ||
          figures.mails !== VISITORS
        ) {
          throw new Error(`run ${n} did not write ${VISITORS} of each`);
        }
      } finally {
        await client.end();
      }
    }
  } finally {
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
    await admin(`drop database if exists ${DATABASE} with (force)`);
  }

  const figure = median(results.map((r) => r.ms));
  const ok = figure < TARGET_MS;
  console.log(
    `\nCSV import of ${VISITORS} visitors → ${VISITORS} visits and ${VISITORS} mails queued, median of ${RUNS} ` +
      `runs (${results.map((r) => seconds(r.ms)).join(', ')}): ${seconds(figure)} — target < ${seconds(TARGET_MS)}: ` +
      `${ok ? 'ok' : 'MISSED'} (${os.cpus().length} CPUs, load ${await loadAverage()})`,
  );
  if (!ok) throw new Error('invite target missed');
}
