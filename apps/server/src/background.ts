/**
 * Work the server does beside answering requests (the mail outbox worker).
 * Each job registers here; main.ts starts them after listen and stops them on SIGTERM.
 */
import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { autoCheckOut } from './checkins/auto-check-out';
import { forgetOldScanKeys } from './checkins/idempotency';
import { sweepOrphanFiles } from './files/sweep';
import { mailWorkerJob } from './mail/worker';
import { queueReminders } from './requests/host-loop';
import { retentionSweep } from './privacy/retention';

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

/** How often the retention sweep runs (and once at start). */
export const RETENTION_SWEEP_MS = 60 * 60_000;

/**
 * Hourly and at start (privacy/retention.ts): anonymous visitors who never filed a
 * request are deleted a day later with their identity document, sign-in failures a day
 * old are forgotten; and once a day, on one instance only, each company's retention
 * periods (documents, identities, check history, audit log) are applied.
 */
const retentionJob: Job = (app) => {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = retentionSweep(app.db, app.storage)
      .then((counts) => {
        // Counts only, never a name.
        if (counts) app.log.info({ ...counts }, 'retention purge done');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'retention sweep failed'));
  };
  sweep();
  const timer = setInterval(sweep, RETENTION_SWEEP_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};

/** How often the day-before reminders are looked for (and once at start). */
export const REMINDER_SWEEP_MS = 10 * 60_000;

/**
 * The visitors' day-before reminders (issue 15). Every instance runs it; the outbox's
 * dedupe key makes it one reminder per meeting, whoever queues it first.
 */
const reminderJob: Job = (app) => {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = queueReminders(app.db)
      .then((count) => {
        if (count > 0) app.log.info({ count }, 'meeting reminders queued');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'reminder sweep failed'));
  };
  sweep();
  const timer = setInterval(sweep, REMINDER_SWEEP_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};

/** How often the companies' 'fin de journée' is looked for (and once at start). */
export const AUTO_CHECK_OUT_MS = 60_000;

/**
 * Automatic check-out (issue 14, checkins/auto-check-out.ts): every instance runs it;
 * its guarded UPDATE closes each check once, whoever runs first.
 */
const autoCheckOutJob: Job = (app) => {
  let running: Promise<void> = Promise.resolve();
  const sweep = () => {
    running = autoCheckOut(app.db)
      .then((count) => {
        if (count > 0) app.log.info({ count }, 'checked out automatically');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'automatic check-out failed'));
  };
  sweep();
  const timer = setInterval(sweep, AUTO_CHECK_OUT_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
};

const jobs: Job[] = [mailWorkerJob, orphanFileSweepJob, retentionJob, reminderJob, autoCheckOutJob];

export function startBackgroundWork(app: FastifyInstance): StopFn {
  const stops = jobs.map((job) => job(app));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
