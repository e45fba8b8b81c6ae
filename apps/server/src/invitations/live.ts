/**
 * An invitation's news on the live feed (issue 30): sent by the statement that makes it, in
 * its transaction (PostgreSQL delivers a NOTIFY at commit, never for a rollback), so the
 * host's "Mes visiteurs" and the front desk's screens hear it on every instance.
 */
import { sql } from 'drizzle-orm';
import type { LiveEvent } from '@sesame/shared';
import type { Db } from '../db/client';
import { LIVE_CHANNEL } from '../on-site/live';

export type InvitationNews = Omit<Extract<LiveEvent, { type: 'invitation' }>, 'type'>;

export async function notifyInvitation(tx: Db, news: InvitationNews): Promise<void> {
  const payload = JSON.stringify({ type: 'invitation', ...news });
  await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`);
}
