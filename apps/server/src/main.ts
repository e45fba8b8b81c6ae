/**
 * `npm start`: read config, open and migrate the database, seed on first run,
 * listen, and drain on SIGTERM.
 */
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import { startBackgroundWork } from './background';
import { seedFirstRun } from './setup/seed';

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
    app.log.info({ signal }, 'stopping: draining requests');
    await stopBackground();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Sésame could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
