/**
 * The chat worker (issue 34): sends the due rows of `chat_outbox` as the mail worker sends
 * mails (mail/worker.ts), and any number of server processes may run it:
 *
 * - claim: one short transaction takes one due row `FOR UPDATE SKIP LOCKED` and marks it
 *   `sending` with a lease; the attempt number is the lease's fencing token;
 * - render it from the rows as they are now (a request decided meanwhile, a visit
 *   cancelled, a host gone: cancelled, nothing sent), in the host's language;
 * - where: with a Slack bot token, a direct message to the host found by their e-mail;
 *   without one (or when Slack knows no such person, or refuses the token), the company's
 *   channels of every site and of the visit's site, each once per event (`cause`) however
 *   many people chose the chat. Each place reached is written down at once (`posted`), so a
 *   retry posts only where it failed;
 * - a failure that may pass (no answer, 5xx, 429, Slack busy) is retried with back-off; a
 *   refusal (another 4xx) is not. A message that reached nobody, for good (no place to
 *   post, every place refused, out of attempts), is sent by mail instead: a host who chose
 *   the chat is never left unaware.
 *
 * `clock` is the worker's "now" (due rows, back-off): tests move it instead of waiting.
 */
import { and, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { HostNotification } from '@sesame/shared';
import type { Config } from '../config';
import type { Db } from '../db/client';
import {
  chatChannels,
  chatOutbox,
  companyChat,
  mailOutbox,
  sites,
  users,
  visitors,
} from '../db/schema';
import { asLanguage } from '../mail/layout';
import {
  HOST_ARRIVAL_MAIL,
  HOST_REQUEST_MAIL,
  INVITATION_HERE_MAIL,
  type InvitationMailPayload,
  type LoopMailPayload,
} from '../mail/outbox';
import { findCheckIn, findInvitationSource, findLoopSource } from '../mail/sources';
import { timeAtSite } from '../mail/zone';
import { OutboxWorker, workerJob } from '../outbox-worker';
import { DecisionTokens, meetingDayEnd } from '../requests/decision-token';
import { SecretBox } from '../sso/secret-box';
import { wallClock } from '../time-zones';
import { safePost, type PostResult } from '../webhooks/safe-post';
import type { ChatPayload } from './outbox';
import { slackDirectMessage } from './slack';
import {
  arrivalMessage,
  hereMessage,
  requestMessage,
  slackBody,
  teamsBody,
  type Audience,
  type ChatMessage,
  type ChatReader,
} from './templates';

export const CHAT_RETRY = {
  /** First retry after this long, doubling each time up to maxDelayMs. */
  baseDelayMs: 5_000,
  maxDelayMs: 5 * 60_000,
  /** About ten minutes of attempts: past that a chat message is late news, the mail goes. */
  maxAttempts: 8,
  /** How long a claimed row stays its worker's: more than a send to every channel can take. */
  leaseMs: 5 * 60_000,
  /** How often the worker looks for due rows. */
  pollMs: 1_000,
};
export type ChatRetryOptions = typeof CHAT_RETRY;

type OutboxRow = typeof chatOutbox.$inferSelect;

export function chatRetryDelayMs(attempts: number, options: ChatRetryOptions = CHAT_RETRY) {
  return Math.min(options.baseDelayMs * 2 ** Math.max(0, attempts - 1), options.maxDelayMs);
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));
const hhmm = (at: Date, timeZone: string) => {
  const w = wallClock(at, timeZone);
  return `${String(w.hour).padStart(2, '0')}:${String(w.minute).padStart(2, '0')}`;
};

/** A message ready to go: for the host alone and for a channel, and where it belongs. */
interface Rendered {
  messages: Record<Audience, ChatMessage>;
  /** The visit's site: the channels of every site and of this one hear it. */
  siteId: string | null;
  /** The host's address, by which Slack finds them. */
  email: string;
}

/** What one attempt came to: someone reached, and what (if anything) is worth a retry. */
interface Attempt {
  reached: boolean;
  retry: string | null;
  problems: string[];
}

/** A POST's outcome: done, worth a retry, or refused for good. */
function judge(result: PostResult): 'ok' | 'retry' | 'refused' {
  if (result.refusal) return 'refused';
  if (result.status === null) return 'retry';
  if (result.status >= 200 && result.status < 300) return 'ok';
  if (result.status === 408 || result.status === 429 || result.status >= 500) return 'retry';
  return 'refused';
}

export class ChatWorker extends OutboxWorker<typeof chatOutbox> {
  private readonly options: ChatRetryOptions;
  private readonly tokens: DecisionTokens;
  private readonly box: SecretBox;
  private readonly clock: () => Date;

  constructor(
    private readonly deps: {
      db: Db;
      config: Pick<
        Config,
        'publicUrl' | 'jwtSecret' | 'ssoSecretKey' | 'slackApiUrl' | 'webhookAllowPrivate'
      >;
      log: FastifyBaseLogger;
      clock?: () => Date;
    },
    options: Partial<ChatRetryOptions> = {},
  ) {
    const settings = { ...CHAT_RETRY, ...options };
    super({ table: chatOutbox, state: chatOutbox.status }, settings.pollMs, (error) =>
      deps.log.error({ err: error }, 'chat worker pass failed'),
    );
    this.options = settings;
    this.tokens = new DecisionTokens(deps.config.jwtSecret);
    this.box = new SecretBox(deps.config.ssoSecretKey, 'chat-secret');
    this.clock = deps.clock ?? (() => new Date());
  }

  private later(ms: number): Date {
    return new Date(this.clock().getTime() + Math.round(ms));
  }

  /** Claims one due row for this worker (short transaction, SKIP LOCKED). */
  async claim(): Promise<OutboxRow | null> {
    return this.claimOneDue(this.deps.db, {
      due: and(
        inArray(chatOutbox.status, ['pending', 'sending']),
        lte(chatOutbox.nextAttemptAt, this.clock()),
      ),
      sending: {
        status: 'sending',
        attempts: this.nextAttempt(),
        nextAttemptAt: this.later(this.options.leaseMs),
      },
    });
  }

  /** An active staff member of the row's company: their name, address and language. */
  private async reader(row: OutboxRow) {
    const [user] = await this.deps.db
      .select({
        id: users.id,
        firstname: users.firstname,
        name: users.name,
        email: users.email,
        language: users.language,
        status: users.status,
        companyId: users.companyId,
        arrivalMail: users.arrivalMail,
      })
      .from(users)
      .where(eq(users.id, row.userId))
      .limit(1);
    if (!user || !user.status || user.companyId !== row.companyId) return null;
    return {
      ...user,
      lang: asLanguage(user.language),
      fullName: `${user.firstname} ${user.name}`.trim(),
    };
  }

  /** The message, or null when what it is about is gone or settled. Throws on any other error. */
  private async render(row: OutboxRow): Promise<Rendered | null> {
    const { db } = this.deps;
    const { publicUrl } = this.deps.config;
    // jsonb column: the outbox row of this worker, written by enqueueChat as a ChatPayload.
    const payload = row.payload as ChatPayload;
    const reader = await this.reader(row);
    if (!reader || !payload.visitorId) return null;
    const as = (isHost: boolean): ChatReader => ({
      lang: reader.lang,
      name: reader.fullName,
      isHost,
    });
    const both = (make: (audience: Audience) => ChatMessage) => ({
      direct: make('direct'),
      channel: make('channel'),
    });

    if (row.kind === 'here') {
      if (!payload.requestId || !payload.invitationId) return null;
      const source = await findInvitationSource(
        db,
        {
          visitorId: payload.visitorId,
          requestId: payload.requestId,
          invitationId: payload.invitationId,
        },
        publicUrl,
      );
      if (!source || source.companyId !== row.companyId) return null;
      if (source.request.cancelledAt || source.invitation.cancelledAt) return null;
      const isHost = source.invitation.hostUserId === reader.id;
      const hereAt = source.request.hereAt;
      const at = hereAt
        ? timeAtSite(hhmm(hereAt, source.site.timeZone), source.site, reader.lang)
        : null;
      const link = `${publicUrl}/${source.company.slug}/${isHost ? 'my-visitors' : 'on-site'}`;
      const facts = {
        company: source.company,
        visitor: source.visitor,
        siteName: source.site.name,
        hostName: source.invitation.hostName,
        reason: source.invitation.reason,
        at,
      };
      return {
        messages: both((audience) => hereMessage(facts, as(isHost), link, audience)),
        siteId: source.site.id,
        email: reader.email,
      };
    }

    const loop = await findLoopSource(db, payload.visitorId, publicUrl);
    if (!loop || loop.companyId !== row.companyId) return null;
    const [visitor] = await db
      .select({ siteId: visitors.siteId })
      .from(visitors)
      .where(eq(visitors.id, payload.visitorId))
      .limit(1);

    if (row.kind === 'request') {
      // Already decided (by another host, at the desk), or another request: the question is gone.
      if (loop.requestState.confirmed !== null) return null;
      if (!payload.requestId || loop.request.id !== payload.requestId) return null;
      const hostUserId = loop.requestState.hostUserId;
      const [host] = hostUserId
        ? await db
            .select({ name: sql<string>`trim(${users.firstname} || ' ' || ${users.name})` })
            .from(users)
            .where(eq(users.id, hostUserId))
        : [];
      const token = this.tokens.sign(
        { userId: reader.id, requestId: loop.request.id },
        meetingDayEnd(loop.visitor.requestDate, loop.timeZone),
      );
      const link = (choice: string) =>
        `${publicUrl}/company/${loop.company.slug}/host-decision?token=${token}&choice=${choice}`;
      const facts = {
        company: loop.company,
        visitor: loop.visitor,
        request: { reason: loop.request.reason, hostName: host?.name || loop.request.host },
        site: loop.site,
      };
      return {
        messages: both((audience) =>
          requestMessage(
            facts,
            as(hostUserId === reader.id),
            {
              confirm: link('confirm'),
              decline: link('decline'),
              requests: `${publicUrl}/${loop.company.slug}/list-qrcode`,
            },
            audience,
          ),
        ),
        siteId: visitor?.siteId ?? null,
        email: reader.email,
      };
    }

    if (row.kind === 'arrival') {
      // The host turned the arrival notice off since: it is off by chat too.
      if (!payload.checkId || !reader.arrivalMail) return null;
      const check = await findCheckIn(db, payload.checkId);
      if (!check) return null;
      const siteId = payload.siteId ?? visitor?.siteId ?? null;
      const [site] = siteId
        ? await db
            .select({ name: sites.name, timezone: sites.timezone })
            .from(sites)
            .where(eq(sites.id, siteId))
        : [];
      const zone = site?.timezone ?? loop.timeZone;
      const time = timeAtSite(
        hhmm(check.checkInAt, zone),
        { timeZone: zone, named: loop.site.named },
        reader.lang,
      )!;
      const facts = {
        company: loop.company,
        visitor: loop.visitor,
        siteName: site?.name ?? loop.site.name,
        time,
      };
      return {
        messages: both((audience) => arrivalMessage(facts, as(true), audience)),
        siteId,
        email: reader.email,
      };
    }
    return null;
  }

  /** The company's Slack bot token, when one is kept and opens under the server's key. */
  private async botToken(companyId: string): Promise<string | null> {
    const [row] = await this.deps.db
      .select({ sealed: companyChat.slackBotTokenSealed })
      .from(companyChat)
      .where(eq(companyChat.companyId, companyId));
    return row?.sealed ? this.box.open(row.sealed) : null;
  }

  /** Where others told of the same event posted it already: a channel hears it once. */
  private async postedBySiblings(row: OutboxRow, cause: string | undefined): Promise<Set<string>> {
    if (!cause) return new Set();
    const siblings = await this.deps.db
      .select({ payload: chatOutbox.payload })
      .from(chatOutbox)
      .where(
        and(
          eq(chatOutbox.companyId, row.companyId),
          eq(chatOutbox.kind, row.kind),
          ne(chatOutbox.id, row.id),
          sql`${chatOutbox.payload}->>'cause' = ${cause}`,
        ),
      );
    return new Set(
      // jsonb column: the sibling rows are this worker's, written by enqueueChat as ChatPayloads.
      siblings.flatMap((s) => (s.payload as ChatPayload).posted ?? []).filter((p) => p !== 'dm'),
    );
  }

  /** Writes down a place reached, at once: a retry, or a sibling, does not post there again. */
  private async markPosted(row: OutboxRow, place: string): Promise<void> {
    // jsonb column: the outbox row of this worker, written by enqueueChat as a ChatPayload.
    const payload = row.payload as ChatPayload;
    const next: ChatPayload = { ...payload, posted: [...(payload.posted ?? []), place] };
    row.payload = next;
    await this.deps.db.update(chatOutbox).set({ payload: next }).where(this.mine(row));
  }

  /** One attempt: the host directly when Slack knows them, else the channels. */
  private async post(row: OutboxRow, rendered: Rendered): Promise<Attempt> {
    const { config } = this.deps;
    const allowPrivate = config.webhookAllowPrivate;
    // jsonb column: the outbox row of this worker, written by enqueueChat as a ChatPayload.
    const payload = row.payload as ChatPayload;
    const posted = new Set(payload.posted ?? []);
    const problems: string[] = [];
    if (posted.has('dm')) return { reached: true, retry: null, problems };

    const token = await this.botToken(row.companyId);
    if (token) {
      const direct = await slackDirectMessage(
        { apiUrl: config.slackApiUrl, token, allowPrivate },
        rendered.email,
        slackBody(rendered.messages.direct),
      );
      if (direct.kind === 'sent') {
        await this.markPosted(row, 'dm');
        return { reached: true, retry: null, problems };
      }
      if (direct.kind === 'retry') return { reached: false, retry: direct.reason, problems };
      problems.push(direct.reason);
    }

    const channels = await this.deps.db
      .select()
      .from(chatChannels)
      .where(
        and(
          eq(chatChannels.companyId, row.companyId),
          rendered.siteId
            ? or(isNull(chatChannels.siteId), eq(chatChannels.siteId, rendered.siteId))
            : isNull(chatChannels.siteId),
        ),
      )
      .orderBy(chatChannels.createdAt, chatChannels.id);
    const elsewhere = await this.postedBySiblings(row, payload.cause);
    let reached = false;
    let retry: string | null = null;
    for (const channel of channels) {
      if (posted.has(channel.id) || elsewhere.has(channel.id)) {
        reached = true;
        continue;
      }
      const url = this.box.open(channel.urlSealed);
      if (!url) {
        problems.push(`channel ${channel.id}: its URL no longer opens (connect it again)`);
        continue;
      }
      const body =
        channel.kind === 'teams_workflow'
          ? teamsBody(rendered.messages.channel)
          : slackBody(rendered.messages.channel);
      const result = await safePost(url, JSON.stringify(body), { allowPrivate });
      const outcome = judge(result);
      if (outcome === 'ok') {
        reached = true;
        await this.markPosted(row, channel.id);
      } else {
        const why = `channel ${channel.id}: ${result.status ? `HTTP ${result.status}` : result.body}`;
        if (outcome === 'retry') retry = why;
        else problems.push(why);
      }
    }
    if (channels.length === 0) problems.push('no chat channel for this site');
    return { reached, retry, problems };
  }

  /**
   * The mail the message stands for, queued when the chat reached nobody for good. Its
   * dedupe key is the mail's own: a host who chose both already has it, and gets no other.
   */
  private async queueMailInstead(tx: Db, row: OutboxRow): Promise<boolean> {
    // jsonb column: the outbox row of this worker, written by enqueueChat as a ChatPayload.
    const payload = row.payload as ChatPayload;
    const [user] = await tx
      .select({ email: users.email, status: users.status })
      .from(users)
      .where(eq(users.id, row.userId));
    if (!user?.status || !user.email.trim()) return false;
    // text column: enqueueChat writes only HostNotification kinds.
    const kind = row.kind as HostNotification;
    let mail: { kind: string; payload: LoopMailPayload | InvitationMailPayload; dedupeKey: string };
    if (kind === 'request' && payload.requestId) {
      mail = {
        kind: HOST_REQUEST_MAIL,
        payload: { visitorId: payload.visitorId, requestId: payload.requestId, userId: row.userId },
        dedupeKey: `${HOST_REQUEST_MAIL}:${payload.requestId}:${row.userId}`,
      };
    } else if (kind === 'arrival' && payload.checkId) {
      mail = {
        kind: HOST_ARRIVAL_MAIL,
        payload: { visitorId: payload.visitorId, checkId: payload.checkId, userId: row.userId },
        dedupeKey: `${HOST_ARRIVAL_MAIL}:${payload.checkId}`,
      };
    } else if (kind === 'here' && payload.requestId && payload.invitationId && payload.day) {
      mail = {
        kind: INVITATION_HERE_MAIL,
        payload: {
          visitorId: payload.visitorId,
          requestId: payload.requestId,
          invitationId: payload.invitationId,
          sequence: payload.sequence ?? 0,
          day: payload.day,
          userId: row.userId,
        },
        dedupeKey: `invitation-here:${payload.requestId}:${payload.day}:${row.userId}`,
      };
    } else {
      return false;
    }
    const queued = await tx
      .insert(mailOutbox)
      .values({ companyId: row.companyId, toAddress: user.email, ...mail })
      .onConflictDoNothing({ target: mailOutbox.dedupeKey })
      .returning({ id: mailOutbox.id });
    return queued.length > 0;
  }

  /** Failed for good; when it reached nobody, its mail goes instead (one transaction). */
  private async giveUp(row: OutboxRow, reason: string, reached: boolean): Promise<void> {
    const mailed = await this.deps.db.transaction(async (tx) => {
      const [taken] = await tx
        .update(chatOutbox)
        .set({ status: 'failed', lastError: reason.slice(0, 1000) })
        .where(this.mine(row))
        .returning({ id: chatOutbox.id });
      return taken && !reached ? this.queueMailInstead(tx, row) : false;
    });
    this.deps.log.warn(
      { chatOutboxId: row.id, attempts: row.attempts, mailed, err: reason },
      reached ? 'chat message reached some places only' : 'chat message failed for good',
    );
  }

  protected async deliver(row: OutboxRow): Promise<void> {
    const { db, log } = this.deps;
    let rendered: Rendered | null;
    let attempt: Attempt;
    try {
      rendered = await this.render(row);
      if (!rendered) {
        await db
          .update(chatOutbox)
          .set({ status: 'cancelled', lastError: 'nothing to send (settled or gone)' })
          .where(this.mine(row));
        return;
      }
      attempt = await this.post(row, rendered);
    } catch (error) {
      // The database out, a template error: what it is about may still be there. Retry.
      log.error({ err: error, chatOutboxId: row.id }, 'chat message not sent, will retry');
      attempt = { reached: false, retry: errorText(error), problems: [] };
    }
    const reason = [attempt.retry, ...attempt.problems].filter(Boolean).join('; ');
    if (attempt.retry && row.attempts < this.options.maxAttempts) {
      const delay = chatRetryDelayMs(row.attempts, this.options);
      await db
        .update(chatOutbox)
        .set({
          status: 'pending',
          lastError: reason.slice(0, 1000),
          nextAttemptAt: this.later(delay),
        })
        .where(this.mine(row));
      log.warn(
        { chatOutboxId: row.id, attempts: row.attempts, retryInMs: delay, err: reason },
        'chat message not sent, will retry',
      );
      return;
    }
    if (attempt.reached && !attempt.retry) {
      await db
        .update(chatOutbox)
        .set({ status: 'sent', sentAt: this.clock(), lastError: reason || null })
        .where(this.mine(row));
      log.info({ chatOutboxId: row.id, kind: row.kind }, 'chat message sent');
      return;
    }
    await this.giveUp(row, reason || 'no place to post it', attempt.reached);
  }
}

/** The background job (registered in src/background.ts). */
export function chatWorkerJob(app: FastifyInstance): () => Promise<void> {
  return workerJob(
    new ChatWorker({ db: app.db, config: app.config, log: app.log.child({ job: 'chat' }) }),
  );
}
