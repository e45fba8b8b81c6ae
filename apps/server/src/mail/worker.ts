/**
 * The outbox worker (ARCHITECTURE §8). Any number of server processes may run it:
 *
 * - claim: one short transaction picks one due row `FOR UPDATE SKIP LOCKED` and
 *   marks it `sending` with a lease (next_attempt_at = now + lease); no other worker
 *   takes a row while its lease runs, so a mail is not sent twice;
 * - send outside any transaction (PGlite has one connection: holding it during
 *   an SMTP conversation would stall every request), renewing the lease while the
 *   SMTP server takes its time (a tarpit cannot outlive the lease);
 * - then `sent` (recorded again and again until the database takes it: a mail sent
 *   is never sent twice because the database was out at that moment), or back to
 *   `pending` with an exponential back-off, or `failed` at once on a permanent
 *   refusal (5xx) or after MAIL_RETRY.maxAttempts. The attempt number is the
 *   lease's fencing token: a worker whose lease was taken over records nothing.
 * - A mail is cancelled only when what it is about is gone (the visitor deleted);
 *   an error while rendering (the database out) is retried like a send error.
 * - A row whose worker died while sending is taken again once its lease has run
 *   out; its stable Message-ID lets a mail server drop the duplicate in that rare case.
 */
import { and, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { PollingLoop } from '../polling-loop';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { DecisionTokens, meetingDayEnd } from '../requests/decision-token';
import { wallClock } from '../time-zones';
import { findCardSource, meetingCardUrl } from '../visitors/card';
import {
  renderHostArrivalMail,
  renderHostRequestMail,
  renderVisitorAckMail,
  renderVisitorDeclinedMail,
  renderVisitorReminderMail,
} from './loop-templates';
import {
  HOST_ARRIVAL_MAIL,
  HOST_REQUEST_MAIL,
  INVITATION_CANCEL_MAIL,
  INVITATION_HERE_MAIL,
  INVITATION_MAIL,
  INVITATION_UPDATE_MAIL,
  VISITOR_ACK_MAIL,
  VISITOR_CODE_MAIL,
  VISITOR_DECLINED_MAIL,
  VISITOR_REMINDER_MAIL,
  type InvitationMailPayload,
  type LoopMailPayload,
} from './outbox';
import { InvitationLinks, invitationPageUrl } from '../invitations/link';
import {
  renderInvitationCancelMail,
  renderInvitationHereMail,
  renderInvitationMail,
} from './invitation-templates';
import {
  findCheckIn,
  findInvitationSource,
  findLoopSource,
  findStaffReader,
  type InvitationSource,
} from './sources';
import { senderAddress } from './calendar';
import {
  SIGNED_DOCUMENT_MAIL,
  renderSignedDocumentMail,
  type SignedDocumentMailPayload,
} from './signed-document-templates';
import { renderVisitorCodeMail, type RenderedMail } from './templates';
import { renderWatchlistAlertMail, type WatchlistAlertPayload } from './watchlist-templates';
import { WATCHLIST_ALERT_MAIL } from '../watchlist/match';
import { createMailTransport, type MailTransport } from './transport';
import { renderWeeklyReportMail } from '../dashboard/weekly-report-mail';
import { WEEKLY_REPORT_MAIL, type WeeklyReportPayload } from '../dashboard/weekly-report';

export const MAIL_RETRY = {
  /** First retry after this long, doubling each time up to maxDelayMs. */
  baseDelayMs: 15_000,
  maxDelayMs: 30 * 60_000,
  maxAttempts: 12,
  /** How long a claimed row stays reserved for the worker sending it, renewed while sending. */
  leaseMs: 5 * 60_000,
  /** How often the lease is renewed during a send. */
  renewEveryMs: 30_000,
  /** How often the worker looks for due rows. */
  pollMs: 1_000,
  /** Rows per claim: one, so no claimed row waits behind a slow send while its lease runs. */
  batchSize: 1,
  /** Waits between attempts at recording `sent` while the database is out. */
  recordRetryMs: 500,
};
export type MailRetryOptions = typeof MAIL_RETRY;

type OutboxRow = typeof mailOutbox.$inferSelect;

const INVITATION_KINDS = new Set([
  INVITATION_MAIL,
  INVITATION_UPDATE_MAIL,
  INVITATION_CANCEL_MAIL,
  INVITATION_HERE_MAIL,
]);

/** The SMTP server's permanent refusal (5xx), as its reply line; null for anything transient. */
export function permanentRefusal(error: unknown): string | null {
  // nodemailer's errors are plain objects with an SMTP responseCode, checked below.
  const e = error as { responseCode?: unknown; response?: unknown; message?: unknown } | null;
  if (!e || typeof e.responseCode !== 'number') return null;
  if (e.responseCode < 500 || e.responseCode > 599) return null;
  return typeof e.response === 'string' ? e.response : String(e.message ?? e.responseCode);
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function retryDelayMs(attempts: number, options: MailRetryOptions = MAIL_RETRY): number {
  return Math.min(options.baseDelayMs * 2 ** Math.max(0, attempts - 1), options.maxDelayMs);
}

const msFromNow = (ms: number) => sql`now() + (${Math.round(ms)} * interval '1 millisecond')`;

export class MailWorker {
  private readonly options: MailRetryOptions;
  private readonly tokens: DecisionTokens;
  private readonly invitationLinks: InvitationLinks;
  /** Its loop; stop() sets `loop.stopping`: the worker finishes the mail in hand and claims no other. */
  private readonly loop: PollingLoop;

  constructor(
    private readonly deps: {
      db: Db;
      config: Pick<Config, 'publicUrl' | 'mailFrom' | 'jwtSecret'>;
      log: FastifyBaseLogger;
      transport: MailTransport;
    },
    options: Partial<MailRetryOptions> = {},
  ) {
    this.options = { ...MAIL_RETRY, ...options };
    this.loop = new PollingLoop(
      () => this.drain(),
      this.options.pollMs,
      (error) => deps.log.error({ err: error }, 'mail worker pass failed'),
    );
    this.tokens = new DecisionTokens(deps.config.jwtSecret);
    this.invitationLinks = new InvitationLinks(deps.config.jwtSecret);
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

  /** The ORGANIZER of a visit's `.ics`: the site's front desk, else the company's, else MAIL_FROM's. */
  private organizerEmail(site: { frontDeskEmail: string | null }, companyEmail: string | null) {
    return (
      site.frontDeskEmail ?? (companyEmail?.trim() || senderAddress(this.deps.config.mailFrom))
    );
  }

  /** The invitation's visitor page, signed until their invitation's last day ends. */
  private invitationPage(source: InvitationSource, here = false): string {
    const lastEnd = source.days[source.days.length - 1]?.endsAt;
    const token = this.invitationLinks.sign(
      source.request.id,
      source.visitor.dayEndsAt ?? lastEnd ?? new Date(),
    );
    return invitationPageUrl(this.deps.config.publicUrl, source.company.slug, token, here);
  }

  /**
   * An invitation's mail (issue 30), read from the rows as they are now. The invitation and
   * its change go to a visitor whose visit still stands (a cancelled one gets none: null);
   * the cancellation goes whatever came since; "here" goes to a staff member still active
   * in the company (or, without one, to the site's front desk address).
   */
  private async renderInvitation(row: OutboxRow): Promise<RenderedMail | null> {
    const { db } = this.deps;
    const { publicUrl } = this.deps.config;
    // jsonb column: an invitation mail's row, queued with this payload (enqueueInvitationMails).
    const payload = row.payload as InvitationMailPayload;
    if (!payload.visitorId || !payload.requestId || !payload.invitationId) return null;
    const source = await findInvitationSource(db, payload, publicUrl);
    if (!source || source.companyId !== row.companyId) return null;
    const ctx = {
      publicUrl,
      organizerEmail: this.organizerEmail(source.site, source.companyEmail),
    };
    const cancelled = source.request.cancelledAt !== null || source.invitation.cancelledAt !== null;
    switch (row.kind) {
      case INVITATION_MAIL:
      case INVITATION_UPDATE_MAIL:
        if (cancelled) return null;
        return renderInvitationMail(
          source,
          row.kind === INVITATION_MAIL ? 'invitation' : 'update',
          payload.sequence ?? source.invitation.sequence,
          { page: this.invitationPage(source), here: this.invitationPage(source, true) },
          ctx,
        );
      case INVITATION_CANCEL_MAIL:
        return renderInvitationCancelMail(
          source,
          {
            sequence: payload.sequence ?? source.invitation.sequence,
            day: payload.day ?? null,
            url: `${publicUrl}/${source.company.slug}`,
          },
          ctx,
        );
      case INVITATION_HERE_MAIL: {
        if (cancelled) return null;
        if (!payload.userId) {
          return renderInvitationHereMail(
            source,
            { lang: 'fr', firstname: null, isHost: false },
            publicUrl,
          );
        }
        const reader = await findStaffReader(db, payload.userId, row.companyId);
        if (!reader) return null;
        return renderInvitationHereMail(
          source,
          {
            lang: reader.lang,
            firstname: reader.firstname,
            isHost: source.invitation.hostUserId === reader.id,
          },
          publicUrl,
        );
      }
      default:
        return null;
    }
  }

  /** The mail, or null when what it is about is gone for good. Throws on any other error. */
  private async render(row: OutboxRow): Promise<RenderedMail | null> {
    const { db } = this.deps;
    const { publicUrl } = this.deps.config;
    if (INVITATION_KINDS.has(row.kind)) return this.renderInvitation(row);
    if (row.kind === WATCHLIST_ALERT_MAIL) {
      // jsonb column: the row of this kind is queued with this payload.
      const alert = row.payload as WatchlistAlertPayload;
      return renderWatchlistAlertMail(db, alert, row.companyId, row.toAddress, publicUrl);
    }
    if (row.kind === SIGNED_DOCUMENT_MAIL) {
      // jsonb column: the row of this kind is queued with this payload.
      const signed = row.payload as SignedDocumentMailPayload;
      return renderSignedDocumentMail(db, signed, row.companyId, publicUrl);
    }
    if (row.kind === WEEKLY_REPORT_MAIL) {
      // Issue 35: the week's figures travel in the row; null when the reader no longer wants it.
      const report = row.payload as WeeklyReportPayload;
      return renderWeeklyReportMail(db, report, row.companyId, publicUrl);
    }
    // jsonb column: every other kind is a loop mail, queued with a visitor's and a request's ids.
    const payload = row.payload as LoopMailPayload;
    const loop = await findLoopSource(db, payload.visitorId, publicUrl);
    if (!loop || loop.companyId !== row.companyId) return null;
    const { company, visitor, request, requestState } = loop;
    switch (row.kind) {
      case VISITOR_CODE_MAIL: {
        const source = await findCardSource(db, { visitorId: payload.visitorId });
        if (!source) return null;
        return renderVisitorCodeMail(source, publicUrl, {
          company,
          timeZone: loop.timeZone,
          site: loop.site,
          // Issue 27: strict calendar clients need the organizer's address: the front desk's
          // (the visit's site's, issue 28, else the company's own) when there is one, else
          // the address the mail comes from.
          organizerEmail: this.organizerEmail(loop.site, loop.companyEmail),
        });
      }
      case VISITOR_ACK_MAIL:
        return renderVisitorAckMail(
          loop,
          loop.visitorLanguage,
          `${publicUrl}/${company.slug}/waiting-validation/${request.id}`,
        );
      case VISITOR_DECLINED_MAIL:
        return requestState.confirmed === false
          ? renderVisitorDeclinedMail(loop, loop.visitorLanguage)
          : null;
      case VISITOR_REMINDER_MAIL:
        return requestState.confirmed === true
          ? renderVisitorReminderMail(
              loop,
              loop.visitorLanguage,
              meetingCardUrl(publicUrl, company.slug, visitor.uidn),
            )
          : null;
      case HOST_REQUEST_MAIL: {
        // Already decided (by another host, at the desk): the question is gone.
        if (requestState.confirmed !== null || !payload.userId) return null;
        const reader = await findStaffReader(db, payload.userId, row.companyId);
        if (!reader) return null;
        const token = this.tokens.sign(
          { userId: reader.id, requestId: request.id },
          meetingDayEnd(visitor.requestDate, loop.timeZone),
        );
        const link = (choice: string) =>
          `${publicUrl}/company/${company.slug}/host-decision?token=${token}&choice=${choice}`;
        return renderHostRequestMail(
          loop,
          {
            lang: reader.lang,
            firstname: reader.firstname,
            isHost: requestState.hostUserId === reader.id,
          },
          { confirm: link('confirm'), decline: link('decline') },
        );
      }
      case HOST_ARRIVAL_MAIL: {
        if (!payload.userId || !payload.checkId) return null;
        const reader = await findStaffReader(db, payload.userId, row.companyId);
        const check = await findCheckIn(db, payload.checkId);
        if (!reader || !reader.arrivalMail || !check) return null;
        const w = wallClock(check.checkInAt, loop.timeZone);
        const time = `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
        return renderHostArrivalMail(
          loop,
          { lang: reader.lang, firstname: reader.firstname },
          time,
        );
      }
      default:
        return null;
    }
  }

  /** This worker's claim on the row: still sending, and not taken over since (fencing token). */
  private mine(row: OutboxRow) {
    return and(
      eq(mailOutbox.id, row.id),
      eq(mailOutbox.status, 'sending'),
      eq(mailOutbox.attempts, row.attempts),
    );
  }

  /** Back to pending with back-off, or failed for good when `permanent` or out of attempts. */
  private async notSent(row: OutboxRow, reason: string, permanent: boolean): Promise<void> {
    const giveUp = permanent || row.attempts >= this.options.maxAttempts;
    const delay = retryDelayMs(row.attempts, this.options);
    await this.deps.db
      .update(mailOutbox)
      .set({
        status: giveUp ? 'failed' : 'pending',
        lastError: reason.slice(0, 1000),
        nextAttemptAt: msFromNow(giveUp ? 0 : delay),
      })
      .where(this.mine(row));
    this.deps.log.warn(
      { outboxId: row.id, attempts: row.attempts, retryInMs: giveUp ? null : delay, err: reason },
      permanent
        ? 'mail refused for good by the mail server'
        : giveUp
          ? 'mail failed for good'
          : 'mail not sent, will retry',
    );
  }

  /**
   * Records `sent` until the database takes it: the mail is out, and a row left
   * `sending` would be sent again once its lease ran out.
   */
  private async recordSent(row: OutboxRow): Promise<void> {
    let tries = 0;
    for (;;) {
      try {
        await this.deps.db
          .update(mailOutbox)
          .set({ status: 'sent', sentAt: new Date(), lastError: null })
          .where(
            and(eq(mailOutbox.id, row.id), inArray(mailOutbox.status, ['sending', 'pending'])),
          );
        return;
      } catch (error) {
        tries += 1;
        if (this.loop.stopping && tries > 20) throw error;
        if (tries === 1)
          this.deps.log.warn(
            { outboxId: row.id, err: errorText(error) },
            'mail sent; recording it waits for the database',
          );
        await new Promise((r) => setTimeout(r, this.options.recordRetryMs));
      }
    }
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, log, transport, config } = this.deps;
    let mail: RenderedMail | null;
    try {
      mail = await this.render(row);
    } catch (error) {
      // The database out, a template error: the visitor and the request still exist. Retry.
      log.error({ err: error, outboxId: row.id }, 'mail could not be rendered, will retry');
      await this.notSent(row, `rendering: ${errorText(error)}`, false);
      return;
    }
    if (!mail) {
      // The visitor was deleted (or the kind is unknown): nothing to send, ever.
      await db
        .update(mailOutbox)
        .set({ status: 'cancelled', lastError: 'nothing to send (record gone)' })
        .where(this.mine(row));
      return;
    }
    // A slow (or tarpitting) SMTP server must not outlive the lease: renew it while sending.
    const renew = setInterval(() => {
      db.update(mailOutbox)
        .set({ nextAttemptAt: msFromNow(this.options.leaseMs) })
        .where(this.mine(row))
        .catch((error: unknown) =>
          log.warn({ outboxId: row.id, err: errorText(error) }, 'mail lease not renewed'),
        );
    }, this.options.renewEveryMs);
    let where: string;
    try {
      where = await transport.send({
        ...mail,
        outboxId: row.id,
        from: config.mailFrom,
        to: row.toAddress,
        // Stable across attempts and instances: a rare second send is the same mail.
        messageId: `<outbox-${row.id}@sesame>`,
      });
    } catch (error) {
      const refusal = permanentRefusal(error);
      await this.notSent(row, refusal ?? errorText(error), refusal !== null);
      return;
    } finally {
      clearInterval(renew);
    }
    await this.recordSent(row);
    log.info({ outboxId: row.id, kind: row.kind, where }, 'mail sent');
  }

  /** Sends everything due now; resolves with the number of rows handled. */
  async drain(): Promise<number> {
    let handled = 0;
    while (!this.loop.stopping) {
      const rows = await this.claim();
      if (rows.length === 0) return handled;
      for (const row of rows) await this.deliver(row);
      handled += rows.length;
    }
    return handled;
  }

  start(): void {
    this.loop.start();
  }

  /** Finishes the mail in hand, claims no other, and resolves when the worker is idle. */
  stop(): Promise<void> {
    return this.loop.stop();
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
