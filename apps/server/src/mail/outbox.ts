/**
 * The transactional outbox (ARCHITECTURE §8): a mail is a row of `mail_outbox`
 * written in the same transaction as the change that causes it. The worker
 * (worker.ts) renders and sends it later, with retries.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox, visitors } from '../db/schema';

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
  const [row] = await tx
    .insert(mailOutbox)
    .values({ companyId, kind: VISITOR_CODE_MAIL, toAddress: visitor.email, payload })
    .returning({ id: mailOutbox.id });
  return row!.id;
}
