/**
 * `npm start` (through tools/start.ts): read config, open and migrate the database,
 * seed on first run, listen, and drain on SIGTERM. With `--prepare-database` it only
 * creates and migrates the database, then ends.
 */
import net from 'node:net';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { startBackgroundWork } from './background';
import { seedFirstRun } from './setup/seed';
import { errorCode } from './errors';

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
  if (process.argv.includes('--prepare-database')) {
    // `npm start` on a first start: the new database is created and migrated while the
    // web app builds (tools/start.ts); the server then opens it ready.
    await database.close();
    process.exit(0);
  }
  // A first start creates the platform admin and prints its one-time password: on a port
  // it cannot open it would print it, exit, and never print it again (issue 27).
  const portError = await portInUse(config);
  if (portError) {
    console.error(`Sésame cannot start: ${listenProblem(portError, config) ?? portError.message}`);
    await database.close();
    process.exit(1);
  }
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

  // Does the live feed hear the database? Said in one sentence when not (on-site/live.ts).
  // The server starts anyway: all but the live screens works, and /api/ready answers 503
  // for the listener, so a load balancer keeps traffic on the instances that hear while
  // this one stays up for the operator to read why. Refusing to start would turn one wrong
  // setting into every instance down at once. A failed check is tried again every 30 s.
  await app.liveHub.verify();

  const stopBackground = startBackgroundWork(app);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const sentence = listenProblem(error, config);
    if (!sentence) throw error;
    console.error(`Sésame cannot start: ${sentence}`);
    await Promise.allSettled([stopBackground(), app.close()]);
    await database.close();
    process.exit(1);
  }
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

/** Opens and closes the port once: the error a listen would meet, or null when it is free. */
function portInUse(config: Config): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () =>
      probe.close(() => resolve(null)),
    );
  });
}

/** The sentence for a port that cannot be opened, or null for any other failure. */
function listenProblem(error: unknown, config: Config): string | null {
  const code = errorCode(error);
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE')
    return `another program already listens on ${where}. Stop it, or set PORT to a free port.`;
  if (code === 'EACCES')
    return `this user may not listen on ${where} (ports under 1024 need privileges). Set PORT to 1024 or more.`;
  if (code === 'EADDRNOTAVAIL')
    return `HOST ${config.host} is not an address of this machine. Set HOST to one of its addresses, or unset it.`;
  return null;
}

main().catch((error: unknown) => {
  console.error('Sésame could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
