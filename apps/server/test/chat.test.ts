/**
 * Issue 34, chat notifications for hosts, on PGlite and PostgreSQL, against a local HTTP
 * stand-in for Slack (incoming webhooks, users.lookupByEmail, chat.postMessage) and for
 * Teams (a Workflows webhook): the company's settings by role, secrets never answered back;
 * each host message (request, arrival, "I'm here") by mail, by chat or both as the host
 * chose, by mail when no chat is connected; the bodies as Slack and Teams document them, in
 * the host's language; the bot token's direct message; a failing endpoint retried; the
 * channels of a site; a visitor's name that would ping a channel or make a link.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger, InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_LIMITS, type InvitationCreated, type NotificationChannels } from '@sesame/shared';
import {
  auditEvents,
  chatChannels,
  chatOutbox,
  companyChat,
  mailOutbox,
  users,
  visitors,
} from '../src/db/schema';
import { ChatWorker, CHAT_RETRY } from '../src/chat/worker';
import { InvitationLinks } from '../src/invitations/link';
import { DecisionTokens } from '../src/requests/decision-token';
import { queueRequestFiledMails } from '../src/requests/host-loop';
import { dayOf } from '../src/time-zones';
import { as, startTestApp, tokenFor, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildSite, buildTenant, buildUser, buildVisitor } from './helpers/factories';

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
type Tenant = Awaited<ReturnType<typeof buildTenant>>;
type User = typeof users.$inferSelect;

const BOT_TOKEN = 'xoxb-1234-secret-bot-token';

/** A JSON body as JSON.parse gives it, read freely by the assertions. */
type Parsed = ReturnType<typeof JSON.parse>;

/** What the stand-in heard: the path, the headers and the body (parsed when JSON). */
interface Heard {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  json: Parsed;
}

/**
 * Slack and Teams as far as Sésame talks to them. `/slack-webhook/*` answers 200 "ok" (an
 * incoming webhook), `/teams-webhook/*` 202 (a Workflows trigger), `/api/*` Slack's Web API
 * (200 and `{ ok }`). `failures[path]` answers that many 500s first.
 */
async function startStandIn() {
  const heard: Heard[] = [];
  const failures = new Map<string, number>();
  const slackUsers = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      let json: Parsed = null;
      try {
        json = JSON.parse(raw);
      } catch {
        // A form (users.lookupByEmail) or an empty body.
      }
      heard.push({ path, headers: req.headers, raw, json });
      const failing = failures.get(path) ?? 0;
      if (failing > 0) {
        failures.set(path, failing - 1);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
        return;
      }
      const answer = (body: unknown) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path.startsWith('/slack-webhook/')) {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      } else if (path.startsWith('/teams-webhook/')) {
        res.writeHead(202).end();
      } else if (path === '/api/users.lookupByEmail') {
        if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`) {
          return answer({ ok: false, error: 'invalid_auth' });
        }
        const email = new URLSearchParams(raw).get('email') ?? '';
        const id = slackUsers.get(email);
        answer(id ? { ok: true, user: { id } } : { ok: false, error: 'users_not_found' });
      } else if (path === '/api/chat.postMessage') {
        if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`) {
          return answer({ ok: false, error: 'invalid_auth' });
        }
        answer({ ok: true, channel: 'D0001', ts: '1700000000.000100' });
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    heard,
    failures,
    slackUsers,
    /** What reached `path` (a prefix), in order. */
    at: (path: string) => heard.filter((h) => h.path.startsWith(path)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** DD/MM/YYYY today in UTC (the tenants' zone). */
const todayDmy = () => dayOf(new Date(), 'UTC').split('-').reverse().join('/');

describe(`chat notifications for hosts (${testDatabaseKind})`, () => {
  const ctx = {} as TestContext & { close(): Promise<void> };
  let stand: Awaited<ReturnType<typeof startStandIn>>;
  /** The worker's clock, ahead of the real one by `shift`: moved to reach a retry's time. */
  let shift = 0;
  const clock = () => new Date(Date.now() + shift);
  const worker = () => new ChatWorker({ db: ctx.db, config: ctx.config, log: silent, clock });
  const drain = () => worker().drain();
  let tag = 0;

  beforeAll(async () => {
    stand = await startStandIn();
    Object.assign(ctx, await startTestApp({ slackApiUrl: `${stand.base}/api` }));
  });
  afterAll(async () => {
    await ctx.close?.();
    await stand?.close();
  });

  const api = async (email: string) => as(ctx.app, await tokenFor(ctx.app, email));

  /** Connects a channel through the route; answers it and the path its URL posts to. */
  async function connect(
    tenant: Tenant,
    kind: 'slack_webhook' | 'teams_workflow',
    siteId: string | null = null,
  ) {
    tag += 1;
    const path = `/${kind === 'slack_webhook' ? 'slack-webhook' : 'teams-webhook'}/c${tag}`;
    const admin = await api(tenant.staff.ROLE_SUPER_ADMIN.email);
    const res = await admin({
      method: 'POST',
      url: `/api/company/${tenant.company.id}/chat/channels`,
      payload: { kind, name: `#accueil-${tag}`, url: `${stand.base}${path}`, site_id: siteId },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().data.id as string, path };
  }

  async function host(
    tenant: Tenant,
    language: 'fr' | 'en',
    channels: Partial<NotificationChannels>,
    values: Partial<typeof users.$inferInsert> = {},
  ): Promise<User> {
    return buildUser(ctx.db, {
      company: tenant.company,
      role: 'ROLE_USER',
      // Chosen: a sign-in in another language does not change it.
      language,
      languageChosen: true,
      firstname: language === 'fr' ? 'Moussa' : 'John',
      name: language === 'fr' ? 'Diallo' : 'Smith',
      notificationChannels: { request: 'mail', arrival: 'mail', here: 'mail', ...channels },
      ...values,
    });
  }

  const chatRows = (userId: string) =>
    ctx.db.select().from(chatOutbox).where(eq(chatOutbox.userId, userId));
  const mailRows = (email: string, kind: string) =>
    ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, kind)));

  /** A confirmed visit today for `hostUser`, checked in at the desk (the arrival trigger). */
  async function arrive(
    tenant: Tenant,
    hostUser: User,
    values: Partial<typeof visitors.$inferInsert> = {},
  ) {
    const visitor = await buildVisitor(ctx.db, { company: tenant.company, ...values });
    await buildRequest(ctx.db, {
      company: tenant.company,
      visitor,
      status: 1,
      confirmed: true,
      hostUserId: hostUser.id,
      host: `${hostUser.firstname} ${hostUser.name}`,
    });
    const desk = await api(tenant.staff.ROLE_EMPLOYEE.email);
    const check = await desk({ method: 'GET', url: `/api/get-qr-data/${visitor.uidn}` });
    expect(check.statusCode, check.body).toBe(200);
    return visitor;
  }

  /** A visit request filed for `hostUser` (or the front desk): its mails and chats queued. */
  async function fileRequest(
    tenant: Tenant,
    hostUser: User | null,
    values: Partial<typeof visitors.$inferInsert> = {},
  ) {
    const visitor = await buildVisitor(ctx.db, {
      company: tenant.company,
      requestDate: '24/11/2030',
      requestTime: '10:30',
      ...values,
    });
    const request = await buildRequest(ctx.db, {
      company: tenant.company,
      visitor,
      hostUserId: hostUser?.id ?? null,
      host: hostUser ? `${hostUser.firstname} ${hostUser.name}` : 'Mme Traoré',
      reason: 'Entretien',
    });
    await ctx.db.transaction((tx) =>
      queueRequestFiledMails(tx, {
        id: request.id,
        companyId: tenant.company.id,
        visitorId: visitor.id,
        hostUserId: request.hostUserId,
      }),
    );
    return { visitor, request };
  }

  /** An invitation today by `hostUser`, and "Je suis arrivé(e)" pressed by its visitor. */
  async function pressHere(tenant: Tenant, hostUser: User) {
    const hostApi = await api(hostUser.email);
    const res = await hostApi({
      method: 'POST',
      url: '/api/invitations',
      payload: {
        site_id: tenant.company.siteId,
        date: todayDmy(),
        time: '09:00',
        end_time: '10:00',
        reason: 'Audit',
        language: 'fr',
        visitors: [
          { firstname: 'Awa', lastname: 'Koné', email: 'awa@example.com', organisation: 'Orange' },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<InvitationCreated>();
    const requestId = created.visitors[0]!.request_id;
    const [visitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, created.visitors[0]!.visitor_id));
    const link = new InvitationLinks(ctx.config.jwtSecret).sign(requestId, visitor!.dayEndsAt!);
    const here = await ctx.app.inject({
      method: 'POST',
      url: `/api/public/invitation/here?token=${encodeURIComponent(link)}`,
    });
    expect(here.statusCode, here.body).toBe(200);
    return { requestId, visitor: visitor! };
  }

  describe('settings', () => {
    let acme: Tenant;
    let globex: Tenant;
    beforeAll(async () => {
      acme = await buildTenant(ctx.db);
      globex = await buildTenant(ctx.db);
    });

    it('are the admin side’s (super admin, platform admin); a manager is refused, another company’s is a 404', async () => {
      const url = `/api/company/${acme.company.id}/chat`;
      const superAdmin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
      const own = await superAdmin({ method: 'GET', url });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual({ data: { has_slack_bot_token: false, channels: [] } });
      const platform = await api(acme.staff.ROLE_ADMIN.email);
      expect(
        (await platform({ method: 'GET', url: `/api/company/${globex.company.id}/chat` }))
          .statusCode,
      ).toBe(200);
      const manager = await api(acme.staff.ROLE_MANAGER.email);
      expect((await manager({ method: 'GET', url })).statusCode).toBe(403);
      expect(
        (await manager({ method: 'PUT', url, payload: { slack_bot_token: 'xoxb-x' } })).statusCode,
      ).toBe(403);
      const other = await api(globex.staff.ROLE_SUPER_ADMIN.email);
      expect((await other({ method: 'GET', url })).statusCode).toBe(404);
      expect(
        (
          await other({
            method: 'POST',
            url: `${url}/channels`,
            payload: {
              kind: 'slack_webhook',
              name: 'x',
              url: `${stand.base}/slack-webhook/x`,
              site_id: null,
            },
          })
        ).statusCode,
      ).toBe(404);
    });

    it('keep the bot token and the URLs sealed, never answered back; every change audited', async () => {
      const url = `/api/company/${acme.company.id}/chat`;
      const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
      const saved = await admin({ method: 'PUT', url, payload: { slack_bot_token: BOT_TOKEN } });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({
        message: 'Messagerie enregistrée.',
        data: { has_slack_bot_token: true, channels: [] },
      });
      const [stored] = await ctx.db
        .select()
        .from(companyChat)
        .where(eq(companyChat.companyId, acme.company.id));
      expect(stored!.slackBotTokenSealed).toMatch(/^v1\./);
      expect(stored!.slackBotTokenSealed).not.toContain('secret-bot-token');
      // Absent or blank keeps it; null removes it.
      for (const payload of [{}, { slack_bot_token: '  ' }]) {
        const kept = await admin({ method: 'PUT', url, payload });
        expect(kept.json().data.has_slack_bot_token).toBe(true);
      }

      const secretPath = '/slack-webhook/T000/B000/very-secret-part';
      const added = await admin({
        method: 'POST',
        url: `${url}/channels`,
        payload: {
          kind: 'slack_webhook',
          name: '#accueil',
          url: `${stand.base}${secretPath}`,
          site_id: acme.company.siteId,
        },
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(added.json()).toMatchObject({
        message: 'Canal connecté.',
        data: {
          kind: 'slack_webhook',
          name: '#accueil',
          url_host: new URL(stand.base).host,
          site_id: acme.company.siteId,
        },
      });
      const listed = await admin({ method: 'GET', url });
      for (const body of [saved.body, added.body, listed.body]) {
        expect(body).not.toContain('very-secret-part');
        expect(body).not.toContain('secret-bot-token');
      }
      const [channel] = await ctx.db
        .select()
        .from(chatChannels)
        .where(eq(chatChannels.companyId, acme.company.id));
      expect(channel!.urlSealed).not.toContain('very-secret-part');

      const removed = await admin({
        method: 'PUT',
        url,
        payload: { slack_bot_token: null },
      });
      expect(removed.json().data.has_slack_bot_token).toBe(false);
      // Another company's channel is not found through this one.
      const other = await api(globex.staff.ROLE_SUPER_ADMIN.email);
      expect(
        (
          await other({
            method: 'DELETE',
            url: `/api/company/${globex.company.id}/chat/channels/${channel!.id}`,
          })
        ).statusCode,
      ).toBe(404);
      const gone = await admin({ method: 'DELETE', url: `${url}/channels/${channel!.id}` });
      expect(gone.statusCode).toBe(200);
      expect(gone.json()).toEqual({ message: 'Canal déconnecté.' });
      expect((await admin({ method: 'GET', url })).json().data.channels).toEqual([]);

      const audited = await ctx.db
        .select()
        .from(auditEvents)
        .where(eq(auditEvents.companyId, acme.company.id));
      const actions = audited.map((e) => e.action);
      expect(actions.filter((a) => a === 'chat.updated')).toHaveLength(4);
      expect(actions).toContain('chat.channel_added');
      expect(actions).toContain('chat.channel_removed');
      expect(JSON.stringify(audited)).not.toContain('secret');
    });

    it('refuse a URL Sésame will not post to, a site of another company, more than the limit', async () => {
      const url = `/api/company/${acme.company.id}/chat/channels`;
      const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
      const add = (payload: Record<string, unknown>) =>
        admin({
          method: 'POST',
          url,
          payload: { kind: 'teams_workflow', name: 'Teams', site_id: null, ...payload },
        });
      const invalid = await add({ url: 'ftp://example.com/hook' });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().errors.url).toBeDefined();
      ctx.app.config.webhookAllowPrivate = false;
      try {
        const plain = await add({ url: 'http://example.com/hook' });
        expect(plain.statusCode).toBe(400);
        expect(plain.json().errors.url).toBe("L'adresse du récepteur doit commencer par https://.");
        const local = await add({ url: 'https://127.0.0.1/hook' });
        expect(local.statusCode).toBe(400);
        expect(local.json().errors.url).toContain('réseau privé ou local');
      } finally {
        ctx.app.config.webhookAllowPrivate = true;
      }
      const foreign = await add({
        url: `${stand.base}/teams-webhook/x`,
        site_id: globex.company.siteId,
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors.site_id).toBeDefined();

      const third = await buildTenant(ctx.db);
      await ctx.db.insert(chatChannels).values(
        Array.from({ length: CHAT_LIMITS.channelsMax }, (_, i) => ({
          companyId: third.company.id,
          kind: 'slack_webhook',
          name: `#c${i}`,
          urlSealed: 'v1.x.y',
          urlHost: 'hooks.slack.com',
        })),
      );
      const admin3 = await api(third.staff.ROLE_SUPER_ADMIN.email);
      const tooMany = await admin3({
        method: 'POST',
        url: `/api/company/${third.company.id}/chat/channels`,
        payload: {
          kind: 'slack_webhook',
          name: 'one more',
          url: `${stand.base}/slack-webhook/x`,
          site_id: null,
        },
      });
      expect(tooMany.statusCode).toBe(409);
      expect(await chatRows(third.staff.ROLE_USER.id)).toEqual([]);
    });
  });

  describe('the host’s choice: mail, chat or both', () => {
    let acme: Tenant;
    let bare: Tenant;
    let slack: { path: string };
    beforeAll(async () => {
      acme = await buildTenant(ctx.db);
      bare = await buildTenant(ctx.db);
      slack = await connect(acme, 'slack_webhook');
    });

    it('is saved in "Mes notifications", which says whether a chat is connected', async () => {
      const user = await host(acme, 'fr', {});
      const me = await api(user.email);
      const saved = await me({
        method: 'PUT',
        url: '/api/me/mail-preferences',
        payload: {
          language: 'fr',
          arrival_mail: true,
          channels: { request: 'both', arrival: 'chat', here: 'mail' },
        },
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect((await me({ method: 'GET', url: '/api/me/mail-preferences' })).json().data).toEqual({
        language: 'fr',
        arrival_mail: true,
        channels: { request: 'both', arrival: 'chat', here: 'mail' },
        chat_available: true,
        // Issue 35: a host may not have the weekly summary (no dashboard).
        weekly_report: false,
        weekly_report_site_id: null,
        weekly_report_available: false,
        weekly_report_sites: [],
      });
      const elsewhere = await api(bare.staff.ROLE_USER.email);
      expect(
        (await elsewhere({ method: 'GET', url: '/api/me/mail-preferences' })).json().data
          .chat_available,
      ).toBe(false);
    });

    it('arrival: chat only (no mail), both, mail only, and chat without a connection goes by mail', async () => {
      const byChat = await host(acme, 'fr', { arrival: 'chat' });
      const byBoth = await host(acme, 'fr', { arrival: 'both' });
      const byMail = await host(acme, 'fr', { arrival: 'mail' });
      const unconnected = await host(bare, 'fr', { arrival: 'chat' });
      for (const [user, tenant] of [
        [byChat, acme],
        [byBoth, acme],
        [byMail, acme],
        [unconnected, bare],
      ] as const) {
        await arrive(tenant, user);
      }
      expect(await mailRows(byChat.email, 'host_arrival')).toHaveLength(0);
      expect(await chatRows(byChat.id)).toMatchObject([{ kind: 'arrival', status: 'pending' }]);
      expect(await mailRows(byBoth.email, 'host_arrival')).toHaveLength(1);
      expect(await chatRows(byBoth.id)).toHaveLength(1);
      expect(await mailRows(byMail.email, 'host_arrival')).toHaveLength(1);
      expect(await chatRows(byMail.id)).toHaveLength(0);
      expect(await mailRows(unconnected.email, 'host_arrival')).toHaveLength(1);
      expect(await chatRows(unconnected.id)).toHaveLength(0);

      const before = stand.at(slack.path).length;
      await drain();
      const posts = stand.at(slack.path).slice(before);
      expect(posts).toHaveLength(2);
      expect(posts.map((p) => p.json.text).sort()).toEqual(
        [byChat, byBoth]
          .map((u) =>
            expect.stringMatching(
              new RegExp(
                `^Awa Koné, visiteur de ${u.firstname} ${u.name}, est arrivé\\(e\\) à .+ à \\d\\d:\\d\\d$`,
              ),
            ),
          )
          .sort(),
      );
      for (const user of [byChat, byBoth]) {
        expect(await chatRows(user.id)).toMatchObject([{ status: 'sent', attempts: 1 }]);
      }
    });

    it('request: chat only, both, mail only, and chat without a connection goes by mail', async () => {
      const byChat = await host(acme, 'fr', { request: 'chat' });
      const byBoth = await host(acme, 'fr', { request: 'both' });
      const byMail = await host(acme, 'fr', { request: 'mail' });
      const unconnected = await host(bare, 'fr', { request: 'chat' });
      await fileRequest(acme, byChat);
      await fileRequest(acme, byBoth);
      await fileRequest(acme, byMail);
      await fileRequest(bare, unconnected);
      expect(await mailRows(byChat.email, 'host_request')).toHaveLength(0);
      expect(await chatRows(byChat.id)).toMatchObject([{ kind: 'request' }]);
      expect(await mailRows(byBoth.email, 'host_request')).toHaveLength(1);
      expect(await chatRows(byBoth.id)).toHaveLength(1);
      expect(await mailRows(byMail.email, 'host_request')).toHaveLength(1);
      expect(await chatRows(byMail.id)).toHaveLength(0);
      expect(await mailRows(unconnected.email, 'host_request')).toHaveLength(1);
      expect(await chatRows(unconnected.id)).toHaveLength(0);
      await drain();
      for (const user of [byChat, byBoth]) {
        expect(await chatRows(user.id)).toMatchObject([{ status: 'sent' }]);
      }
    });

    it('"I’m here": the host by chat, the front desk by mail; a channel hears it once', async () => {
      const byChat = await host(acme, 'fr', { here: 'chat' });
      const desk = acme.staff.ROLE_EMPLOYEE;
      const { requestId } = await pressHere(acme, byChat);
      const hereMails = (
        await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'invitation_here'))
      ).filter((m) => (m.payload as { requestId: string }).requestId === requestId);
      expect(hereMails.map((m) => m.toAddress)).toEqual([desk.email]);
      expect(await chatRows(byChat.id)).toMatchObject([{ kind: 'here', status: 'pending' }]);

      // The desk chooses the chat too: both told by chat, the channel once.
      await ctx.db
        .update(users)
        .set({ notificationChannels: { request: 'mail', arrival: 'mail', here: 'chat' } })
        .where(eq(users.id, desk.id));
      try {
        const second = await pressHere(acme, byChat);
        const rows = await ctx.db
          .select()
          .from(chatOutbox)
          .where(inArray(chatOutbox.userId, [byChat.id, desk.id]));
        const ofSecond = rows.filter(
          (r) => (r.payload as { requestId: string }).requestId === second.requestId,
        );
        expect(ofSecond).toHaveLength(2);
        const before = stand.at(slack.path).length;
        await drain();
        const posts = stand.at(slack.path).slice(before);
        // The first press (host only) and the second (host and desk): one post each.
        expect(posts).toHaveLength(2);
        expect(posts[1]!.json.text).toBe(
          `Awa Koné, invité(e) par ${byChat.firstname} ${byChat.name}, signale être arrivé(e) à l'accueil de ${acme.company.name}`,
        );
        const settled = await ctx.db
          .select()
          .from(chatOutbox)
          .where(inArray(chatOutbox.userId, [byChat.id, desk.id]));
        expect(settled.every((r) => r.status === 'sent')).toBe(true);
      } finally {
        await ctx.db
          .update(users)
          .set({ notificationChannels: { request: 'mail', arrival: 'mail', here: 'mail' } })
          .where(eq(users.id, desk.id));
      }
    });
  });

  describe('what Slack and Teams receive', () => {
    let acme: Tenant;
    let slack: { path: string };
    let teams: { path: string };
    beforeAll(async () => {
      acme = await buildTenant(ctx.db);
      slack = await connect(acme, 'slack_webhook');
      teams = await connect(acme, 'teams_workflow');
    });

    const personal = ['CI-123456', '0701020304', 'visitor-'];

    it('a request in a channel: Block Kit and an Adaptive Card, in French, with the request list and no link that decides', async () => {
      const moussa = await host(acme, 'fr', { request: 'chat' });
      await fileRequest(acme, moussa);
      await drain();
      const [toSlack] = stand.at(slack.path).slice(-1);
      const [toTeams] = stand.at(teams.path).slice(-1);
      const headline =
        'Nouvelle demande de rendez-vous de Awa Koné pour le dimanche 24 novembre 2030 à 10:30';
      const note =
        'Moussa Diallo décide dans Sésame, connecté(e) : un canal est partagé, il ne porte aucun lien qui décide.';
      const requests = `${ctx.config.publicUrl}/${acme.company.slug}/list-qrcode`;
      expect(toSlack!.headers['content-type']).toMatch(/^application\/json/);
      expect(toSlack!.json).toEqual({
        text: headline,
        blocks: [
          {
            type: 'section',
            text: {
              type: 'mrkdwn',
              text: [
                `*${headline}*`,
                '*Entreprise* : Acme',
                '*Hôte* : Moussa Diallo',
                '*Motif* : Entretien',
                `*Site* : ${acme.company.name}`,
                `_${note}_`,
              ].join('\n'),
            },
          },
          {
            type: 'actions',
            elements: [
              {
                type: 'button',
                action_id: 'sesame_link_0',
                text: { type: 'plain_text', text: 'Ouvrir les demandes', emoji: false },
                url: requests,
              },
            ],
          },
          {
            type: 'context',
            elements: [
              { type: 'mrkdwn', text: `Sésame · ${acme.company.name} · pour Moussa Diallo` },
            ],
          },
        ],
      });

      expect(toTeams!.json).toEqual({
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            contentUrl: null,
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: headline, wrap: true, weight: 'Bolder', size: 'Medium' },
                { type: 'TextBlock', text: '**Entreprise** : Acme', wrap: true, spacing: 'Small' },
                {
                  type: 'TextBlock',
                  text: '**Hôte** : Moussa Diallo',
                  wrap: true,
                  spacing: 'Small',
                },
                { type: 'TextBlock', text: '**Motif** : Entretien', wrap: true, spacing: 'Small' },
                {
                  type: 'TextBlock',
                  text: `**Site** : ${acme.company.name}`,
                  wrap: true,
                  spacing: 'Small',
                },
                { type: 'TextBlock', text: note, wrap: true, isSubtle: true },
                {
                  type: 'TextBlock',
                  text: `Sésame · ${acme.company.name} · pour Moussa Diallo`,
                  wrap: true,
                  isSubtle: true,
                  size: 'Small',
                },
              ],
              actions: [{ type: 'Action.OpenUrl', title: 'Ouvrir les demandes', url: requests }],
            },
          },
        ],
      });
      // A channel is shared: whoever reads it must not decide on the host's behalf.
      for (const body of [toSlack!.raw, toTeams!.raw]) {
        expect(body).not.toContain('host-decision');
        expect(body).not.toContain('token=');
        for (const secret of personal) expect(body).not.toContain(secret);
      }
    });

    it("a request by direct message carries the mail's signed decision links, for that host and request", async () => {
      const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
      await admin({
        method: 'PUT',
        url: `/api/company/${acme.company.id}/chat`,
        payload: { slack_bot_token: BOT_TOKEN },
      });
      try {
        const aminata = await host(acme, 'fr', { request: 'chat' });
        stand.slackUsers.set(aminata.email, 'U0AMINATA');
        const { request } = await fileRequest(acme, aminata);
        await drain();
        const post = stand.heard.filter((c) => c.path === '/api/chat.postMessage').slice(-1)[0];
        expect(post!.json.channel).toBe('U0AMINATA');
        const buttons = post!.json.blocks.find((b: { type: string }) => b.type === 'actions');
        expect(buttons.elements.map((e: { text: { text: string } }) => e.text.text)).toEqual([
          'Valider',
          'Annuler',
        ]);
        const confirm = new URL(buttons.elements[0].url as string);
        expect(`${confirm.origin}${confirm.pathname}`).toBe(
          `${ctx.config.publicUrl}/company/${acme.company.slug}/host-decision`,
        );
        expect(confirm.searchParams.get('choice')).toBe('confirm');
        const check = new DecisionTokens(ctx.config.jwtSecret).verify(
          confirm.searchParams.get('token')!,
        );
        expect(check).toMatchObject({ ok: true, userId: aminata.id, requestId: request.id });
      } finally {
        await admin({
          method: 'PUT',
          url: `/api/company/${acme.company.id}/chat`,
          payload: { slack_bot_token: null },
        });
      }
    });

    it('an arrival and "I’m here" in English for an English host', async () => {
      const john = await host(acme, 'en', { arrival: 'chat', here: 'chat' });
      await arrive(acme, john);
      await drain();
      const [arrivalSlack] = stand.at(slack.path).slice(-1);
      const [arrivalTeams] = stand.at(teams.path).slice(-1);
      expect(arrivalSlack!.json.text).toMatch(
        new RegExp(
          `^Awa Koné, visitor of John Smith, has arrived at ${acme.company.name} at \\d\\d:\\d\\d$`,
        ),
      );
      expect(arrivalSlack!.json.blocks.map((b: { type: string }) => b.type)).toEqual([
        'section',
        'context',
      ]);
      expect(arrivalSlack!.json.blocks[0].text.text).toContain('*Company*: Acme');
      expect(arrivalSlack!.json.blocks[1].elements[0].text).toBe(
        `Sésame · ${acme.company.name} · for John Smith`,
      );
      const card = arrivalTeams!.json.attachments[0].content;
      expect(card.body[0].text).toBe(arrivalSlack!.json.text);
      expect(card.actions).toBeUndefined();

      await pressHere(acme, john);
      await drain();
      const [hereSlack] = stand.at(slack.path).slice(-1);
      const [hereTeams] = stand.at(teams.path).slice(-1);
      expect(hereSlack!.json.text).toBe(
        `Awa Koné, invited by John Smith, says they have arrived at the front desk of ${acme.company.name}`,
      );
      expect(hereSlack!.json.blocks[0].text.text).toContain(
        '_The arrival is not recorded yet: the front desk scans their code._',
      );
      expect(hereSlack!.json.blocks[1].elements[0]).toMatchObject({
        text: { type: 'plain_text', text: 'See my visitors' },
        url: `${ctx.config.publicUrl}/${acme.company.slug}/my-visitors`,
      });
      expect(hereTeams!.json.attachments[0].content.actions).toEqual([
        {
          type: 'Action.OpenUrl',
          title: 'See my visitors',
          url: `${ctx.config.publicUrl}/${acme.company.slug}/my-visitors`,
        },
      ]);
      for (const body of [arrivalSlack!.raw, arrivalTeams!.raw, hereSlack!.raw, hereTeams!.raw]) {
        for (const secret of personal) expect(body).not.toContain(secret);
        expect(body).not.toContain('awa@example.com');
      }
    });

    it('escapes a visitor’s name: no channel pinged, no link made', async () => {
      const moussa = await host(acme, 'fr', { arrival: 'chat' });
      await arrive(acme, moussa, {
        firstname: '<!channel>',
        lastname: '[cliquez](https://evil.example) *x* & <@U123>',
        organisationName: '<https://evil.example|Acme>',
      });
      await drain();
      const [toSlack] = stand.at(slack.path).slice(-1);
      const [toTeams] = stand.at(teams.path).slice(-1);
      expect(toSlack!.raw).not.toContain('<!channel>');
      expect(toSlack!.raw).not.toContain('<@U123>');
      expect(toSlack!.raw).not.toContain('<https://evil');
      expect(toSlack!.json.text).toMatch(
        /^&lt;!channel&gt; \[cliquez\]\(https:\/\/evil\.example\) \*x\* &amp; &lt;@U123&gt;, visiteur de/,
      );
      expect(toSlack!.json.blocks[0].text.text).toContain(
        '*Entreprise* : &lt;https://evil.example|Acme&gt;',
      );
      const headline = toTeams!.json.attachments[0].content.body[0].text as string;
      expect(headline).toMatch(
        /^<!channel> \\\[cliquez\\\]\(https:\/\/evil\.example\) \\\*x\\\* & <@U123>, visiteur de/,
      );
      expect(headline).not.toContain('[cliquez](');
    });
  });

  describe('delivery', () => {
    it('with a bot token: a direct message to the host found by e-mail; a host Slack does not know gets the channels', async () => {
      const acme = await buildTenant(ctx.db);
      const channel = await connect(acme, 'slack_webhook');
      const admin = await api(acme.staff.ROLE_SUPER_ADMIN.email);
      await admin({
        method: 'PUT',
        url: `/api/company/${acme.company.id}/chat`,
        payload: { slack_bot_token: BOT_TOKEN },
      });
      const known = await host(acme, 'fr', { arrival: 'chat' });
      const unknown = await host(acme, 'en', { arrival: 'chat' });
      stand.slackUsers.set(known.email, 'U0KNOWN');
      const before = stand.heard.length;
      await arrive(acme, known);
      await drain();
      const calls = stand.heard.slice(before);
      expect(calls.map((c) => c.path)).toEqual([
        '/api/users.lookupByEmail',
        '/api/chat.postMessage',
      ]);
      const [lookup, post] = calls;
      expect(lookup!.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
      expect(lookup!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(new URLSearchParams(lookup!.raw).get('email')).toBe(known.email);
      expect(post!.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
      expect(post!.json).toMatchObject({
        channel: 'U0KNOWN',
        text: expect.stringMatching(/^Votre visiteur Awa Koné est arrivé\(e\) à .+ à \d\d:\d\d$/),
        blocks: [
          { type: 'section', text: { type: 'mrkdwn' } },
          {
            type: 'context',
            elements: [{ type: 'mrkdwn', text: `Sésame · ${acme.company.name}` }],
          },
        ],
      });
      expect(post!.json.blocks[0].text.text).toContain(
        '_Vous pouvez choisir vos messages dans « Mes notifications »._',
      );
      expect(await chatRows(known.id)).toMatchObject([{ status: 'sent', attempts: 1 }]);

      const beforeUnknown = stand.heard.length;
      await arrive(acme, unknown);
      await drain();
      const fallback = stand.heard.slice(beforeUnknown);
      expect(fallback.map((c) => c.path)).toEqual(['/api/users.lookupByEmail', channel.path]);
      expect(fallback[1]!.json.text).toMatch(/^Awa Koné, visitor of John Smith, has arrived/);
      const [row] = await chatRows(unknown.id);
      expect(row).toMatchObject({ status: 'sent' });
      expect(row!.lastError).toContain('users_not_found');
    });

    it('a failing endpoint (500) is retried with back-off, and a place reached is not posted twice', async () => {
      const acme = await buildTenant(ctx.db);
      const slack = await connect(acme, 'slack_webhook');
      const teams = await connect(acme, 'teams_workflow');
      const moussa = await host(acme, 'fr', { request: 'chat' });
      stand.failures.set(slack.path, 1);
      await fileRequest(acme, moussa);
      await drain();
      let [row] = await chatRows(moussa.id);
      expect(row).toMatchObject({ status: 'pending', attempts: 1 });
      expect(row!.lastError).toContain('HTTP 500');
      expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(
        clock().getTime() + CHAT_RETRY.baseDelayMs - 2000,
      );
      expect(stand.at(slack.path)).toHaveLength(1);
      expect(stand.at(teams.path)).toHaveLength(1);

      // Not due yet: nothing happens.
      await drain();
      expect(stand.at(slack.path)).toHaveLength(1);
      shift += CHAT_RETRY.baseDelayMs + 1000;
      await drain();
      [row] = await chatRows(moussa.id);
      expect(row).toMatchObject({ status: 'sent', attempts: 2 });
      expect(stand.at(slack.path)).toHaveLength(2);
      expect(stand.at(slack.path)[1]!.json.text).toContain('Nouvelle demande de rendez-vous');
      expect(stand.at(teams.path)).toHaveLength(1);
      expect(await mailRows(moussa.email, 'host_request')).toHaveLength(0);
    });

    it('two workers at once send each message once', async () => {
      const acme = await buildTenant(ctx.db);
      const slack = await connect(acme, 'slack_webhook');
      const hosts = await Promise.all(
        [1, 2, 3, 4].map(() => host(acme, 'fr', { request: 'chat' })),
      );
      for (const user of hosts) await fileRequest(acme, user);
      const handled = await Promise.all([drain(), drain()]);
      expect(handled[0]! + handled[1]!).toBeGreaterThanOrEqual(hosts.length);
      expect(stand.at(slack.path)).toHaveLength(hosts.length);
      for (const user of hosts) {
        expect(await chatRows(user.id)).toMatchObject([{ status: 'sent', attempts: 1 }]);
      }
    });

    it('a channel hears its site’s visits and every-site ones; a host no channel reaches gets the mail instead', async () => {
      const acme = await buildTenant(ctx.db);
      const annex = await buildSite(ctx.db, { company: acme.company, name: 'Annexe' });
      const annexOnly = await connect(acme, 'teams_workflow', annex.id);
      const moussa = await host(acme, 'fr', { arrival: 'chat' });

      // At the main site: no channel hears it, the mail goes instead.
      await arrive(acme, moussa);
      await drain();
      expect(stand.at(annexOnly.path)).toHaveLength(0);
      const [lost] = await chatRows(moussa.id);
      expect(lost).toMatchObject({ status: 'failed' });
      expect(await mailRows(moussa.email, 'host_arrival')).toHaveLength(1);

      // At the annex: its channel hears it.
      await arrive(acme, moussa, { siteId: annex.id });
      await drain();
      expect(stand.at(annexOnly.path)).toHaveLength(1);
      expect(stand.at(annexOnly.path)[0]!.json.attachments[0].content.body[0].text).toMatch(
        // A company of several sites names the zone, as its mails do.
        /^Awa Koné, visiteur de Moussa Diallo, est arrivé\(e\) à Annexe à \d\d:\d\d \(UTC.*\)$/,
      );

      // An every-site channel hears the main site's visits, the annex's does not.
      const everywhere = await connect(acme, 'slack_webhook');
      await arrive(acme, moussa);
      await drain();
      expect(stand.at(everywhere.path)).toHaveLength(1);
      expect(stand.at(annexOnly.path)).toHaveLength(1);
      expect(await mailRows(moussa.email, 'host_arrival')).toHaveLength(1);
    });

    it('a request decided before its message leaves is not sent', async () => {
      const acme = await buildTenant(ctx.db);
      const slack = await connect(acme, 'slack_webhook');
      const moussa = await host(acme, 'fr', { request: 'chat' });
      const { request } = await fileRequest(acme, moussa);
      const decide: InjectOptions = {
        method: 'POST',
        url: '/api/requests/decision',
        payload: {
          token: new DecisionTokens(ctx.config.jwtSecret).sign(
            { userId: moussa.id, requestId: request.id },
            new Date(Date.UTC(2030, 10, 25)),
          ),
          decision: 'confirm',
        },
      };
      expect((await ctx.app.inject(decide)).statusCode).toBe(200);
      await drain();
      expect(stand.at(slack.path)).toHaveLength(0);
      expect(await chatRows(moussa.id)).toMatchObject([{ status: 'cancelled' }]);
    });
  });
});
