/**
 * The server of `npm run bench -- purge`: Sésame itself (buildApp on DATABASE_URL, the
 * rate limits' allow-list opened to loopback in this process only), which also runs the
 * retention purge when the benchmark asks for it over IPC, as its daily job does: in the
 * same process that answers the scans.
 */
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';
import { purgeDue } from '../apps/server/src/privacy/retention';

const LOOPBACK = ['127.0.0.1', '::1', '::ffff:127.0.0.1'];
const loaded = loadConfig();
const config = {
  ...loaded,
  logLevel: 'silent',
  rateLimits: { ...loaded.rateLimits, allowList: LOOPBACK },
};
const database = await openDatabase(config);
const app = await buildApp({ config, db: database.db, logger: false });
await app.listen({ port: config.port, host: '127.0.0.1' });
process.on('message', (message) => {
  if (message !== 'purge') return;
  const started = performance.now();
  void purgeDue(app.db, app.storage).then(
    (counts) => process.send?.({ counts, ms: performance.now() - started }),
    (error: unknown) => process.send?.({ error: String(error) }),
  );
});
process.send?.('ready');
process.on('SIGTERM', () => process.exit(0));
