/**
 * A server process for the benchmarks, so the load generator does not share an
 * event loop with what it measures. The checkin and cluster benchmarks run it compiled,
 * with `npm start`'s V8 flags (compiled-serve.ts); the others through tsx.
 *   BENCH_MODE=app   Sésame itself (buildApp on DATABASE_URL), with the rate limits'
 *                    allow-list opened to loopback — in this process only — and, beside
 *                    the real code check, its three-statement variant
 *                    (variants/three-statements.ts) to measure against it.
 *   BENCH_MODE=bare  a bare Fastify route doing the code check's single-row write
 *                    (one INSERT by code), the baseline of ARCHITECTURE §9.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { threeStatementsRoute } from './variants/three-statements';

const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];

async function serveApp(): Promise<void> {
  const loaded = loadConfig();
  const config = {
    ...loaded,
    logLevel: 'silent',
    rateLimits: { ...loaded.rateLimits, allowList: LOOPBACK },
  };
  const database = await openDatabase(config);
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.register(threeStatementsRoute);
  await app.listen({ port: config.port, host: '127.0.0.1' });
}

async function serveBare(): Promise<void> {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const app = Fastify({ logger: false });
  app.get<{ Params: { uidn: string } }>('/bare/:uidn', async (request) => {
    // A named prepared statement, like the code check's: the baseline does not pay
    // for parsing and planning on every request either.
    const result = await pool.query({
      name: 'bare_insert',
      text: `insert into visitor_checks (id, company_id, site_id, visitor_id, check_in_method, check_out_at)
             select gen_random_uuid(), company_id, site_id, id, 'scan', now() from visitors where uidn = $1`,
      values: [request.params.uidn],
    });
    return { status: 'success', rows: result.rowCount };
  });
  await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
}

await (process.env.BENCH_MODE === 'bare' ? serveBare() : serveApp());
process.send?.('ready');
// A clean exit on SIGTERM (lets `--cpu-prof` write its profile when asked for).
process.on('SIGTERM', () => process.exit(0));
