/**
 * Work the server does beside answering requests (the mail outbox worker).
 * Each job registers here; main.ts starts them after listen and stops them on SIGTERM.
 */
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { forgetOldScanKeys } from './checkins/idempotency';
import { sweepOrphanFiles } from './files/sweep';
import { mailWorkerJob } from './mail/worker';

export type StopFn = () => Promise<void>;
type Job = (app: FastifyInstance) => StopFn;

/** Once at start: files no row names, older than an hour (a kill -9 mid-upload); old scan keys. */
const orphanFileSweepJob: Job = (app) => {
  const done = sweepOrphanFiles(app.db, path.join(app.config.dataDir, 'files'))
    .then(({ examined, removed }) => {
      if (removed.length > 0)
        app.log.info({ examined, removed: removed.length }, 'orphan files removed');
    })
    .then(() => forgetOldScanKeys(app.db))
    .catch((error: unknown) => app.log.warn({ err: error }, 'start-up sweep failed'));
  return async () => {
    await done;
  };
};

const jobs: Job[] = [mailWorkerJob, orphanFileSweepJob];

export function startBackgroundWork(app: FastifyInstance): StopFn {
  const stops = jobs.map((job) => job(app));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
