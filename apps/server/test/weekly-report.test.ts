/**
 * Issue 35: the weekly summary mail, on PGlite and PostgreSQL, through a real SMTP server
 * (smtp-server, parsed with mailparser). "Mes notifications" saves the switch and the site
 * (its guards and messages); the sweep, on a fixed clock, queues nothing before Monday 08:00
 * in the report's site's zone and one mail per subscriber with 'dashboard.view' from then
 * (none to a non-subscriber, nor to a subscriber who lost the role), once whatever the number
 * of sweeps at the same time; nothing on a Wednesday for a new subscriber, who gets the next
 * Monday's. The mail's figures are readDashboard's for the week, its three charts decodable
 * PNG images shown by cid with alt text, every name escaped, its link the week's dashboard.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ParsedMail } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_MESSAGES, FRENCH_MESSAGES, type Dashboard } from '@sesame/shared';
import { readDashboard } from '../src/dashboard/figures';
import {
  WEEKLY_REPORT_MAIL,
  queueWeeklyReports,
  type WeeklyReportPayload,
} from '../src/dashboard/weekly-report';
import { WEEKLY_FIGURES, changeText } from '../src/dashboard/weekly-report-mail';
import { mailOutbox, users, visitorChecks, weeklyReportsSent } from '../src/db/schema';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { zonedToUtc } from '../src/time-zones';
import { callAs, useTestApp } from './helpers/app';
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
const PREFS = '/api/me/mail-preferences';
const PARIS = 'Europe/Paris';
const NEW_YORK = 'America/New_York';

/** 'HH:MM' on 'YYYY-MM-DD' in `zone`, as an instant. */
const at = (day: string, time: string, zone: string) => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const [hour, minute] = time.split(':').map(Number) as [number, number];
  return zonedToUtc({ year, month, day: date, hour, minute }, zone);
};

/** A PNG's signature and its header's size (IHDR: width and height, big-endian). */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe(`weekly summary mail (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const call = callAs(ctx);
  let smtp: TestSmtp;
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let annex: Awaited<ReturnType<typeof buildSite>>;
  let archived: Awaited<ReturnType<typeof buildSite>>;
  let other: Awaited<ReturnType<typeof buildCompany>>;
  const people = {} as Record<
    'manager' | 'supervisor' | 'superAdmin' | 'employee' | 'demoted' | 'late',
    typeof users.$inferSelect
  >;

  /** A visitor's visit at `site` on `day` from `from` to `to` (local), asked of `host`. */
  async function visit(
    site: { id: string; timezone: string },
    day: string,
    from: string,
    to: string,
    host: string,
  ) {
    const [y, m, d] = day.split('-');
    const visitor = await buildVisitor(ctx.db, {
      company,
      siteId: site.id,
      requestDate: `${d}/${m}/${y}`,
    });
    await buildRequest(ctx.db, { company, visitor, host, status: 1, confirmed: true });
    await again(visitor.id, site, day, from, to);
    return visitor;
  }
  async function again(
    visitorId: string,
    site: { id: string; timezone: string },
    day: string,
    from: string,
    to: string,
  ) {
    await ctx.db.insert(visitorChecks).values({
      companyId: company.id,
      siteId: site.id,
      visitorId,
      checkInAt: at(day, from, site.timezone),
      checkOutAt: at(day, to, site.timezone),
      checkInMethod: 'scan',
      checkOutMethod: 'scan',
    });
  }

  beforeAll(async () => {
    smtp = await startSmtp(await freePort());
    company = await buildCompany(ctx.db, { name: 'Acme <Nord> & Fils', timezone: PARIS });
    annex = await buildSite(ctx.db, { company, name: 'Annexe "Brooklyn"', timezone: NEW_YORK });
    archived = await buildSite(ctx.db, { company, name: 'Ancien site', archivedAt: new Date() });
    other = await buildCompany(ctx.db, { timezone: PARIS });
    people.manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER', firstname: 'Awa' });
    people.supervisor = await buildUser(ctx.db, {
      company,
      role: 'ROLE_SUPERVISOR',
      firstname: 'Jane',
      language: 'en',
      languageChosen: true,
      siteIds: [annex.id],
    });
    people.superAdmin = await buildUser(ctx.db, { company, role: 'ROLE_SUPER_ADMIN' });
    // Subscribed before the rule (no route lets an employee switch it on).
    people.employee = await buildUser(ctx.db, { company, weeklyReport: true });
    people.demoted = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    people.late = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });

    const main = { id: company.siteId, timezone: PARIS };
    // The week reported (Monday 25 to Sunday 31 March 2030) at the main site (Paris)…
    const zoe = 'Zoé <b>Martin</b>';
    const v1 = await visit(main, '2030-03-25', '09:10', '10:40', zoe);
    await visit(main, '2030-03-25', '09:30', '10:00', zoe);
    await visit(main, '2030-03-26', '14:05', '15:05', 'Paul Durand');
    await again(v1.id, main, '2030-03-26', '09:15', '09:45');
    await visit(main, '2030-03-28', '09:45', '11:45', 'Paul Durand');
    // …and at the annex (New York), in its own days.
    await visit(annex, '2030-03-27', '09:00', '09:20', 'Ann Lee');
    await visit(annex, '2030-03-27', '09:05', '10:05', 'Ann Lee');
    // The week before, at the main site.
    await visit(main, '2030-03-19', '10:00', '11:00', 'Paul Durand');
    await visit(main, '2030-03-20', '10:00', '10:30', 'Zoé <b>Martin</b>');
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const save = (email: string, body: Record<string, unknown>, lang = 'fr') =>
    call(
      {
        method: 'PUT',
        url: PREFS,
        headers: { 'accept-language': lang },
        payload: { language: 'fr', arrival_mail: true, ...body },
      },
      email,
    );

  describe('"Mes notifications"', () => {
    it('offers the summary and the sites it may report on to who may read the dashboard only', async () => {
      const manager = (await call({ method: 'GET', url: PREFS }, people.manager.email)).json();
      expect(manager.data).toMatchObject({
        weekly_report: false,
        weekly_report_site_id: null,
        weekly_report_available: true,
        weekly_report_sites: [
          { id: company.siteId, name: company.name },
          { id: annex.id, name: annex.name },
        ],
      });
      // Limited to the annex: that site only.
      const supervisor = (
        await call({ method: 'GET', url: PREFS }, people.supervisor.email)
      ).json();
      expect(supervisor.data.weekly_report_sites).toEqual([{ id: annex.id, name: annex.name }]);
      const employee = (await call({ method: 'GET', url: PREFS }, people.employee.email)).json();
      expect(employee.data).toMatchObject({
        weekly_report_available: false,
        weekly_report_sites: [],
      });
    });

    it('refuses to switch it on without the dashboard (403), in the reader’s language', async () => {
      const fr = await save(people.employee.email, { weekly_report: true });
      expect(fr.statusCode).toBe(403);
      expect(fr.json().message).toBe(FRENCH_MESSAGES.dashboard.weeklyMail.notAllowed);
      const en = await save(people.employee.email, { weekly_report: true }, 'en');
      expect(en.statusCode).toBe(403);
      expect(en.json().message).toBe(ENGLISH_MESSAGES.dashboard.weeklyMail.notAllowed);
      // Switching it off is anyone's right (this employee was subscribed before).
      const off = await save(people.employee.email, { weekly_report: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().data.weekly_report).toBe(false);
      await ctx.db
        .update(users)
        .set({ weeklyReport: true })
        .where(eq(users.id, people.employee.id));
    });

    it('checks the site: another company’s or none 404, archived or beyond the person’s sites 400, malformed 400', async () => {
      const elsewhere = await save(people.manager.email, {
        weekly_report: true,
        weekly_report_site_id: other.siteId,
      });
      expect(elsewhere.statusCode).toBe(404);
      const missing = await save(people.manager.email, {
        weekly_report_site_id: '00000000-0000-4000-8000-000000000000',
      });
      expect(missing.statusCode).toBe(404);
      const gone = await save(people.manager.email, { weekly_report_site_id: archived.id });
      expect(gone.statusCode).toBe(400);
      expect(gone.json()).toEqual({
        message: FRENCH_MESSAGES.dashboard.weeklyMail.siteOutOfReach,
        errors: { weekly_report_site_id: FRENCH_MESSAGES.dashboard.weeklyMail.siteOutOfReach },
      });
      const beyond = await save(
        people.supervisor.email,
        { weekly_report: true, weekly_report_site_id: company.siteId },
        'en',
      );
      expect(beyond.statusCode).toBe(400);
      expect(beyond.json().errors).toEqual({
        weekly_report_site_id: ENGLISH_MESSAGES.dashboard.weeklyMail.siteOutOfReach,
      });
      const malformed = await save(people.manager.email, { weekly_report_site_id: 'annexe' });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().errors).toHaveProperty('weekly_report_site_id');
      const notBoolean = await save(people.manager.email, { weekly_report: 'oui' });
      expect(notBoolean.statusCode).toBe(400);
      // Nothing was written by any refused save.
      const [row] = await ctx.db.select().from(users).where(eq(users.id, people.manager.id));
      expect(row).toMatchObject({ weeklyReport: false, weeklyReportSiteId: null });
    });

    it('saves the switch and the site, and a save without them leaves them', async () => {
      const manager = await save(people.manager.email, {
        weekly_report: true,
        weekly_report_site_id: null,
      });
      expect(manager.statusCode, manager.body).toBe(200);
      expect(manager.json().data).toMatchObject({
        weekly_report: true,
        weekly_report_site_id: null,
      });
      const supervisor = await save(people.supervisor.email, {
        language: 'en',
        weekly_report: true,
        weekly_report_site_id: annex.id,
      });
      expect(supervisor.statusCode, supervisor.body).toBe(200);
      // A client that knows nothing of the summary (the fields absent) changes nothing of it.
      const older = await save(people.supervisor.email, { language: 'en', arrival_mail: false });
      expect(older.json().data).toMatchObject({
        arrival_mail: false,
        weekly_report: true,
        weekly_report_site_id: annex.id,
      });
      // Subscribed as a manager, then made an employee.
      expect((await save(people.demoted.email, { weekly_report: true })).statusCode).toBe(200);
      await ctx.db
        .update(users)
        .set({ roles: ['ROLE_EMPLOYEE'] })
        .where(eq(users.id, people.demoted.id));
    });
  });

  describe('the Monday sweep', () => {
    const outbox = () =>
      ctx.db.select().from(mailOutbox).where(eq(mailOutbox.kind, WEEKLY_REPORT_MAIL));
    const worker = () =>
      new MailWorker({
        db: ctx.db,
        config: ctx.config,
        log: quiet,
        transport: smtpTransport(smtp.url),
      });
    const mailTo = (address: string) =>
      smtp.messages.filter((m) =>
        (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
          to?.value.some((v) => v.address === address),
        ),
      );
    const week = { from: '2030-03-25', to: '2030-03-31' };
    let managerMail: ParsedMail;
    let supervisorMail: ParsedMail;

    it('queues nothing before Monday 08:00 in the report site’s zone', async () => {
      // Sunday evening, then Monday 07:59 in Paris (summer time since Sunday: UTC+2).
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-03-31', '22:00', PARIS) })).toBe(0);
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-04-01', '07:59', PARIS) })).toBe(0);
      expect(await outbox()).toHaveLength(0);
      expect(await ctx.db.select().from(weeklyReportsSent)).toHaveLength(0);
    });

    it('at 08:00 queues one mail per subscriber whose zone reached it, whatever the number of sweeps', async () => {
      const now = at('2030-04-01', '08:00', PARIS);
      // Two instances at the same minute: one mail.
      const counts = await Promise.all([
        queueWeeklyReports(ctx.db, { now }),
        queueWeeklyReports(ctx.db, { now }),
      ]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
      // The supervisor's report is the annex's: New York, six hours behind, is at 02:00.
      let rows = await outbox();
      expect(rows.map((r) => r.toAddress)).toEqual([people.manager.email]);
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-04-01', '07:59', NEW_YORK) })).toBe(
        0,
      );

      const newYork = at('2030-04-01', '08:00', NEW_YORK);
      const again = await Promise.all([
        queueWeeklyReports(ctx.db, { now: newYork }),
        queueWeeklyReports(ctx.db, { now: newYork }),
        queueWeeklyReports(ctx.db, { now: newYork }),
      ]);
      expect(again.reduce((a, b) => a + b, 0)).toBe(1);
      // Later the same day: nothing more.
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-04-01', '23:00', NEW_YORK) })).toBe(
        0,
      );
      rows = await outbox();
      expect(rows.map((r) => r.toAddress).sort()).toEqual(
        [people.manager.email, people.supervisor.email].sort(),
      );
      // Neither the super admin (not subscribed), the employee nor the demoted manager.
      const sent = await ctx.db.select().from(weeklyReportsSent);
      expect(sent.map((s) => s.userId).sort()).toEqual(
        [people.manager.id, people.supervisor.id].sort(),
      );
      expect(new Set(sent.map((s) => s.week))).toEqual(new Set(['2030-04-01']));
      for (const row of rows) {
        const payload = row.payload as WeeklyReportPayload;
        expect(payload.week).toBe('2030-04-01');
        expect(payload.dashboard.period).toMatchObject({ ...week, days: 7 });
      }
    });

    it('sends each mail once through SMTP, to the subscribers only', async () => {
      await worker().drain();
      managerMail = (await smtp.waitForMessage((m) => mailTo(people.manager.email).includes(m)))!;
      supervisorMail = (await smtp.waitForMessage((m) =>
        mailTo(people.supervisor.email).includes(m),
      ))!;
      expect(mailTo(people.manager.email)).toHaveLength(1);
      expect(mailTo(people.supervisor.email)).toHaveLength(1);
      for (const nobody of [people.superAdmin, people.employee, people.demoted, people.late])
        expect(mailTo(nobody.email)).toHaveLength(0);
      expect((await outbox()).map((r) => r.status)).toEqual(['sent', 'sent']);
    });

    /** Each figure's line of the text part, as readDashboard counts the week. */
    async function expectFigures(
      mail: ParsedMail,
      dashboard: Dashboard,
      lang: 'fr' | 'en',
    ): Promise<void> {
      const words = (lang === 'fr' ? FRENCH_MESSAGES : ENGLISH_MESSAGES).dashboard;
      const colon = lang === 'fr' ? ' : ' : ': ';
      const none = words.weeklyMail.none;
      const text = String(mail.text);
      for (const figure of WEEKLY_FIGURES) {
        const current = dashboard.current[figure];
        const previous = dashboard.previous[figure];
        const change = changeText(current, previous, lang);
        const line =
          `- ${words.figures[figure]}${colon}${current ?? none} ` +
          `(${words.weeklyMail.previousWeek}${colon}${previous ?? none}` +
          `${change ? `, ${words.weeklyMail.change.toLowerCase()}${colon}${change}` : ''})`;
        expect(text, figure).toContain(line);
      }
    }

    it('gives the figures of readDashboard for the week against the week before', async () => {
      const now = at('2030-04-01', '08:00', PARIS);
      const all = await readDashboard(ctx.db, { companyId: company.id, ...week, now, lang: 'fr' });
      // Every site: seven arrivals, seven visits (one visitor came on two days).
      expect(all.current).toMatchObject({ arrivals: 7, visits: 7, peak_on_site: 2 });
      expect(all.previous).toMatchObject({ arrivals: 2, visits: 2 });
      await expectFigures(managerMail, all, 'fr');
      const text = String(managerMail.text);
      expect(text).toContain('- Arrivées : 7 (Semaine précédente : 2, évolution : +5 (+250 %))');
      expect(text).toContain('Durée médiane de visite (min) : 60 ');

      const annexOnly = await readDashboard(ctx.db, {
        companyId: company.id,
        siteIds: [annex.id],
        ...week,
        now: at('2030-04-01', '08:00', NEW_YORK),
        lang: 'en',
      });
      expect(annexOnly.current).toMatchObject({ arrivals: 2, visits: 2, peak_on_site: 2 });
      await expectFigures(supervisorMail, annexOnly, 'en');
      expect(String(supervisorMail.text)).toContain('- Arrivals: 2 (Previous week: 0, change: +2)');
    });

    it('is in the reader’s language, names the week and its sites, and links to that week’s dashboard', async () => {
      expect(managerMail.subject).toBe(
        'Résumé hebdomadaire – Acme <Nord> & Fils – semaine du 25 mars 2030',
      );
      const text = String(managerMail.text);
      expect(text).toContain('Bonjour Awa,');
      expect(text).toContain(
        'Voici les chiffres de la semaine du lundi 25 mars au dimanche 31 mars 2030, comparés à ceux de la semaine précédente.',
      );
      expect(text).toContain('Sites : tous vos sites');
      expect(text).toContain(
        `Ouvrir le tableau de bord : http://sesame.test/${company.slug}/dashboard?from=2030-03-25&to=2030-03-31`,
      );
      expect(text).toContain(
        `Ne plus le recevoir : http://sesame.test/${company.slug}/my-mail-settings`,
      );
      // Mail programs offer to unsubscribe: the same page.
      expect(managerMail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line).toBe(
        `List-Unsubscribe: <http://sesame.test/${company.slug}/my-mail-settings>`,
      );
      expect(text).toContain('Résumé envoyé par Acme <Nord> & Fils avec Sésame.');
      expect(supervisorMail.subject).toBe(
        'Weekly summary – Annexe "Brooklyn" – week of 25 March 2030',
      );
      const english = String(supervisorMail.text);
      expect(english).toContain('Hello Jane,');
      expect(english).toContain('Site: Annexe "Brooklyn"');
      expect(english).toContain(
        `Open the dashboard: http://sesame.test/${company.slug}/dashboard?from=2030-03-25&to=2030-03-31&site=${annex.id}`,
      );
      expect(english).toContain('1. Ann Lee: 2');
    });

    it('escapes every name in the HTML', async () => {
      const html = String(managerMail.html);
      expect(html).toContain('Acme &lt;Nord&gt; &amp; Fils');
      expect(html).toContain('Zoé &lt;b&gt;Martin&lt;/b&gt;');
      expect(String(supervisorMail.html)).toContain('Site: Annexe &quot;Brooklyn&quot;');
      expect(html).not.toContain('<b>Martin');
      expect(html).not.toContain('<Nord>');
      expect(String(managerMail.text)).toContain('1. Zoé <b>Martin</b> : 3');
    });

    it('shows three charts inline as PNG by cid, each with its alt text and its numbers beside it', async () => {
      const html = String(managerMail.html);
      const images = managerMail.attachments.filter((a) => a.contentType === 'image/png');
      expect(images).toHaveLength(3);
      for (const image of images) {
        expect(image.cid, image.filename).toBeTruthy();
        // mailparser puts each cid image inline as a data URL: only a matching cid becomes one.
        expect(image.related).toBe(true);
        expect(html).toContain(`src="data:image/png;base64,${image.content.toString('base64')}"`);
        const size = pngSize(image.content);
        // Drawn at twice the 520 px shown.
        expect(size.width).toBe(1040);
        expect(size.height).toBeGreaterThan(40);
        expect(size.height).toBeLessThan(800);
      }
      const alts = [...html.matchAll(/<img src="data:image\/png[^"]+" alt="([^"]+)"/g)].map(
        (m) => m[1],
      );
      expect(alts).toHaveLength(3);
      expect(alts[0]).toBe(
        'Diagramme en barres des visites de chaque jour de la semaine, du lundi au dimanche : lun. 25 (2), mar. 26 (2), mer. 27 (2), jeu. 28 (1), ven. 29 (0), sam. 30 (0), dim. 31 (0).',
      );
      expect(alts[1]).toContain('heure la plus chargée : lundi à 9 h–10 h (2 arrivées)');
      expect(alts[2]).toContain('Zoé &lt;b&gt;Martin&lt;/b&gt; (3), Ann Lee (2), Paul Durand (2)');
      // The heat map's words and numbers beside it, not in it.
      expect(html).toContain('Lignes : du lundi (en haut) au dimanche.');
    });

    it('skips a report no longer wanted when the mail is sent', async () => {
      // Queued, then the reader lost the role before the worker took it: cancelled, not sent.
      await ctx.db
        .update(users)
        .set({ weeklyReport: true })
        .where(eq(users.id, people.superAdmin.id));
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-04-01', '09:00', PARIS) })).toBe(1);
      await ctx.db
        .update(users)
        .set({ roles: ['ROLE_USER'] })
        .where(eq(users.id, people.superAdmin.id));
      await worker().drain();
      const [row] = (await outbox()).filter((r) => r.toAddress === people.superAdmin.email);
      expect(row?.status).toBe('cancelled');
      expect(mailTo(people.superAdmin.email)).toHaveLength(0);
    });

    it('sends a Wednesday subscriber nothing that week, and the next Monday’s report', async () => {
      expect((await save(people.late.email, { weekly_report: true })).statusCode).toBe(200);
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-04-03', '09:00', PARIS) })).toBe(0);
      // Monday 8 April, 08:00 in Paris: the late subscriber and the manager (the annex later).
      expect(await queueWeeklyReports(ctx.db, { now: at('2030-04-08', '08:00', PARIS) })).toBe(2);
      const late = (await outbox()).filter((r) => r.toAddress === people.late.email);
      expect(late).toHaveLength(1);
      const payload = late[0]!.payload as WeeklyReportPayload;
      expect(payload.week).toBe('2030-04-08');
      expect(payload.dashboard.period).toMatchObject({ from: '2030-04-01', to: '2030-04-07' });
    });
  });
});
