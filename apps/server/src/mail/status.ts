/**
 * Each visitor mail's state as staff see it (ARCHITECTURE §8: "staff can see each
 * mail's state where its cause is shown"), and Renvoyer.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { MAIL_KINDS, isOneOf, type MailState, type MailStatus } from '@sesame/shared';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { enqueueVisitorCodeMail, VISITOR_CODE_MAIL } from './outbox';
import { firstRow } from '../db/rows';

type OutboxRow = typeof mailOutbox.$inferSelect;

export function mailState(row: Pick<OutboxRow, 'status' | 'attempts'>): MailState {
  switch (row.status) {
    case 'pending':
      return row.attempts > 0 ? 'retrying' : 'queued';
    case 'sending':
    case 'sent':
    case 'failed':
    case 'cancelled':
      return row.status;
    default:
      return 'queued';
  }
}

export function presentMail(row: OutboxRow): MailStatus {
  const state = mailState(row);
  return {
    id: row.id,
    kind: isOneOf(MAIL_KINDS, row.kind) ? row.kind : 'visitor_code',
    state,
    to: row.toAddress,
    attempts: row.attempts,
    last_error: state === 'sent' ? null : row.lastError,
    sent_at: row.sentAt?.toISOString() ?? null,
    next_attempt_at:
      state === 'queued' || state === 'retrying' ? row.nextAttemptAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The mails about a visitor, newest first: every kind (issue 15: staff see which mails
 * went out), or only `kind`.
 */
export async function visitorMails(db: Db, visitorId: string, kind?: string): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(
      and(
        kind ? eq(mailOutbox.kind, kind) : undefined,
        // The expression of mail_outbox_visitor_idx.
        sql`(${mailOutbox.payload}->>'visitorId') = ${visitorId}`,
      ),
    )
    .orderBy(desc(mailOutbox.createdAt))
    .limit(20);
}

/**
 * Renvoyer: a mail still waiting is made due now (never a second copy); otherwise
 * (sent, failed, cancelled) a new mail is queued. Null when the visitor never had one.
 */
export async function resendVisitorMail(
  tx: Db,
  visitor: { id: string; companyId: string },
): Promise<OutboxRow | null> {
  const [latest] = await visitorMails(tx, visitor.id, VISITOR_CODE_MAIL);
  if (!latest) return null;
  if (latest.status === 'pending') {
    const [row] = await tx
      .update(mailOutbox)
      .set({ nextAttemptAt: new Date() })
      .where(and(eq(mailOutbox.id, latest.id), eq(mailOutbox.status, 'pending')))
      .returning();
    if (row) return row;
  }
  if (latest.status === 'sending') return latest;
  const id = await enqueueVisitorCodeMail(tx, {
    companyId: visitor.companyId,
    visitorId: visitor.id,
  });
  return firstRow(
    await tx.select().from(mailOutbox).where(eq(mailOutbox.id, id)),
    'the code mail just queued',
  );
}
