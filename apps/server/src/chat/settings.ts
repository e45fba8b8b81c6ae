/**
 * A company's chat connections (issue 34), as its admin side keeps them: a Slack bot token
 * (a direct message to each host, found by e-mail) and channels (a Slack incoming webhook or
 * a Teams Workflows webhook each, for every site or one). The token and the channels' URLs
 * are secrets (whoever holds one posts in the company's name): sealed at rest by the
 * SecretBox, never answered back; a channel shows its URL's host only. Every change is one
 * transaction with its audit entry.
 */
import { and, asc, eq } from 'drizzle-orm';
import {
  CHAT_LIMITS,
  type ChatChannel,
  type ChatChannelKind,
  type ChatSettings,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { lockCompanyBelowLimit } from '../companies/limit';
import type { Db } from '../db/client';
import { chatChannels, companyChat } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { findSite } from '../sites/service';
import type { SecretBox } from '../sso/secret-box';
import { assertDeliverable } from '../webhooks/destination';

type ChannelRow = typeof chatChannels.$inferSelect;

export interface ChatActor {
  userId: string | null;
  box: SecretBox;
}

const present = (row: ChannelRow): ChatChannel => ({
  id: row.id,
  // text column: written only from the channel schema's kinds (CHAT_CHANNEL_KINDS).
  kind: row.kind as ChatChannelKind,
  name: row.name,
  url_host: row.urlHost,
  site_id: row.siteId,
  created_at: row.createdAt.toISOString(),
});

/** The company's settings as the screen reads them: whether a usable token is kept, the channels. */
export async function readChat(db: Db, companyId: string, box: SecretBox): Promise<ChatSettings> {
  const [row] = await db.select().from(companyChat).where(eq(companyChat.companyId, companyId));
  const channels = await db
    .select()
    .from(chatChannels)
    .where(eq(chatChannels.companyId, companyId))
    .orderBy(asc(chatChannels.createdAt), asc(chatChannels.id));
  return {
    // A token sealed under another key no longer opens: the admin types it again.
    has_slack_bot_token: Boolean(
      row?.slackBotTokenSealed && box.open(row.slackBotTokenSealed) !== null,
    ),
    channels: channels.map(present),
  };
}

/**
 * Saves the Slack bot token: absent or blank keeps the stored one, null removes it, text
 * replaces it. Audited 'chat.updated' with what became of the token, never the token.
 */
export async function saveBotToken(
  db: Db,
  companyId: string,
  token: string | null | undefined,
  actor: ChatActor,
): Promise<void> {
  const change = token === null ? 'removed' : token ? 'replaced' : 'kept';
  await db.transaction(async (tx) => {
    if (change !== 'kept') {
      const values = {
        slackBotTokenSealed: change === 'removed' ? null : actor.box.seal(token!),
        updatedBy: actor.userId,
        updatedAt: new Date(),
      };
      await tx
        .insert(companyChat)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: companyChat.companyId, set: values });
    }
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'chat.updated',
      subjectType: 'company',
      subjectId: companyId,
      detail: { slackBotToken: change },
    });
  });
}

/**
 * Connects a channel. Its URL is checked as it will be at each send (https, no private or
 * local address unless the operator allows it: 400 on `url`); its site must be an active one
 * of the company (400 on `site_id`); a company holds at most CHAT_LIMITS.channelsMax (409,
 * counted under the company's row lock, so two saves at once cannot pass it).
 */
export async function addChannel(
  db: Db,
  companyId: string,
  input: { kind: ChatChannelKind; name: string; url: string; site_id: string | null },
  actor: ChatActor & { allowPrivate: boolean },
): Promise<ChatChannel> {
  assertDeliverable(input.url, actor.allowPrivate);
  if (input.site_id) {
    const site = await findSite(db, input.site_id);
    if (!site || site.companyId !== companyId) {
      throw badRequest((m) => m.site.choose, { site_id: (m) => m.site.choose });
    }
    if (site.archivedAt) {
      throw badRequest((m) => m.site.archivedSite, { site_id: (m) => m.site.archivedSite });
    }
  }
  return db.transaction(async (tx) => {
    await lockCompanyBelowLimit(tx, companyId, {
      table: chatChannels,
      held: eq(chatChannels.companyId, companyId),
      max: CHAT_LIMITS.channelsMax,
      tooMany: (m) => m.integrations.channelsTooMany(CHAT_LIMITS.channelsMax),
    });
    const [row] = await tx
      .insert(chatChannels)
      .values({
        companyId,
        kind: input.kind,
        name: input.name,
        urlSealed: actor.box.seal(input.url),
        urlHost: new URL(input.url).host,
        siteId: input.site_id,
        createdBy: actor.userId,
      })
      .returning();
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'chat.channel_added',
      subjectType: 'chat_channel',
      subjectId: row!.id,
      detail: { kind: input.kind, siteId: input.site_id },
    });
    return present(row!);
  });
}

/** Disconnects a channel of the company (another company's, or none: 404), audited. */
export async function removeChannel(
  db: Db,
  companyId: string,
  channelId: string,
  actor: Pick<ChatActor, 'userId'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(chatChannels)
      .where(and(eq(chatChannels.id, channelId), eq(chatChannels.companyId, companyId)))
      .returning({ id: chatChannels.id, kind: chatChannels.kind });
    if (!row) throw notFound();
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'chat.channel_removed',
      subjectType: 'chat_channel',
      subjectId: row.id,
      detail: { kind: row.kind },
    });
  });
}
