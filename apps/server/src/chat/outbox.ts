/**
 * The hosts' chat messages (issue 34), queued like mails (mail/outbox.ts): a row of
 * `chat_outbox` written in the transaction of its cause, once per cause and person
 * (`dedupe_key`), sent later by the chat worker (worker.ts). The arrival is queued by the
 * database itself (migration 0032's trigger); the request to decide and "I'm here" here.
 *
 * Each person's choice ("Mes notifications": mail, chat or both) decides the way: the mail
 * when they chose it or when the company has no chat connected (nobody is silenced by a
 * connection removed), a chat message when they chose it and a chat is connected.
 */
import { inArray, sql } from 'drizzle-orm';
import { goesByChat, goesByMail, type HostNotification } from '@sesame/shared';
import type { Db } from '../db/client';
import { chatOutbox, users } from '../db/schema';
import { chatAvailable, notificationChannelsOf } from './availability';

/** What a chat row carries: ids only; the worker reads the rest when it sends. */
export interface ChatPayload {
  visitorId: string;
  requestId?: string;
  /** The arrival's check (queued by the database). */
  checkId?: string;
  /** The arrival's site (queued by the database): the channels of that site hear it. */
  siteId?: string;
  /** "I'm here": the invitation, its sequence and the day (YYYY-MM-DD) it was said. */
  invitationId?: string;
  sequence?: number;
  day?: string;
  /**
   * The event the message is about, shared by every person told of it: a channel hears it
   * once, however many of its people chose the chat (a request to the front desk, "I'm here"
   * to the host and the desk).
   */
  cause?: string;
  /** Where it was posted already ('dm', or channel ids), kept across attempts by the worker. */
  posted?: string[];
}

export interface HostWay {
  mail: boolean;
  chat: boolean;
}

const MAIL_ONLY: HostWay = { mail: true, chat: false };

/**
 * How each of `userIds` hears of `kind`: by mail, by chat, or both. One read of their
 * choices, and of the company's connection only when someone chose the chat.
 */
export async function hostWays(
  tx: Db,
  companyId: string,
  kind: HostNotification,
  userIds: readonly string[],
): Promise<(userId: string) => HostWay> {
  if (userIds.length === 0) return () => MAIL_ONLY;
  const rows = await tx
    .select({ id: users.id, channels: users.notificationChannels })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  const chosen = new Map(rows.map((row) => [row.id, notificationChannelsOf(row.channels)[kind]]));
  const someChat = [...chosen.values()].some(goesByChat);
  const connected = someChat && (await chatAvailable(tx, companyId));
  return (userId) => {
    const channel = chosen.get(userId) ?? 'mail';
    const chat = connected && goesByChat(channel);
    return { chat, mail: !chat || goesByMail(channel) };
  };
}

export interface QueuedChat {
  companyId: string;
  userId: string;
  kind: HostNotification;
  payload: ChatPayload;
  dedupeKey: string;
}

/**
 * Queues chat messages in the caller's transaction; a cause already queued (another
 * instance, a retry) queues nothing again. Answers how many were queued.
 */
export async function enqueueChat(tx: Db, messages: readonly QueuedChat[]): Promise<number> {
  if (messages.length === 0) return 0;
  const rows = await tx
    .insert(chatOutbox)
    .values([...messages])
    .onConflictDoNothing({ target: chatOutbox.dedupeKey })
    .returning({ id: chatOutbox.id });
  if (rows.length > 0) {
    // As the arrival trigger does: a worker listening hears of it at the commit.
    for (const companyId of new Set(messages.map((m) => m.companyId))) {
      await tx.execute(sql`select pg_notify('sesame_chat', ${companyId})`);
    }
  }
  return rows.length;
}
