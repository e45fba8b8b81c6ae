/**
 * Issue 28: a visit's date and time are its site's. Through a real SMTP server
 * (smtp-server, parsed with mailparser): a company with sites in Paris and Nouméa has its
 * mails name the site and the zone, its invitation start at the right instant and name
 * the site; a company of one site writes its mails as before. Host-less requests go to
 * the front desk of the visitor's site; reminders and the daily counts of old checks
 * follow the site's day.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ParsedMail } from 'mailparser';
import pino from 'pino';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDailyCounts, mailOutbox, visitorChecks } from '../src/db/schema';
import { enqueueVisitorCodeMail } from '../src/mail/outbox';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { zoneName } from '../src/mail/zone';
import { purgeDue } from '../src/privacy/retention';
import { erasePerson, findPerson } from '../src/privacy/rights';
import { queueReminders, queueRequestFiledMails } from '../src/requests/host-loop';
import { useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildRequest,
  buildSite,
  buildUser,
  buildVisitor,
} from './helpers/factories';
import { freePort, startSmtp, type TestSmtp } from './helpers/smtp';

const quiet = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/** The invitation's lines, unfolded (RFC 5545 §3.1). */
function calendarOf(mail: ParsedMail): string {
  const ics = mail.attachments.find((a) => a.contentType.startsWith('text/calendar'));
  expect(ics, 'the invitation').toBeDefined();
  return ics!.content.toString('utf8').replace(/\r\n /g, '');
}

describe(`mails at a company's sites (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let smtp: TestSmtp;
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let noumea: Awaited<ReturnType<typeof buildSite>>;

  beforeAll(async () => {
    smtp = await startSmtp(await freePort());
    // Its main site is in Paris; the second is in Nouméa (UTC+11), with its own front desk.
    company = await buildCompany(ctx.db, {
      timezone: 'Europe/Paris',
      email: 'contact@example.fr',
    });
    noumea = await buildSite(ctx.db, {
      company,
      name: 'Nouméa',
      timezone: 'Pacific/Noumea',
      address: '1 rue de Sébastopol',
      zipcode: '98800',
      city: 'Nouméa',
      frontDeskEmail: 'accueil-noumea@example.nc',
    });
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

  const mailTo = (address: string) =>
    smtp.messages.filter((m) =>
      (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
        to?.value.some((v) => v.address === address),
      ),
    );

  /** A confirmed meeting on 24/11/2030 at 10:30 at `siteId`, its code mail queued. */
  async function confirmedMeeting(
    of: { id: string },
    siteId: string,
    values: { language?: string; hostUserId?: string } = {},
  ) {
    const email = `visit-${randomBytes(4).toString('hex')}@example.com`;
    const visitor = await buildVisitor(ctx.db, {
      company: of,
      siteId,
      email,
      requestDate: '24/11/2030',
      requestTime: '10:30',
      language: values.language ?? 'fr',
    });
    await buildRequest(ctx.db, {
      company: of,
      visitor,
      status: 1,
      confirmed: true,
      hostUserId: values.hostUserId ?? null,
    });
    await enqueueVisitorCodeMail(ctx.db, { companyId: of.id, visitorId: visitor.id });
    return { visitor, email };
  }

  it("the code mail at Nouméa: 10:30 in Nouméa's zone, named; the invitation at 23:30 UTC the day before, at the site", async () => {
    const { email } = await confirmedMeeting(company, noumea.id);
    await drain();
    const [mail, ...more] = mailTo(email);
    expect(more).toHaveLength(0);
    const zone = zoneName('Pacific/Noumea', 'fr');
    expect(zone).toMatch(/Nouvelle-Calédonie/);
    expect(mail!.text).toContain('- Date : dimanche 24 novembre 2030');
    expect(mail!.text).toContain(`- Heure : 10:30 (${zone})`);
    expect(mail!.text).toContain('- Site : Nouméa');
    expect(mail!.text).toContain('- Adresse : 1 rue de Sébastopol, 98800 Nouméa');
    expect(String(mail!.html)).toContain(`10:30 (${zone})`);

    const ics = calendarOf(mail!);
    // 10:30 in Nouméa (UTC+11) is 23:30 UTC on the 23rd.
    expect(ics).toContain('DTSTART:20301123T233000Z');
    expect(ics).toContain(
      `LOCATION:${company.name} – Nouméa\\, 1 rue de Sébastopol\\, 98800 Nouméa`,
    );
    // The site's front desk publishes it, not the company's address.
    expect(ics).toMatch(/ORGANIZER;CN="[^"]*":mailto:accueil-noumea@example\.nc/);
  });

  it('in English, the zone in English', async () => {
    const { email } = await confirmedMeeting(company, noumea.id, { language: 'en' });
    await drain();
    const [mail] = mailTo(email);
    const zone = zoneName('Pacific/Noumea', 'en');
    expect(zone).toMatch(/New Caledonia/);
    expect(mail!.text).toContain(`- Time: 10:30 (${zone})`);
    expect(mail!.text).toContain('- Site: Nouméa');
  });

  it("the main site's mails name their zone too when the company has several sites", async () => {
    const { email } = await confirmedMeeting(company, company.siteId);
    await drain();
    const [mail] = mailTo(email);
    expect(mail!.text).toContain(`- Heure : 10:30 (${zoneName('Europe/Paris', 'fr')})`);
    // 10:30 in Paris in November (UTC+1).
    expect(calendarOf(mail!)).toContain('DTSTART:20301124T093000Z');
    // A site without a front desk address: the company's own publishes it.
    expect(calendarOf(mail!)).toContain(':mailto:contact@example.fr');
  });

  it('a company of one site: the mail as before, no zone nor site named', async () => {
    const single = await buildCompany(ctx.db, { timezone: 'Pacific/Noumea' });
    const { email } = await confirmedMeeting(single, single.siteId);
    await drain();
    const [mail] = mailTo(email);
    expect(mail!.text).toContain('- Heure : 10:30\n');
    expect(mail!.text).not.toContain('(heure');
    expect(mail!.text).not.toContain('- Site :');
    const ics = calendarOf(mail!);
    // Still read in its site's zone.
    expect(ics).toContain('DTSTART:20301123T233000Z');
    expect(ics).toContain(`LOCATION:${single.name}\r\n`);
  });

  it("the host's arrival mail says the time at the site, with its zone", async () => {
    const host = await buildUser(ctx.db, { company, role: 'ROLE_SUPERVISOR', language: 'fr' });
    const { visitor } = await confirmedMeeting(company, noumea.id, { hostUserId: host.id });
    // The code mail is not this test's.
    await ctx.db.delete(mailOutbox).where(eq(mailOutbox.kind, 'visitor_code'));
    await ctx.db.insert(visitorChecks).values({
      companyId: company.id,
      siteId: visitor.siteId,
      visitorId: visitor.id,
      // 10:40 in Nouméa.
      checkInAt: new Date('2030-11-23T23:40:00Z'),
      checkInMethod: 'scan',
    });
    await drain();
    const [mail] = mailTo(host.email);
    expect(mail!.text).toContain(
      `est arrivé(e) à l'accueil à 10:40 (${zoneName('Pacific/Noumea', 'fr')}).`,
    );
  });

  it("a request's acknowledgement and the front desk's request mail name the site and its zone", async () => {
    const desk = await buildUser(ctx.db, { company, language: 'en' });
    const email = `ask-${randomBytes(4).toString('hex')}@example.com`;
    const visitor = await buildVisitor(ctx.db, {
      company,
      siteId: noumea.id,
      email,
      requestDate: '24/11/2030',
      requestTime: '10:30',
    });
    const request = await buildRequest(ctx.db, { company, visitor, host: null });
    await queueRequestFiledMails(ctx.db, {
      id: request.id,
      companyId: company.id,
      visitorId: visitor.id,
      hostUserId: null,
    });
    await drain();
    const [ack] = mailTo(email);
    expect(ack!.text).toContain(`- Heure : 10:30 (${zoneName('Pacific/Noumea', 'fr')})`);
    expect(ack!.text).toContain('- Site : Nouméa');
    const [ask] = mailTo(desk.email);
    expect(ask!.text).toContain(`- Time: 10:30 (${zoneName('Pacific/Noumea', 'en')})`);
    expect(ask!.text).toContain('- Site: Nouméa');
  });

  it("a request without a host goes to the front desk of the visitor's site", async () => {
    const other = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
    const farSite = await buildSite(ctx.db, { company: other, timezone: 'Pacific/Noumea' });
    const deskParis = await buildUser(ctx.db, { company: other, siteIds: [other.siteId] });
    const deskNoumea = await buildUser(ctx.db, { company: other, siteIds: [farSite.id] });
    const deskAll = await buildUser(ctx.db, { company: other });
    const recipients = async (siteId: string) => {
      const visitor = await buildVisitor(ctx.db, { company: other, siteId });
      const request = await buildRequest(ctx.db, { company: other, visitor, host: null });
      await queueRequestFiledMails(ctx.db, {
        id: request.id,
        companyId: other.id,
        visitorId: visitor.id,
        hostUserId: null,
      });
      const rows = await ctx.db
        .select({ to: mailOutbox.toAddress })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.companyId, other.id), eq(mailOutbox.kind, 'host_request')));
      return rows.map((r) => r.to);
    };
    const atNoumea = await recipients(farSite.id);
    expect(atNoumea.sort()).toEqual([deskAll.email, deskNoumea.email].sort());
    await ctx.db.delete(mailOutbox).where(eq(mailOutbox.companyId, other.id));
    const atParis = await recipients(other.siteId);
    expect(atParis.sort()).toEqual([deskAll.email, deskParis.email].sort());
    await ctx.db.delete(mailOutbox).where(eq(mailOutbox.companyId, other.id));

    // Every front-desk member limited to another site: they all get it all the same.
    const lone = await buildCompany(ctx.db);
    const loneSite = await buildSite(ctx.db, { company: lone, timezone: 'Pacific/Noumea' });
    const onlyDesk = await buildUser(ctx.db, { company: lone, siteIds: [lone.siteId] });
    const visitor = await buildVisitor(ctx.db, { company: lone, siteId: loneSite.id });
    const request = await buildRequest(ctx.db, { company: lone, visitor, host: null });
    await queueRequestFiledMails(ctx.db, {
      id: request.id,
      companyId: lone.id,
      visitorId: visitor.id,
      hostUserId: null,
    });
    const [row] = await ctx.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.companyId, lone.id), eq(mailOutbox.kind, 'host_request')));
    expect(row!.toAddress).toBe(onlyDesk.email);
  });

  it("the day-before reminder: tomorrow in the zone of the visitor's site", async () => {
    const other = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
    const farSite = await buildSite(ctx.db, { company: other, timezone: 'Pacific/Noumea' });
    const decidedAt = new Date('2030-11-01T10:00:00Z');
    const meetingAt = async (siteId: string) => {
      const visitor = await buildVisitor(ctx.db, {
        company: other,
        siteId,
        requestDate: '24/11/2030',
      });
      const request = await buildRequest(ctx.db, {
        company: other,
        visitor,
        status: 1,
        confirmed: true,
        decidedAt,
      });
      return request.id;
    };
    const inNoumea = await meetingAt(farSite.id);
    const inParis = await meetingAt(other.siteId);
    const reminded = async () =>
      (
        await ctx.db
          .select({ dedupeKey: mailOutbox.dedupeKey })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.companyId, other.id), eq(mailOutbox.kind, 'visitor_reminder')))
      ).map((r) => r.dedupeKey);
    // 22/11 at 14:00 UTC: already the 23rd in Nouméa (01:00), still the 22nd in Paris.
    await queueReminders(ctx.db, new Date('2030-11-22T14:00:00Z'));
    expect(await reminded()).toEqual([`visitor_reminder:${inNoumea}`]);
    // 23/11 at 10:00 UTC: the 23rd in Paris.
    await queueReminders(ctx.db, new Date('2030-11-23T10:00:00Z'));
    expect((await reminded()).sort()).toEqual(
      [`visitor_reminder:${inNoumea}`, `visitor_reminder:${inParis}`].sort(),
    );
  });

  it("old checks are counted on their site's day: 23:30 UTC is the next day in Nouméa", async () => {
    const other = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
    const farSite = await buildSite(ctx.db, { company: other, timezone: 'Pacific/Noumea' });
    const checkAt = async (siteId: string, at: string) => {
      const visitor = await buildVisitor(ctx.db, {
        company: other,
        siteId,
        requestDate: '02/03/2020',
      });
      await ctx.db.insert(visitorChecks).values({
        companyId: other.id,
        siteId,
        visitorId: visitor.id,
        checkInAt: new Date(at),
        checkOutAt: new Date(at),
        checkInMethod: 'scan',
      });
      return visitor;
    };
    // 23:30 UTC on 2 March 2020: 10:30 on the 3rd in Nouméa, 00:30 on the 3rd in Paris.
    await checkAt(farSite.id, '2020-03-02T23:30:00Z');
    // 22:30 UTC: 09:30 on the 3rd in Nouméa, but 23:30 on the 2nd in Paris.
    await checkAt(farSite.id, '2020-03-02T22:30:00Z');
    await checkAt(other.siteId, '2020-03-02T22:30:00Z');
    await purgeDue(ctx.db, ctx.app.storage);
    const counts = await ctx.db
      .select({ day: checkDailyCounts.day, checks: checkDailyCounts.checks })
      .from(checkDailyCounts)
      .where(eq(checkDailyCounts.companyId, other.id));
    expect(counts.sort((a, b) => a.day.localeCompare(b.day))).toEqual([
      { day: '2020-03-02', checks: 1 },
      { day: '2020-03-03', checks: 2 },
    ]);

    // An erasure counts the person's checks the same way.
    const recent = await buildVisitor(ctx.db, { company: other, siteId: farSite.id });
    await ctx.db.insert(visitorChecks).values({
      companyId: other.id,
      siteId: farSite.id,
      visitorId: recent.id,
      checkInAt: new Date('2026-01-05T23:30:00Z'),
      checkInMethod: 'scan',
    });
    const person = await findPerson(ctx.db, 'visitor', recent.id);
    await ctx.db.transaction((tx) => erasePerson(tx, person!));
    const [erased] = await ctx.db
      .select({ checks: checkDailyCounts.checks })
      .from(checkDailyCounts)
      .where(and(eq(checkDailyCounts.companyId, other.id), eq(checkDailyCounts.day, '2026-01-06')));
    expect(erased).toEqual({ checks: 1 });
  });
});
