/**
 * Issue 30: an invitation's mails through a real SMTP server (smtp-server, parsed with
 * mailparser), on PGlite and PostgreSQL — the invitation in French and in English (host,
 * site and map link, the days of a weekly rule, the code and QR, the two signed links), its
 * `.ics` read by ical.js the strict way (RRULE, SEQUENCE, the same UID), a change of schedule
 * (a higher SEQUENCE), a day cancelled (METHOD:CANCEL with RECURRENCE-ID), the whole
 * invitation cancelled (METHOD:CANCEL without), and "Je suis arrivé(e)" to the host and the desk.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import ICAL from 'ical.js';
import type { ParsedMail } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvitationCreated } from '@sesame/shared';
import { mailOutbox, sites, visitRequests } from '../src/db/schema';
import { InvitationLinks } from '../src/invitations/link';
import { writeInvitationEvent } from '../src/mail/calendar';
import { recurrenceSentence } from '../src/mail/invitation-templates';
import {
  INVITATION_HERE_MAIL,
  enqueueInvitationMails,
  type InvitationMailPayload,
} from '../src/mail/outbox';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { zonedToUtc } from '../src/time-zones';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';
import { freePort, startSmtp, type TestSmtp } from './helpers/smtp';

const quiet = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/**
 * The mail's `.ics`, read the strict way: CRLF line ends only, no physical line over 75
 * octets, then `ICAL.parse` and `new ICAL.Component`. Its one VEVENT.
 */
function calendarOf(mail: ParsedMail) {
  const attachment = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  expect(attachment, 'the .ics').toBeDefined();
  const ics = attachment!.content.toString('utf8');
  expect(ics.endsWith('\r\n')).toBe(true);
  for (const line of ics.slice(0, -2).split('\r\n')) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
  }
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent');
  expect(events).toHaveLength(1);
  return { calendar, event: events[0]!, ics };
}

/** An ICAL time (UTC) as an ISO instant. */
const instant = (value: unknown) => (value as ICAL.Time).toJSDate().toISOString();

/** 'HH:MM' on 'YYYY-MM-DD' in `zone`, as an ISO instant. */
const at = (day: string, time: string, zone: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return zonedToUtc({ year, month, day: date, hour, minute }, zone).toISOString();
};

/** The occurrences a calendar expands from the VEVENT (DTSTART, RRULE, minus EXDATE). */
function occurrences(event: ICAL.Component): string[] {
  const expansion = new ICAL.RecurExpansion({
    component: event,
    dtstart: event.getFirstPropertyValue('dtstart') as ICAL.Time,
  });
  const found: string[] = [];
  for (let next = expansion.next(); next && found.length < 400; next = expansion.next())
    found.push(instant(next));
  return found;
}

/** The signed token of a link of the mail's text part ('…/invitation?token=…[&here=1]'). */
function tokens(text: string, slug: string): { page: string; here: string } {
  const page = new RegExp(`/${slug}/invitation\\?token=([^&\\s]+)(?!&here)\\s`).exec(text);
  const here = new RegExp(`/${slug}/invitation\\?token=([^&\\s]+)&here=1`).exec(text);
  expect(page, 'the details link').not.toBeNull();
  expect(here, 'the "here" link').not.toBeNull();
  return { page: decodeURIComponent(page![1]!), here: decodeURIComponent(here![1]!) };
}

describe(`invitation mails (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let smtp: TestSmtp;
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let host: Awaited<ReturnType<typeof buildUser>>;
  let desk: Awaited<ReturnType<typeof buildUser>>;
  let hostToken: string;
  const zone = 'Europe/Paris';
  const address = '12 rue de la Paix, 75002 Paris';

  beforeAll(async () => {
    smtp = await startSmtp(await freePort());
    company = await buildCompany(ctx.db, { timezone: zone, email: 'contact@acme.example' });
    await ctx.db
      .update(sites)
      .set({
        name: 'Siège',
        address: '12 rue de la Paix',
        zipcode: '75002',
        city: 'Paris',
        frontDeskEmail: 'accueil@acme.example',
      })
      .where(eq(sites.id, company.siteId));
    host = await buildUser(ctx.db, {
      company,
      role: 'ROLE_USER',
      firstname: 'Moussa',
      name: 'Diallo',
    });
    desk = await buildUser(ctx.db, {
      company,
      role: 'ROLE_EMPLOYEE',
      firstname: 'Fatou',
      name: 'Bamba',
      language: 'en',
    });
    hostToken = await tokenFor(ctx.app, host.email);
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const drain = () =>
    new MailWorker({
      db: ctx.db,
      config: ctx.config,
      log: quiet,
      transport: smtpTransport(smtp.url),
    }).drain();

  const mailsTo = (address: string) =>
    smtp.messages.filter((m) =>
      (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
        to?.value.some((v) => v.address === address),
      ),
    );

  const invite = async (payload: Record<string, unknown>) => {
    const res = await as(ctx.app, hostToken)({ method: 'POST', url: '/api/invitations', payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<InvitationCreated>();
  };

  const weekly = (email: string, language: 'fr' | 'en', extra: Record<string, unknown> = {}) =>
    invite({
      site_id: company.siteId,
      date: '04/03/2030',
      time: '09:00',
      end_time: '10:30',
      reason: 'Audit annuel',
      language,
      // Mondays and Thursdays from Monday 4 March 2030 until 14 March: 4, 7, 11, 14.
      rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20300314',
      visitors: [
        { firstname: 'Awa', lastname: 'Koné', email, phone: '', organisation: 'Orange CI' },
      ],
      ...extra,
    });

  it('sends the invitation in French: host, site, map, the days, code and QR, the two links, the .ics with its rule', async () => {
    const email = 'awa.kone@example.com';
    const created = await weekly(email, 'fr');
    await drain();
    const [mail, ...more] = mailsTo(email);
    expect(more).toHaveLength(0);
    const code = created.visitors[0]!.code;
    const text = mail!.text!;
    expect(mail!.subject).toBe(`Vous êtes invité(e) chez ${company.name}`);
    expect(text).toContain('Bonjour Awa Koné,');
    expect(text).toContain(`Moussa Diallo vous invite chez ${company.name}.`);
    expect(text).toContain('- Dates : Les lundis et jeudis, du 4 mars au 14 mars 2030');
    expect(text).toContain('- Heure : 09:00 – 10:30');
    expect(text).toContain('- Hôte : Moussa Diallo');
    expect(text).toContain('- Motif : Audit annuel');
    expect(text).toContain('- Site : Siège');
    expect(text).toContain(`- Adresse : ${address}`);
    const map = `https://www.openstreetmap.org/search?query=${encodeURIComponent(address)}`;
    expect(text).toContain(`Plan : ${map}`);
    expect(String(mail!.html)).toContain(`href="${map}"`);
    expect(text).toContain(`Votre code visiteur : ${code}`);
    expect(text).toContain('Le même code vaut pour chaque jour de la visite.');
    expect(text).toContain('Compléter mes informations : http://sesame.test/');
    expect(text).toContain('Je suis arrivé(e) : http://sesame.test/');
    expect(text).toContain('à utiliser le jour de la visite, à votre arrivée');

    // The two links open the visitor's page with a token the page accepts, for this request.
    const links = tokens(text, company.slug);
    const verifier = new InvitationLinks(ctx.config.jwtSecret);
    for (const token of [links.page, links.here]) {
      const check = verifier.verify(token);
      expect(check.ok).toBe(true);
      if (check.ok) {
        expect(check.requestId).toBe(created.visitors[0]!.request_id);
        // Until the end of the last day (Thursday 14 March, midnight in Paris).
        expect(check.expiresAt.toISOString()).toBe(at('2030-03-15', '00:00', zone));
      }
    }

    // The QR, inline.
    const qr = mail!.attachments.find((a) => a.contentType === 'image/png');
    expect(qr?.cid).toBeTruthy();
    expect(qr!.contentDisposition).toBe('inline');

    const { calendar, event } = calendarOf(mail!);
    expect(calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(event.getFirstPropertyValue('uid')).toBe(
      `invitation-${created.visitors[0]!.request_id}@sesame`,
    );
    expect(event.getFirstPropertyValue('sequence')).toBe(0);
    expect(event.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(instant(event.getFirstPropertyValue('dtstart'))).toBe(at('2030-03-04', '09:00', zone));
    expect(instant(event.getFirstPropertyValue('dtend'))).toBe(at('2030-03-04', '10:30', zone));
    expect(event.getFirstPropertyValue('location')).toBe(`${company.name} – Siège, ${address}`);
    const rule = event.getFirstPropertyValue('rrule') as ICAL.Recur;
    expect(rule.freq).toBe('WEEKLY');
    expect(rule.parts.BYDAY).toEqual(['MO', 'TH']);
    const attendee = event.getFirstProperty('attendee')!;
    expect(attendee.getFirstValue()).toBe(`mailto:${email}`);
    expect(attendee.getParameter('cn')).toBe('Awa Koné');
    expect(event.getFirstProperty('organizer')!.getFirstValue()).toBe(
      'mailto:accueil@acme.example',
    );
    // A calendar expands it to the invitation's four days at 09:00 in Paris.
    expect(occurrences(event)).toEqual(created.days.map((day) => at(day, '09:00', zone)));
  });

  it('sends it in English, one day; a visitor cancelled before the send gets none', async () => {
    const email = 'jane.doe@example.com';
    const created = await invite({
      site_id: company.siteId,
      date: '05/03/2030',
      time: '14:00',
      end_time: '15:00',
      reason: 'Interview',
      language: 'en',
      visitors: [
        { firstname: 'Jane', lastname: 'Doe', email, phone: '', organisation: 'Acme Ltd' },
        { firstname: 'John', lastname: 'Roe', email: 'john.roe@example.com', organisation: '' },
      ],
    });
    const john = created.visitors[1]!;
    const cancel = await as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: `/api/invitations/${created.invitation_id}/cancel`,
      payload: { request_id: john.request_id },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await drain();
    const [mail] = mailsTo(email);
    const text = mail!.text!;
    expect(mail!.subject).toBe(`You are invited to ${company.name}`);
    expect(text).toContain('Hello Jane Doe,');
    expect(text).toContain(`Moussa Diallo invites you to ${company.name}.`);
    expect(text).toContain('- Date: Tuesday, 5 March 2030');
    expect(text).toContain('- Time: 14:00 – 15:00');
    expect(text).toContain('Complete my details: http://sesame.test/');
    expect(text).toContain("I'm here: http://sesame.test/");
    expect(text).toContain('on the day of your visit, when you arrive');
    expect(text).not.toContain('Le même code');
    const { event } = calendarOf(mail!);
    expect(event.getFirstProperty('rrule')).toBeNull();
    expect(instant(event.getFirstPropertyValue('dtstart'))).toBe(at('2030-03-05', '14:00', zone));

    // John was cancelled before the worker ran: his invitation was not sent (cancelled, not
    // failed), only the cancellation, in English, METHOD:CANCEL.
    const johnMails = mailsTo('john.roe@example.com');
    expect(johnMails.map((m) => m.subject)).toEqual([`Visit cancelled – ${company.name}`]);
    expect(johnMails[0]!.text).toContain(
      `Your visit to ${company.name} on Tuesday, 5 March 2030 at 14:00 is cancelled.`,
    );
    const [unsent] = await ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.dedupeKey, `invitation:${john.request_id}:0`));
    expect(unsent!.status).toBe('cancelled');
    const { calendar, event: cancelled } = calendarOf(johnMails[0]!);
    expect(calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(cancelled.getFirstPropertyValue('uid')).toBe(`invitation-${john.request_id}@sesame`);
    expect(cancelled.getFirstPropertyValue('sequence')).toBe(1);
  });

  it('updates the entry (a higher SEQUENCE), cancels one day (RECURRENCE-ID), then the whole (no RECURRENCE-ID), all under one UID', async () => {
    const email = 'awa.update@example.com';
    const created = await weekly(email, 'fr');
    const requestId = created.visitors[0]!.request_id;
    const uid = `invitation-${requestId}@sesame`;
    await drain();

    // New schedule: 10:00 – 11:00 from Thursday 7 March, Thursdays until 28 March.
    const put = await as(
      ctx.app,
      hostToken,
    )({
      method: 'PUT',
      url: `/api/invitations/${created.invitation_id}`,
      payload: {
        site_id: company.siteId,
        date: '07/03/2030',
        time: '10:00',
        end_time: '11:00',
        reason: 'Audit annuel',
        language: 'fr',
        rrule: 'FREQ=WEEKLY;BYDAY=TH;UNTIL=20300328',
      },
    });
    expect(put.statusCode, put.body).toBe(200);
    await drain();
    const update = mailsTo(email).find((m) => m.subject?.includes('a changé'));
    expect(update?.subject).toBe(`Votre visite chez ${company.name} a changé`);
    expect(update!.text).toContain('votre code reste le même');
    expect(update!.text).toContain(`Votre code visiteur : ${created.visitors[0]!.code}`);
    expect(update!.text).toContain('- Dates : Les jeudis, du 7 mars au 28 mars 2030');
    expect(update!.text).toContain('- Heure : 10:00 – 11:00');
    const changed = calendarOf(update!);
    expect(changed.calendar.getFirstPropertyValue('method')).toBe('REQUEST');
    expect(changed.event.getFirstPropertyValue('uid')).toBe(uid);
    expect(changed.event.getFirstPropertyValue('sequence')).toBe(1);
    expect(instant(changed.event.getFirstPropertyValue('dtstart'))).toBe(
      at('2030-03-07', '10:00', zone),
    );

    // One day cancelled: METHOD:CANCEL of that occurrence only.
    const cancelDay = await as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: `/api/invitations/${created.invitation_id}/cancel`,
      payload: { day: '2030-03-14' },
    });
    expect(cancelDay.statusCode, cancelDay.body).toBe(200);
    await drain();
    const dayMail = mailsTo(email).find((m) => m.subject?.startsWith('Visite du'));
    expect(dayMail?.subject).toBe(`Visite du jeudi 14 mars 2030 annulée – ${company.name}`);
    expect(dayMail!.text).toContain(
      'La visite du jeudi 14 mars 2030 est annulée ; les autres jours restent prévus.',
    );
    const oneDay = calendarOf(dayMail!);
    expect(oneDay.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(oneDay.event.getFirstPropertyValue('uid')).toBe(uid);
    expect(oneDay.event.getFirstPropertyValue('sequence')).toBe(2);
    expect(oneDay.event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(instant(oneDay.event.getFirstPropertyValue('recurrence-id'))).toBe(
      at('2030-03-14', '10:00', zone),
    );
    expect(oneDay.event.getFirstProperty('rrule')).toBeNull();

    // A second change: its .ics keeps the cancelled day out (EXDATE) and says so.
    const again = await as(
      ctx.app,
      hostToken,
    )({
      method: 'PUT',
      url: `/api/invitations/${created.invitation_id}`,
      payload: {
        site_id: company.siteId,
        date: '07/03/2030',
        time: '10:30',
        end_time: '11:30',
        language: 'fr',
        rrule: 'FREQ=WEEKLY;BYDAY=TH;UNTIL=20300328',
      },
    });
    expect(again.statusCode, again.body).toBe(200);
    await drain();
    const second = mailsTo(email).filter((m) => m.subject?.includes('a changé'))[1];
    expect(second!.text).toContain('- Jours annulés : jeudi 14 mars 2030');
    const withExdate = calendarOf(second!);
    expect(withExdate.event.getFirstPropertyValue('sequence')).toBe(3);
    expect(
      withExdate.event.getAllProperties('exdate').map((p) => instant(p.getFirstValue())),
    ).toEqual([at('2030-03-14', '10:30', zone)]);
    expect(occurrences(withExdate.event)).toEqual(
      ['2030-03-07', '2030-03-21', '2030-03-28'].map((day) => at(day, '10:30', zone)),
    );

    // The whole invitation cancelled: METHOD:CANCEL of the entry, no RECURRENCE-ID.
    const cancelAll = await as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: `/api/invitations/${created.invitation_id}/cancel`,
      payload: {},
    });
    expect(cancelAll.statusCode, cancelAll.body).toBe(200);
    await drain();
    const whole = mailsTo(email).find((m) => m.subject === `Visite annulée – ${company.name}`);
    expect(whole!.text).toContain(
      `Votre visite chez ${company.name} (les jeudis, du 7 mars au 28 mars 2030) est annulée.`,
    );
    expect(whole!.text).toContain("Votre code n'ouvre plus l'accès.");
    const all = calendarOf(whole!);
    expect(all.calendar.getFirstPropertyValue('method')).toBe('CANCEL');
    expect(all.event.getFirstPropertyValue('uid')).toBe(uid);
    expect(all.event.getFirstPropertyValue('sequence')).toBe(4);
    expect(all.event.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(all.event.getFirstProperty('recurrence-id')).toBeNull();
    // Each mail to this visitor is one of the five, none twice.
    expect(mailsTo(email)).toHaveLength(5);
  });

  it('tells the host and the front desk "Je suis arrivé(e)" in their language; it is not a check-in', async () => {
    const created = await invite({
      site_id: company.siteId,
      date: '05/03/2030',
      time: '09:00',
      end_time: '10:00',
      reason: 'Réunion',
      visitors: [
        {
          firstname: 'Ali',
          lastname: 'Traoré',
          email: 'ali.traore@example.com',
          organisation: 'Globex',
        },
      ],
    });
    const visitor = created.visitors[0]!;
    await ctx.db
      .update(visitRequests)
      .set({ hereAt: new Date(at('2030-03-05', '08:52', zone)) })
      .where(eq(visitRequests.id, visitor.request_id));
    const payload = (userId?: string): InvitationMailPayload => ({
      visitorId: visitor.visitor_id,
      requestId: visitor.request_id,
      invitationId: created.invitation_id,
      sequence: 0,
      ...(userId ? { userId } : {}),
    });
    await ctx.db.transaction((tx) =>
      enqueueInvitationMails(tx, INVITATION_HERE_MAIL, [
        {
          companyId: company.id,
          toAddress: host.email,
          payload: payload(host.id),
          dedupeKey: `invitation-here:${visitor.request_id}:2030-03-05:${host.id}`,
        },
        {
          companyId: company.id,
          toAddress: desk.email,
          payload: payload(desk.id),
          dedupeKey: `invitation-here:${visitor.request_id}:2030-03-05:${desk.id}`,
        },
      ]),
    );
    await drain();
    const [toHost] = mailsTo(host.email);
    expect(toHost!.subject).toBe("Ali Traoré est arrivé(e) et attend à l'accueil");
    expect(toHost!.text).toContain('Bonjour Moussa,');
    expect(toHost!.text).toContain(
      "Ali Traoré (Globex) est arrivé(e) à Siège et vous attend à l'accueil.",
    );
    expect(toHost!.text).toContain('- Arrivée signalée à : 08:52');
    expect(toHost!.text).toContain(
      "L'arrivée n'est pas encore enregistrée : l'accueil scanne son code.",
    );
    expect(toHost!.text).toContain(
      `Voir mes visiteurs : http://sesame.test/${company.slug}/my-visitors`,
    );
    expect(toHost!.attachments.some((a) => a.contentType.startsWith('text/calendar'))).toBe(false);

    const [toDesk] = mailsTo(desk.email);
    expect(toDesk!.subject).toBe('Ali Traoré has arrived and is waiting at the front desk');
    expect(toDesk!.text).toContain('Hello Fatou,');
    expect(toDesk!.text).toContain(
      'Ali Traoré (Globex), invited by Moussa Diallo, has arrived at Siège and is waiting at the front desk.',
    );
    expect(toDesk!.text).toContain(
      'The arrival is not recorded yet: the front desk scans their code.',
    );
    expect(toDesk!.text).toContain(
      `Open the on-site list: http://sesame.test/${company.slug}/on-site`,
    );
  });

  it('says a rule’s days in words (every day, every other week, across a year)', () => {
    const days = (...list: string[]) => list.map((day) => ({ day }));
    expect(
      recurrenceSentence('FREQ=DAILY;UNTIL=20300308', days('2030-03-04', '2030-03-08'), 'fr'),
    ).toBe('Tous les jours, du 4 mars au 8 mars 2030');
    expect(
      recurrenceSentence(
        'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;COUNT=6',
        days('2030-03-04', '2030-03-15'),
        'en',
      ),
    ).toBe('Mondays, Wednesdays and Fridays, every other week, from 4 March to 15 March 2030');
    expect(
      recurrenceSentence('FREQ=WEEKLY;UNTIL=20310113', days('2030-12-02', '2031-01-13'), 'fr'),
    ).toBe('Les lundis, du 2 décembre 2030 au 13 janvier 2031');
    expect(recurrenceSentence(null, days('2030-03-04'), 'fr')).toBeNull();
  });

  it('lists the days across a change to summer time (RDATE), so none moves by an hour', () => {
    // Mondays at 09:00 in Paris from 25 March 2030: the clocks go forward on the 31st.
    const at = (day: string) =>
      zonedToUtc(
        {
          year: 2030,
          month: Number(day.slice(5, 7)),
          day: Number(day.slice(8)),
          hour: 9,
          minute: 0,
        },
        'Europe/Paris',
      );
    const days = ['2030-03-25', '2030-04-01', '2030-04-08'].map(at);
    const ics = writeInvitationEvent({
      method: 'REQUEST',
      uid: 'invitation-dst@sesame',
      sequence: 0,
      start: days[0]!,
      end: new Date(days[0]!.getTime() + 3_600_000),
      rrule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20300408',
      timeZone: 'Europe/Paris',
      exdates: [days[1]!],
      occurrences: days,
      recurrenceId: null,
      title: 'Visite',
      location: null,
      description: 'Code',
      url: 'https://sesame.example/demo',
      organizer: { name: 'Demo', email: 'accueil@example.com' },
      attendee: { name: 'Awa Koné', email: 'awa@example.com' },
    });
    expect(ics).not.toContain('RRULE:');
    const event = new ICAL.Event(
      new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!,
    );
    const iterator = event.iterator();
    const starts: string[] = [];
    for (let next = iterator.next(); next; next = iterator.next()) {
      starts.push(next.toJSDate().toISOString());
    }
    // 09:00 in Paris each time: 08:00 UTC in winter, 07:00 UTC in summer; the 1st cancelled.
    expect(starts).toEqual(['2030-03-25T08:00:00.000Z', '2030-04-08T07:00:00.000Z']);
  });
});
