/**
 * Whether a company has connected a chat (issue 34): a Slack bot token or at least one
 * channel. A host's "chat" choice reaches somebody only then; otherwise the message goes by
 * mail (the arrival trigger of migration 0032 applies the same rule in SQL).
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import {
  DEFAULT_NOTIFICATION_CHANNELS,
  notificationChannelsSchema,
  type NotificationChannels,
} from '@sesame/shared';
import type { Db } from '../db/client';
import { chatChannels, companyChat } from '../db/schema';

export async function chatAvailable(db: Db, companyId: string): Promise<boolean> {
  const [row] = await db
    .select({
      available: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(chatChannels)
        .where(eq(chatChannels.companyId, companyId))})
        or exists (${db
          .select({ one: sql`1` })
          .from(companyChat)
          .where(
            and(eq(companyChat.companyId, companyId), isNotNull(companyChat.slackBotTokenSealed)),
          )})`,
    })
    .from(sql`(select 1) as one`);
  return row?.available === true;
}

/** A stored `users.notification_channels`, read safely: anything unknown reads as mail. */
export function notificationChannelsOf(stored: unknown): NotificationChannels {
  const parsed = notificationChannelsSchema.partial().safeParse(stored);
  return { ...DEFAULT_NOTIFICATION_CHANNELS, ...(parsed.success ? parsed.data : {}) };
}
