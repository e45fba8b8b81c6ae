/**
 * The transactional outbox (ARCHITECTURE §8): a mail is a row of `mail_outbox`
 * written in the same transaction as the change that causes it. The worker
 * (worker.ts) renders and sends it later, with retries.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox, visitors } from '../db/schema';
import { firstRow } from '../db/rows';

/** The visitor's code and QR, sent when a request is confirmed or an event registration lands. */
export const VISITOR_CODE_MAIL = 'visitor_code';

export interface VisitorCodeMailPayload {
  visitorId: string;
}

/**
 * Queues the visitor-code mail in the caller's transaction. The worker renders it
 * from the visitor, their request or event, and the company, in the visitor's language.
 */
export async function enqueueVisitorCodeMail(
  tx: Db,
  { companyId, visitorId }: { companyId: string; visitorId: string },
): Promise<string> {
  const [visitor] = await tx
    .select({ email: visitors.email })
    .from(visitors)
    .where(and(eq(visitors.id, visitorId), eq(visitors.companyId, companyId)))
    .limit(1);
  if (!visitor)
    throw new Error(`enqueueVisitorCodeMail: no visitor ${visitorId} in company ${companyId}`);
  const payload: VisitorCodeMailPayload = { visitorId };
  const rows = await tx
    .insert(mailOutbox)
    .values({ companyId, kind: VISITOR_CODE_MAIL, toAddress: visitor.email, payload })
    .returning({ id: mailOutbox.id });
  return firstRow(rows, 'the queued code mail').id;
}

/**
 * The code mail when the visitor gave an e-mail: a kiosk walk-in may leave a phone number
 * only (issue 29), and no mail is ever queued to an empty address. Null when none was.
 */
export async function enqueueVisitorCodeMailIfAddressed(
  tx: Db,
  visitor: { companyId: string; visitorId: string },
): Promise<string | null> {
  const [row] = await tx
    .select({ email: visitors.email })
    .from(visitors)
    .where(and(eq(visitors.id, visitor.visitorId), eq(visitors.companyId, visitor.companyId)))
    .limit(1);
  if (row && !row.email.trim()) return null;
  return enqueueVisitorCodeMail(tx, visitor);
}

/** The mails of the host loop (issue 15), each queued once for its cause (`dedupe_key`). */
export const VISITOR_ACK_MAIL = 'visitor_ack';
export const VISITOR_DECLINED_MAIL = 'visitor_declined';
export const VISITOR_REMINDER_MAIL = 'visitor_reminder';
export const HOST_REQUEST_MAIL = 'host_request';
export const HOST_ARRIVAL_MAIL = 'host_arrival';

/** Every visitor-side mail names its visitor (the staff's mail state reads it). */
export interface LoopMailPayload {
  visitorId: string;
  requestId?: string;
  /** The staff member a host mail goes to (host request, arrival). */
  userId?: string;
  checkId?: string;
}

/**
 * Queues one mail for its cause in the caller's transaction; a second call for the
 * same cause (another instance, a retry) queues nothing. Returns the row's id, or
 * null when the mail was already queued.
 */
export async function enqueueOnce(
  tx: Db,
  mail: {
    companyId: string;
    kind: string;
    toAddress: string;
    payload: LoopMailPayload;
    dedupeKey: string;
  },
): Promise<string | null> {
  // A visitor without an e-mail (a kiosk walk-in, issue 29) is told at the kiosk, not by mail.
  if (!mail.toAddress.trim()) return null;
  const [row] = await tx
    .insert(mailOutbox)
    .values(mail)
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return row?.id ?? null;
}

/**
 * The invitation's mails (issue 30), each with its `.ics`: the invitation itself, a change
 * of its schedule, a cancellation (the whole invitation, one day of it, or one visitor),
 * each written with the invitation's `sequence` at the time, so a calendar keeps the
 * latest; and "Je suis arrivé(e)" told to the host and the site's front desk.
 */
export const INVITATION_MAIL = 'invitation';
export const INVITATION_UPDATE_MAIL = 'invitation_update';
export const INVITATION_CANCEL_MAIL = 'invitation_cancel';
export const INVITATION_HERE_MAIL = 'invitation_here';

export interface InvitationMailPayload {
  visitorId: string;
  requestId: string;
  invitationId: string;
  /** The invitation's sequence this mail's `.ics` carries. */
  sequence: number;
  /** A cancellation of one day (YYYY-MM-DD); absent: the whole invitation for this visitor. */
  day?: string;
  /** The staff member a "here" mail goes to (absent: the site's front desk address). */
  userId?: string;
}

/**
 * Queues one mail per row in one statement, in the caller's transaction (an import of 500
 * visitors queues its 500 mails at once). A row without an address is skipped (a visitor
 * invited by phone only); a dedupe key already queued is skipped too.
 */
export async function enqueueInvitationMails(
  tx: Db,
  kind: string,
  mails: {
    companyId: string;
    toAddress: string;
    payload: InvitationMailPayload;
    dedupeKey: string;
  }[],
): Promise<number> {
  const addressed = mails.filter((mail) => mail.toAddress.trim());
  if (addressed.length === 0) return 0;
  const rows = await tx
    .insert(mailOutbox)
    .values(addressed.map((mail) => ({ ...mail, kind })))
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .returning({ id: mailOutbox.id });
  return rows.length;
}
