/**
 * The outbox worker (ARCHITECTURE §8). Any number of server processes may run it:
 *
 * - claim: one short transaction picks due rows `FOR UPDATE SKIP LOCKED` and marks
 *   them `sending` with a lease (next_attempt_at = now + lease); no other worker
 *   takes a row while its lease runs, so a mail is not sent twice;
 * - send outside any transaction (PGlite has one connection: holding it during
 *   an SMTP conversation would stall every request);
 * - then `sent`, or back to `pending` with an exponential back-off, or `failed`
 *   after MAIL_RETRY.maxAttempts. A row whose worker died while sending is taken
 *   again once its lease has run out; its stable Message-ID lets a mail server
 *   drop the duplicate in that rare case.
 */
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { findCardSource } from '../visitors/card';
import { VISITOR_CODE_MAIL, type VisitorCodeMailPayload } from './outbox';
import { renderVisitorCodeMail, type RenderedMail } from './templates';
import { createMailTransport, type MailTransport } from './transport';

export const MAIL_RETRY = {
  /** First retry after this long, doubling each time up to maxDelayMs. */
  baseDelayMs: 15_000,
  maxDelayMs: 30 * 60_000,
  maxAttempts: 12,
  /** How long a claimed row stays reserved for the worker sending it. */
  leaseMs: 5 * 60_000,
  /** How often the worker looks for due rows. */
  pollMs: 1_000,
  batchSize: 10,
};
export type MailRetryOptions = typeof MAIL_RETRY;

type OutboxRow = typeof mailOutbox.$inferSelect;

export function retryDelayMs(attempts: number, options: MailRetryOptions = MAIL_RETRY): number {
  return Math.min(options.baseDelayMs * 2 ** Math.max(0, attempts - 1), options.maxDelayMs);
}

const msFromNow = (ms: number) => sql`now() + (${Math.round(ms)} * interval '1 millisecond')`;

export class MailWorker {
  private readonly options: MailRetryOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly deps: {
      db: Db;
      config: Pick<Config, 'publicUrl' | 'mailFrom'>;
      log: FastifyBaseLogger;
      transport: MailTransport;
    },
    options: Partial<MailRetryOptions> = {},
  ) {
    this.options = { ...MAIL_RETRY, ...options };
  }

  /** Claims due rows for this worker (short transaction, SKIP LOCKED). */
  async claim(): Promise<OutboxRow[]> {
    return this.deps.db.transaction(async (tx) => {
      const due = await tx
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(
          and(
            or(eq(mailOutbox.status, 'pending'), eq(mailOutbox.status, 'sending')),
            lte(mailOutbox.nextAttemptAt, sql`now()`),
          ),
        )
        .orderBy(mailOutbox.nextAttemptAt)
        .limit(this.options.batchSize)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      return tx
        .update(mailOutbox)
        .set({
          status: 'sending',
          attempts: sql`${mailOutbox.attempts} + 1`,
          nextAttemptAt: msFromNow(this.options.leaseMs),
        })
        .where(
          inArray(
            mailOutbox.id,
            due.map((d) => d.id),
          ),
        )
        .returning();
    });
  }

  private async render(row: OutboxRow): Promise<RenderedMail | null> {
    if (row.kind !== VISITOR_CODE_MAIL) return null;
    const { visitorId } = row.payload as VisitorCodeMailPayload;
    const source = await findCardSource(this.deps.db, { visitorId });
    if (!source || source.visitor.companyId !== row.companyId) return null;
    return renderVisitorCodeMail(source, this.deps.config.publicUrl);
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, log, transport, config } = this.deps;
    // Only the worker holding the lease (status still 'sending') records the outcome.
    const mine = and(eq(mailOutbox.id, row.id), eq(mailOutbox.status, 'sending'));
    let mail: RenderedMail | null;
    try {
      mail = await this.render(row);
    } catch (error) {
      mail = null;
      log.error({ err: error, outboxId: row.id }, 'mail could not be rendered');
    }
    if (!mail) {
      // The visitor was deleted (or the kind is unknown): nothing to send, ever.
      await db
        .update(mailOutbox)
        .set({ status: 'cancelled', lastError: 'nothing to send (record gone)' })
        .where(mine);
      return;
    }
    try {
      const where = await transport.send({
        ...mail,
        outboxId: row.id,
        from: config.mailFrom,
        to: row.toAddress,
        messageId: `<outbox-${row.id}@sesame>`,
      });
      await db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: new Date(), lastError: null })
        .where(mine);
      log.info({ outboxId: row.id, kind: row.kind, where }, 'mail sent');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const giveUp = row.attempts >= this.options.maxAttempts;
      const delay = retryDelayMs(row.attempts, this.options);
      await db
        .update(mailOutbox)
        .set({
          status: giveUp ? 'failed' : 'pending',
          lastError: message.slice(0, 1000),
          nextAttemptAt: msFromNow(giveUp ? 0 : delay),
        })
        .where(mine);
      log.warn(
        {
          outboxId: row.id,
          attempts: row.attempts,
          retryInMs: giveUp ? null : delay,
          err: message,
        },
        giveUp ? 'mail failed for good' : 'mail not sent, will retry',
      );
    }
  }

  /** Sends everything due now; resolves with the number of rows handled. */
  async drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const rows = await this.claim();
      if (rows.length === 0) return handled;
      for (const row of rows) await this.deliver(row);
      handled += rows.length;
    }
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.drain()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'mail worker pass failed'))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

/** The background job (registered in src/background.ts). */
export function mailWorkerJob(app: FastifyInstance): () => Promise<void> {
  const transport = createMailTransport(app.config, app.log);
  const log = app.log.child({ job: 'mail' });
  log.info(`mail worker started: mails go to ${transport.description}`);
  const worker = new MailWorker({ db: app.db, config: app.config, log, transport });
  worker.start();
  return async () => {
    await worker.stop();
    transport.close();
  };
}
