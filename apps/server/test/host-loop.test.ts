/**
 * Issue 15, the host loop: the host search, the host's decision link (works once,
 * expires, cannot be forged or replayed, a GET never decides, two hosts at once make
 * one decision), and each mail of the loop queued once for its trigger and rendered
 * in its reader's language.
 */
import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import type { SendMailOptions } from 'nodemailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { DECISION_MESSAGES, REQUEST_MESSAGES } from '@sesame/shared';
import { mailOutbox, users, visitRequests, visitors } from '../src/db/schema';
import type { MailTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { qrPng } from '../src/qr/qr';
import { DecisionTokens, meetingDayEnd } from '../src/requests/decision-token';
import { renderHostRequestMail, renderVisitorAckMail } from '../src/mail/loop-templates';
import { queueReminders } from '../src/requests/host-loop';
import { dayOf } from '../src/time-zones';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant, buildUser, visitorFormFields } from './helpers/factories';

type Sent = SendMailOptions & { outboxId: string };

function captureTransport(): MailTransport & { sent: Sent[] } {
  const sent: Sent[] = [];
  return {
    sent,
    description: 'captured',
    send: async (message) => {
      sent.push(message);
      return 'captured';
    },
    close: () => undefined,
  };
}

const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

describe(`host loop (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;
  let host: Awaited<ReturnType<typeof buildUser>>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    host = await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_USER',
      firstname: 'Moussa',
      name: 'Diallo',
      email: `moussa-${Date.now()}@acme.test`,
    });
  });

  const tokens = () => new DecisionTokens(ctx.config.jwtSecret);

  async function fileRequest(
    body: Record<string, unknown>,
    overrides: Record<string, string> = {},
    companySlug = acme.company.slug,
  ) {
    const png = await qrPng('document');
    const email = `visitor-${Math.random().toString(16).slice(2, 10)}@example.com`;
    const visitor = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        visitorFormFields({
          company_id: companySlug,
          organisation_name: 'Globex',
          email,
          request_date: '24/11/2030',
          request_time: '10:30',
          ...overrides,
        }),
        { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } },
      ),
    });
    expect(visitor.statusCode).toBe(200);
    const visitorId = visitor.json().data.visitor_id as string;
    const request = await ctx.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitorId, reason: 'Entretien', ...body },
    });
    return { visitorId, email, request, id: request.json()?.data?.id as string };
  }

  const mailsOf = (requestOrVisitor: { visitorId: string }, kind?: string) =>
    ctx.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.companyId, acme.company.id),
          kind ? eq(mailOutbox.kind, kind) : undefined,
        ),
      )
      .then((rows) =>
        rows.filter(
          (r) => (r.payload as { visitorId?: string }).visitorId === requestOrVisitor.visitorId,
        ),
      );

  const decision = (method: 'GET' | 'POST', token: string, body: Record<string, unknown> = {}) =>
    method === 'GET'
      ? ctx.app.inject({
          method: 'GET',
          url: `/api/requests/decision?token=${encodeURIComponent(token)}`,
        })
      : ctx.app.inject({
          method: 'POST',
          url: '/api/requests/decision',
          payload: { token, ...body },
        });

  const linkFor = (
    userId: string,
    requestId: string,
    expiresAt = new Date(Date.UTC(2030, 10, 25)),
  ) => tokens().sign({ userId, requestId }, expiresAt);

  describe('host search', () => {
    it('finds the company’s active staff by name (either order), names only, never an e-mail', async () => {
      await buildUser(ctx.db, {
        company: acme.company,
        firstname: 'Moussa',
        name: 'Inactif',
        status: false,
      });
      await buildUser(ctx.db, { company: globex.company, firstname: 'Moussa', name: 'Ailleurs' });
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/${acme.company.slug}?q=${encodeURIComponent('diallo mou')}`,
      });
      expect(res.statusCode).toBe(200);
      const other = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/${acme.company.slug}?q=moussa`,
      });
      expect(other.json().data).toEqual([{ id: host.id, name: 'Moussa Diallo' }]);
      expect(other.body).not.toContain('@');
      expect(res.json().data).toEqual([{ id: host.id, name: 'Moussa Diallo' }]);
      const both = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/${acme.company.slug}?q=${encodeURIComponent('Diallo Moussa')}`,
      });
      expect(both.json().data).toEqual([{ id: host.id, name: 'Moussa Diallo' }]);
    });

    it('400 under two characters or over the bound, 404 for an unknown company', async () => {
      const short = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/${acme.company.slug}?q=m`,
      });
      expect(short.statusCode).toBe(400);
      const long = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/${acme.company.slug}?q=${'a'.repeat(101)}`,
      });
      expect(long.statusCode).toBe(400);
      const unknown = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/hosts/no-such-company?q=moussa`,
      });
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('filing a request', () => {
    it('names the host account, and queues the acknowledgement and the host’s mail once each', async () => {
      const filed = await fileRequest({ host_user_id: host.id, host: 'ignored text' });
      expect(filed.request.statusCode).toBe(201);
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, filed.id));
      expect(row).toMatchObject({ hostUserId: host.id, host: 'Moussa Diallo', confirmed: null });
      const mails = await mailsOf(filed);
      expect(mails.map((m) => [m.kind, m.toAddress]).sort()).toEqual(
        [
          ['host_request', host.email],
          ['visitor_ack', filed.email],
        ].sort(),
      );
      // The staff list shows the host as a user.
      const list = await as(
        ctx.app,
        await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email),
      )({ method: 'GET', url: `/api/requests/list?q=${filed.email}` });
      expect(list.json().data[0].host_user).toEqual({ id: host.id, name: 'Moussa Diallo' });
    });

    it('refuses a host of another company (400), creating nothing', async () => {
      const filed = await fileRequest({ host_user_id: globex.staff.ROLE_USER.id });
      expect(filed.request.statusCode).toBe(400);
      expect(filed.request.json().message).toBe(REQUEST_MESSAGES.hostUnknown);
      expect(await mailsOf(filed)).toHaveLength(0);
    });

    it('without a host account, the front desk (ROLE_EMPLOYEE) gets the mail; free text kept', async () => {
      const filed = await fileRequest({ host: 'Mme Traoré' });
      expect(filed.request.statusCode).toBe(201);
      const hostMails = await mailsOf(filed, 'host_request');
      expect(hostMails.map((m) => m.toAddress)).toEqual([acme.staff.ROLE_EMPLOYEE.email]);
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, filed.id));
      expect(row).toMatchObject({ hostUserId: null, host: 'Mme Traoré' });
    });
  });

  describe('decision link', () => {
    it('the mail’s Valider link: GET shows and never decides; POST decides once, as that host', async () => {
      await ctx.db.update(users).set({ language: 'en' }).where(eq(users.id, host.id));
      const filed = await fileRequest({ host_user_id: host.id }, { language: 'fr' });
      const transport = captureTransport();
      const worker = new MailWorker({ db: ctx.db, config: ctx.config, log: silent, transport });
      await worker.drain();
      const [queued] = await mailsOf(filed, 'host_request');
      const hostMail = transport.sent.find((m) => m.outboxId === queued!.id);
      expect(hostMail).toBeDefined();
      // In the host's language, with the visitor, employer, date, time and reason.
      expect(hostMail!.subject).toBe('Meeting request: Awa Koné');
      for (const part of ['Globex', '24 November 2030', '10:30', 'Entretien'])
        expect(String(hostMail!.text)).toContain(part);
      expect(String(hostMail!.html)).toContain('>Confirm</a>');
      const confirmUrl = /Confirm: (\S+)/.exec(String(hostMail!.text))![1]!;
      expect(confirmUrl).toContain(`/company/${acme.company.slug}/host-decision?token=`);
      const token = new URL(confirmUrl).searchParams.get('token')!;
      // The acknowledgement went to the visitor in French with a follow link.
      const [ackRow] = await mailsOf(filed, 'visitor_ack');
      const ack = transport.sent.find((m) => m.outboxId === ackRow!.id)!;
      expect(ack.subject).toBe(`Demande de rendez-vous reçue – ${acme.company.name}`);
      expect(String(ack.text)).toContain(`/${acme.company.slug}/waiting-validation/${filed.id}`);
      expect(String(ack.html)).toContain(acme.company.name);

      for (let i = 0; i < 3; i += 1) {
        const shown = await decision('GET', token);
        expect(shown.statusCode).toBe(200);
        expect(shown.json().data).toMatchObject({
          state: 'pending',
          visitor: { firstname: 'Awa', lastname: 'Koné', organisation_name: 'Globex' },
          request_date: '24/11/2030',
          reason: 'Entretien',
        });
        expect(shown.body).not.toContain(filed.email);
      }
      const [still] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, filed.id));
      expect(still!.confirmed).toBeNull();

      const decided = await decision('POST', token, { decision: 'confirm' });
      expect(decided.statusCode).toBe(200);
      expect(decided.json().message).toBe(DECISION_MESSAGES.confirmed);
      expect(decided.json().data).toMatchObject({ state: 'confirmed', decided_by_you: true });
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, filed.id));
      expect(row).toMatchObject({ status: 1, confirmed: true, decidedBy: host.id });
      expect(await mailsOf(filed, 'visitor_code')).toHaveLength(1);

      // Replayed, or the other button of the same mail: shown, not overwritten.
      const replay = await decision('POST', token, { decision: 'decline', reason: 'Non' });
      expect(replay.statusCode).toBe(409);
      expect(replay.json()).toMatchObject({
        message: DECISION_MESSAGES.alreadyDecided,
        data: { state: 'confirmed', decided_by: 'Moussa Diallo' },
      });
      expect(await mailsOf(filed, 'visitor_code')).toHaveLength(1);
      expect(await mailsOf(filed, 'visitor_declined')).toHaveLength(0);

      // The code mail now carries the company's signature and a calendar invitation.
      await worker.drain();
      const code = transport.sent.find((m) => m.to === filed.email && m !== ack)!;
      expect(code.subject).toBe(`Votre code visiteur – ${acme.company.name}`);
      const attachments = (code.attachments ?? []) as { filename?: string; content?: unknown }[];
      const ics = attachments.find((a) => a.filename === 'invitation.ics');
      expect(String(ics?.content)).toContain('BEGIN:VEVENT');
      expect(String(ics?.content)).toContain('DTSTART:20301124T');
      expect(String(code.text)).not.toContain("L'équipe Sésame");
      expect(String(code.text)).toContain(acme.company.name);
    });

    it('cannot be forged: a changed signature, a session token, another audience → 404', async () => {
      const filed = await fileRequest({ host_user_id: host.id });
      const good = linkFor(host.id, filed.id);
      const forged = good.slice(0, -3) + (good.endsWith('AAA') ? 'BBB' : 'AAA');
      const session = await tokenFor(ctx.app, host.email);
      const otherKey = new DecisionTokens('x'.repeat(40)).sign(
        { userId: host.id, requestId: filed.id },
        new Date(Date.UTC(2030, 10, 25)),
      );
      for (const token of [forged, session, otherKey, 'not-a-token']) {
        const get = await decision('GET', token);
        expect(get.statusCode).toBe(404);
        expect(get.json().message).toBe(DECISION_MESSAGES.invalid);
        const post = await decision('POST', token, { decision: 'confirm' });
        expect(post.statusCode).toBe(404);
      }
      // A link for a staff member of another company does not reach this request.
      const foreign = await decision('POST', linkFor(globex.staff.ROLE_EMPLOYEE.id, filed.id), {
        decision: 'confirm',
      });
      expect(foreign.statusCode).toBe(404);
      const [row] = await ctx.db.select().from(visitRequests).where(eq(visitRequests.id, filed.id));
      expect(row!.confirmed).toBeNull();
    });

    it('expires at the end of the meeting’s day in the company’s zone (410)', async () => {
      expect(meetingDayEnd('24/11/2030', 'Africa/Abidjan').toISOString()).toBe(
        '2030-11-25T00:00:00.000Z',
      );
      expect(meetingDayEnd('24/11/2030', 'Europe/Paris').toISOString()).toBe(
        '2030-11-24T23:00:00.000Z',
      );
      const filed = await fileRequest({ host_user_id: host.id });
      const expired = linkFor(host.id, filed.id, new Date(Date.now() - 1000));
      expect((await decision('GET', expired)).statusCode).toBe(410);
      const post = await decision('POST', expired, { decision: 'confirm' });
      expect(post.statusCode).toBe(410);
      expect(post.json().message).toBe(DECISION_MESSAGES.expired);
      // A fixed clock past the day's end refuses a link the real clock still accepts.
      const later = new DecisionTokens(ctx.config.jwtSecret, () => Date.UTC(2030, 10, 25, 0, 0, 1));
      expect(later.verify(linkFor(host.id, filed.id))).toEqual({ ok: false, reason: 'expired' });
    });

    it('Annuler with a reason: declined, the visitor’s decline mail once; Valider at the desk then 409', async () => {
      const filed = await fileRequest({ host_user_id: host.id }, { language: 'en' });
      const token = linkFor(host.id, filed.id);
      const res = await decision('POST', token, {
        decision: 'decline',
        reason: 'Je suis en congé',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        state: 'declined',
        decline_reason: 'Je suis en congé',
      });
      const again = await decision('POST', token, { decision: 'decline' });
      expect(again.statusCode).toBe(409);
      const declined = await mailsOf(filed, 'visitor_declined');
      expect(declined).toHaveLength(1);
      expect(declined[0]!.toAddress).toBe(filed.email);
      const status = await ctx.app.inject({
        method: 'GET',
        url: `/api/requests/status/${filed.id}`,
      });
      expect(status.json().data).toMatchObject({
        state: 'declined',
        decline_reason: 'Je suis en congé',
        card: null,
      });
      const desk = await as(
        ctx.app,
        await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email),
      )({
        method: 'PUT',
        url: `/api/requests/update/${filed.id}`,
        payload: { status: 1, confirmed: 1 },
      });
      expect(desk.statusCode).toBe(409);
      expect(await mailsOf(filed, 'visitor_code')).toHaveLength(0);
      // The request list says 'Refusé' by its host, with the reason (issue 27: it said pending).
      const list = await as(
        ctx.app,
        await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email),
      )({ method: 'GET', url: `/api/requests/list/${acme.company.slug}?per_page=100` });
      const listed = (
        list.json() as { data: { id: string; state: string; decline_reason: string }[] }
      ).data.find((r) => r.id === filed.id);
      expect(listed).toMatchObject({ state: 'declined', decline_reason: 'Je suis en congé' });

      const transport = captureTransport();
      await new MailWorker({ db: ctx.db, config: ctx.config, log: silent, transport }).drain();
      const mail = transport.sent.find(
        (m) => m.to === filed.email && String(m.subject).startsWith('Meeting not'),
      );
      expect(mail).toBeDefined();
      expect(String(mail!.text)).toContain('Reason given: Je suis en congé');
      expect(String(mail!.html)).toContain('Je suis en congé');
    });

    it('two front-desk members deciding at once make one decision and one mail', async () => {
      const second = await buildUser(ctx.db, { company: acme.company, role: 'ROLE_EMPLOYEE' });
      const filed = await fileRequest({ host: 'Sans compte' });
      const hostMails = await mailsOf(filed, 'host_request');
      expect(hostMails.map((m) => m.toAddress).sort()).toEqual(
        [acme.staff.ROLE_EMPLOYEE.email, second.email].sort(),
      );
      const [a, b] = await Promise.all([
        decision('POST', linkFor(acme.staff.ROLE_EMPLOYEE.id, filed.id), { decision: 'confirm' }),
        decision('POST', linkFor(second.id, filed.id), { decision: 'decline', reason: 'Non' }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
      const winner = a.statusCode === 200 ? a : b;
      const loser = a.statusCode === 200 ? b : a;
      expect(loser.json().data.state).toBe(winner.json().data.state);
      expect(loser.json().data.decided_by_you).toBe(false);
      const codes = await mailsOf(filed, 'visitor_code');
      const declines = await mailsOf(filed, 'visitor_declined');
      expect(codes.length + declines.length).toBe(1);
      // The other desk's mail is not sent once the question is answered.
      await ctx.db.delete(mailOutbox).where(eq(mailOutbox.kind, 'visitor_code'));
    });
  });

  describe('the mails’ frame', () => {
    it('carries the company’s logo, name and address, HTML and plain text, no unsubscribe link', () => {
      const source = {
        company: {
          name: 'Acme CI',
          slug: 'acme',
          logoUrl: 'http://sesame.test/api/public/logo/abc.png',
          address: 'Friedrichstraße 12, 10117 Berlin',
          country: 'DE',
        },
        visitor: {
          firstname: 'Awa',
          lastname: 'Koné',
          organisationName: 'Globex <SA>',
          requestDate: '24/11/2030',
          requestTime: '10:30',
          uidn: 'ABCD-EFGH-JKMN',
        },
        request: { id: 'r1', host: 'Moussa Diallo', reason: 'Entretien', declineReason: null },
      };
      for (const lang of ['fr', 'en'] as const) {
        const mail = renderVisitorAckMail(
          source,
          lang,
          'http://sesame.test/acme/waiting-validation/r1',
        );
        expect(mail.html).toContain('<img src="http://sesame.test/api/public/logo/abc.png"');
        expect(mail.html).toContain('Acme CI');
        // The country, stored as its code, is named in the reader's language.
        expect(mail.text).toContain(
          `Friedrichstraße 12, 10117 Berlin, ${lang === 'fr' ? 'Allemagne' : 'Germany'}`,
        );
        expect(mail.html).toContain(`<html lang="${lang}">`);
        expect(`${mail.html}${mail.text}`.toLowerCase()).not.toContain('unsubscribe');
      }
      const host = renderHostRequestMail(
        source,
        { lang: 'fr', firstname: 'Moussa', isHost: true },
        {
          confirm: 'http://x/c?token=a&choice=confirm',
          decline: 'http://x/c?token=a&choice=decline',
        },
      );
      // Escaped in HTML, as typed in the text part.
      expect(host.html).toContain('Globex &lt;SA&gt;');
      expect(host.text).toContain('Awa Koné (Globex <SA>) demande à vous rencontrer.');
      expect(host.html).toContain('href="http://x/c?token=a&amp;choice=confirm"');
    });
  });

  describe('reminders and arrivals', () => {
    it('one reminder the day before a meeting confirmed more than a day ahead, however often the job runs', async () => {
      const early = await fileRequest({ host_user_id: host.id }, { request_date: '24/11/2030' });
      const late = await fileRequest({ host_user_id: host.id }, { request_date: '24/11/2030' });
      await ctx.db
        .update(visitRequests)
        .set({ status: 1, confirmed: true, decidedAt: new Date(Date.UTC(2030, 10, 20, 9)) })
        .where(eq(visitRequests.id, early.id));
      await ctx.db
        .update(visitRequests)
        .set({ status: 1, confirmed: true, decidedAt: new Date(Date.UTC(2030, 10, 23, 9)) })
        .where(eq(visitRequests.id, late.id));
      const dayBefore = new Date(Date.UTC(2030, 10, 23, 15)); // Abidjan = UTC
      const twoDaysBefore = new Date(Date.UTC(2030, 10, 22, 15));
      await queueReminders(ctx.db, twoDaysBefore);
      expect(await mailsOf(early, 'visitor_reminder')).toHaveLength(0);
      await Promise.all([queueReminders(ctx.db, dayBefore), queueReminders(ctx.db, dayBefore)]);
      await queueReminders(ctx.db, dayBefore);
      expect(await mailsOf(early, 'visitor_reminder')).toHaveLength(1);
      expect(await mailsOf(late, 'visitor_reminder')).toHaveLength(0);

      const transport = captureTransport();
      await new MailWorker({ db: ctx.db, config: ctx.config, log: silent, transport }).drain();
      const reminder = transport.sent.find(
        (m) => m.to === early.email && String(m.subject).startsWith('Rappel'),
      );
      expect(reminder).toBeDefined();
      const [v] = await ctx.db.select().from(visitors).where(eq(visitors.id, early.visitorId));
      expect(String(reminder!.text)).toContain(v!.uidn);
    });

    it('the host’s arrival mail at check-in, once per check, unless turned off', async () => {
      const today = dayOf(new Date(), acme.company.timezone ?? 'Africa/Abidjan');
      const [y, m, d] = today.split('-');
      const date = `${d}/${m}/${y}`;
      const desk = as(ctx.app, await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email));

      const arrive = async () => {
        const filed = await fileRequest(
          { host_user_id: host.id },
          { request_date: date, request_time: '23:59' },
        );
        expect(filed.request.statusCode).toBe(201);
        await decision('POST', linkFor(host.id, filed.id), { decision: 'confirm' });
        const [v] = await ctx.db.select().from(visitors).where(eq(visitors.id, filed.visitorId));
        const check = await desk({ method: 'GET', url: `/api/get-qr-data/${v!.uidn}` });
        expect(check.statusCode).toBe(200);
        return filed;
      };

      await ctx.db
        .update(users)
        .set({ language: 'fr', arrivalMail: true })
        .where(eq(users.id, host.id));
      const first = await arrive();
      const arrivals = await mailsOf(first, 'host_arrival');
      expect(arrivals).toHaveLength(1);
      expect(arrivals[0]!.toAddress).toBe(host.email);
      const transport = captureTransport();
      await new MailWorker({ db: ctx.db, config: ctx.config, log: silent, transport }).drain();
      const mail = transport.sent.find(
        (m) => m.to === host.email && String(m.subject).includes('arrivé'),
      );
      expect(String(mail!.text)).toMatch(/Awa Koné est arrivé\(e\) à l'accueil à \d\d:\d\d\./);

      // The host turns arrival mails off from their own settings.
      const hostApi = as(ctx.app, await tokenFor(ctx.app, host.email));
      const off = await hostApi({
        method: 'PUT',
        url: '/api/me/mail-preferences',
        payload: { language: 'fr', arrival_mail: false },
      });
      expect(off.statusCode).toBe(200);
      expect(
        (await hostApi({ method: 'GET', url: '/api/me/mail-preferences' })).json().data,
      ).toEqual({
        language: 'fr',
        arrival_mail: false,
        channels: { request: 'mail', arrival: 'mail', here: 'mail' },
        chat_available: false,
        // Issue 35: a host may not have the weekly summary (no dashboard).
        weekly_report: false,
        weekly_report_site_id: null,
        weekly_report_available: false,
        weekly_report_sites: [],
      });
      const second = await arrive();
      expect(await mailsOf(second, 'host_arrival')).toHaveLength(0);
      await ctx.db.update(users).set({ arrivalMail: true }).where(eq(users.id, host.id));
    });
  });
});
