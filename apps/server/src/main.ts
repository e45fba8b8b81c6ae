/**
 * `npm start`: read config, open and migrate the database, seed on first run,
 * listen, and drain on SIGTERM.
 */
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { startBackgroundWork } from './background';
import { seedFirstRun } from './setup/seed';

/** The longest a stop may take (a supervisor's SIGKILL usually follows at 10 s). */
const STOP_DEADLINE_MS = 8_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(config);
  const seed = await seedFirstRun(database.db, config);
  const app = await buildApp({ config, db: database.db });

  if (seed.admin) {
    const lines = [
      '',
      '  Sésame: first start. Platform admin created:',
      `    e-mail:   ${seed.admin.email}`,
      seed.admin.generated
        ? `    password: ${seed.admin.password}   (shown once; set ADMIN_PASSWORD to choose it)`
        : '    password: the value of ADMIN_PASSWORD',
      '',
    ];
    console.log(lines.join('\n'));
  }

  const stopBackground = startBackgroundWork(app);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: database.kind, dataDir: config.dataDir, publicUrl: config.publicUrl },
    `Sésame is serving ${config.publicUrl}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping: draining requests, finishing the mail in hand');
    // A supervisor waits about 10 s before SIGKILL: whatever still hangs then is cut.
    setTimeout(() => {
      app.log.error('stopping: not drained within the deadline, exiting anyway');
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    // A keep-alive connection whose request ends after close() began would hold the
    // server open until its idle timeout: close connections as they fall idle.
    const idle = setInterval(() => app.server.closeIdleConnections(), 100);
    try {
      // In-flight requests finish (new ones get 503), the outbox worker ends its mail.
      await Promise.all([
        app.close().then(() => app.log.info('stopping: requests drained')),
        stopBackground().then(() => app.log.info('stopping: background work stopped')),
      ]);
      clearInterval(idle);
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'stopping: error while draining');
    }
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Sésame could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
