/**
 * Work the server does beside answering requests (the mail and chat outbox workers, the webhook deliveries).
 * Each job registers here; main.ts starts them after listen and stops them on SIGTERM.
 */
import type { FastifyInstance } from 'fastify';
import { flushRefusals } from './auth/refusals';
import { chatWorkerJob } from './chat/worker';
import { summarizeSettledDays } from './dashboard/summary';
import { autoCheckOut } from './checkins/auto-check-out';
import { forgetOldScanKeys } from './checkins/idempotency';
import { sweepOrphanFiles } from './files/sweep';
import { mailWorkerJob } from './mail/worker';
import { sweepExpiredCounters } from './rate-limits/sweep';
import { queueReminders } from './requests/host-loop';
import { retentionSweep } from './privacy/retention';
import { webhookWorkerJob } from './webhooks/worker';
import { WEEKLY_REPORT_SWEEP_MS, queueWeeklyReports } from './dashboard/weekly-report';

export type StopFn = () => Promise<void>;
type Job = (app: FastifyInstance) => StopFn;

/** Once at start: files no row names, older than an hour (a kill -9 mid-upload); old scan keys. */
const orphanFileSweepJob: Job = (app) => {
  const done = sweepOrphanFiles(app.db, app.storage)
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

/**
 * A job that runs once at start and then every `everyMs`. Stopping waits for the run
 * in hand, which is told to stop (`signal`) so that it ends between two of its own
 * transactions: a long purge does not hold the server past its stop deadline.
 */
function periodicJob(
  name: string,
  everyMs: number,
  work: (app: FastifyInstance, signal: AbortSignal) => Promise<void>,
): Job {
  return (app) => {
    const stopping = new AbortController();
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = work(app, stopping.signal).catch((error: unknown) =>
        app.log.warn({ err: error }, `${name} failed`),
      );
    };
    run();
    const timer = setInterval(run, everyMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      stopping.abort();
      await running;
    };
  };
}

/** How often the retention sweep runs (and once at start). */
export const RETENTION_SWEEP_MS = 60 * 60_000;

/**
 * Hourly and at start (privacy/retention.ts): anonymous visitors who never filed a
 * request are deleted a day later with their identity document, sign-in failures a day
 * old are forgotten; and once a day, on one instance only, each company's retention
 * periods (documents, identities, check history, audit log) are applied. A day's purge
 * cut short (stopped, failed, killed) is taken up again by a later sweep the same day.
 */
const retentionJob = periodicJob('retention sweep', RETENTION_SWEEP_MS, async (app, signal) => {
  // Counted for /metrics: a purge that stops succeeding shows before the data outlives its period.
  const run = await retentionSweep(app.db, app.storage, {
    signal,
    auditMinDays: app.config.auditMinDays,
  }).catch((error: unknown) => {
    app.metrics.retentionSweep('failed');
    throw error;
  });
  app.metrics.retentionSweep(run ? 'purged' : 'nothing_due');
  if (run) app.log.info({ ...run }, 'retention purge done');
});

/** How often the day-before reminders are looked for (and once at start). */
export const REMINDER_SWEEP_MS = 10 * 60_000;

/**
 * The visitors' day-before reminders (issue 15). Every instance runs it; the outbox's
 * dedupe key makes it one reminder per meeting, whoever queues it first.
 */
const reminderJob = periodicJob('reminder sweep', REMINDER_SWEEP_MS, async (app) => {
  const count = await queueReminders(app.db);
  if (count > 0) app.log.info({ count }, 'meeting reminders queued');
});

/** How often the companies' 'fin de journée' is looked for (and once at start). */
export const AUTO_CHECK_OUT_MS = 60_000;

/**
 * Automatic check-out (issue 14, checkins/auto-check-out.ts): every instance runs it;
 * its guarded UPDATE closes each check once, whoever runs first.
 */
const autoCheckOutJob = periodicJob('automatic check-out', AUTO_CHECK_OUT_MS, async (app) => {
  const count = await autoCheckOut(app.db);
  if (count > 0) app.log.info({ count }, 'checked out automatically');
});

/** How often the throttle's refused sign-ins of closed minutes reach the audit log. */
export const REFUSALS_FLUSH_MS = 60_000;

/**
 * Throttled sign-ins (issue 27, auth/refusals.ts): every instance runs it; the one statement
 * takes each minute's counts once, whoever runs first.
 */
const refusalsJob = periodicJob(
  'throttled sign-ins to the audit log',
  REFUSALS_FLUSH_MS,
  async (app) => {
    const count = await flushRefusals(app.db);
    if (count > 0) app.log.info({ count }, 'throttled sign-ins audited');
  },
);

/** How often expired rate-limit counters are deleted (and once at start). */
export const RATE_LIMIT_SWEEP_MS = 60_000;

/**
 * Per-route rate limits counted in PostgreSQL (issue 32, rate-limits/sweep.ts): every
 * instance runs it; a row is deleted once, whoever runs first. Empty on PGlite and Redis.
 */
const rateLimitSweepJob = periodicJob(
  'expired rate-limit counters sweep',
  RATE_LIMIT_SWEEP_MS,
  async (app, signal) => {
    const count = await sweepExpiredCounters(app.db, signal);
    if (count > 0) app.log.debug({ count }, 'expired rate-limit counters deleted');
  },
);

/**
 * The weekly summary mails (issue 35, dashboard/weekly-report.ts): every instance looks every
 * few minutes for the reports due (Monday from 08:00 in each report's zone); the sent-weeks
 * row written with each mail makes it one mail per person and week, whoever queues it first.
 */
const weeklyReportJob = periodicJob(
  'weekly summary mails',
  WEEKLY_REPORT_SWEEP_MS,
  async (app, signal) => {
    const count = await queueWeeklyReports(app.db, { signal });
    if (count > 0) app.log.info({ count }, 'weekly summary mails queued');
  },
);

/** How often the dashboard's settled days are summarized (and once at start). */
export const DASHBOARD_SUMMARY_SWEEP_MS = 10 * 60_000;

/**
 * The dashboard's summary of settled days (issue 35, dashboard/summary.ts): every instance
 * runs it; a company's days are written under its lock, by whoever takes it first.
 */
const dashboardSummaryJob = periodicJob(
  'dashboard summary',
  DASHBOARD_SUMMARY_SWEEP_MS,
  async (app, signal) => {
    const { days, months } = await summarizeSettledDays(app.db, { signal });
    if (days + months > 0) app.log.info({ days, months }, 'dashboard days summarized');
  },
);

const jobs: Job[] = [
  mailWorkerJob,
  chatWorkerJob,
  webhookWorkerJob,
  orphanFileSweepJob,
  retentionJob,
  reminderJob,
  autoCheckOutJob,
  refusalsJob,
  rateLimitSweepJob,
  weeklyReportJob,
  dashboardSummaryJob,
];

export function startBackgroundWork(app: FastifyInstance): StopFn {
  const stops = jobs.map((job) => job(app));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
