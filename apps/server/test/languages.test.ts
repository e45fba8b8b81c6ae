/**
 * Issue 18, the server in the reader's language: a request's `Accept-Language` picks
 * the language of every message the server writes (errors, validation, toasts, CSV
 * headers), French when it names none we speak; a visitor's mails follow the language
 * they called in, a staff member's the one they signed in with (unless they chose it).
 */
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_MESSAGES,
  FRENCH_MESSAGES,
  ENGLISH_MESSAGES,
  LOGIN_MESSAGES,
  MAIL_PREFERENCES_MESSAGES,
  VISITOR_MESSAGES,
} from '@sesame/shared';
import { visitorLogCsv } from '../src/checkins/csv';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import type { VisitorLogEntry } from '../src/checkins/logs';
import { users } from '../src/db/schema';
import { requestLanguage } from '../src/language';
import { smtpTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { qrPng } from '../src/qr/qr';
import { as, multipart, startTestApp, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildEvent, buildTenant, buildUser, visitorFormFields } from './helpers/factories';
import { freePort, startSmtp, type TestSmtp } from './helpers/smtp';

const EN = { 'accept-language': 'en-GB,en;q=0.9,fr;q=0.8' };

describe('the request language', () => {
  it('is the most wanted language Sésame speaks, French otherwise', () => {
    expect(requestLanguage('en-GB,en;q=0.9,fr;q=0.8')).toBe('en');
    expect(requestLanguage('en')).toBe('en');
    expect(requestLanguage('de-DE, en;q=0.5, fr;q=0.4')).toBe('en');
    expect(requestLanguage('fr;q=0.4, en;q=0.8')).toBe('en');
    expect(requestLanguage('en;q=0, fr')).toBe('fr');
    expect(requestLanguage('de, it')).toBe('fr');
    expect(requestLanguage('*')).toBe('fr');
    expect(requestLanguage('')).toBe('fr');
    expect(requestLanguage(undefined)).toBe('fr');
  });
});

describe(`server messages in the reader's language (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let smtp: TestSmtp;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    smtp = await startSmtp(await freePort());
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const silent = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
  const deliverMails = () =>
    new MailWorker({
      db: ctx.db,
      config: ctx.config,
      log: silent,
      transport: smtpTransport(smtp.url),
    }).drain();
  const mailTo = (address: string) =>
    smtp.messages.filter((m) =>
      (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
        to?.value.some((v) => v.address === address),
      ),
    );

  /** The visitor form, as a visitor sends it; `headers` says the language they called in. */
  async function submitVisitor(
    headers: Record<string, string>,
    fields: Record<string, string> = {},
    documentBytes?: Buffer,
  ) {
    const email = `visitor-${Math.random().toString(16).slice(2, 10)}@example.com`;
    const body = multipart(
      visitorFormFields({
        company_id: acme.company.slug,
        organisation_name: 'Globex',
        email,
        request_date: '24/11/2030',
        request_time: '10:30',
        ...fields,
      }),
      {
        request_image: {
          filename: 'id.png',
          contentType: 'image/png',
          bytes: documentBytes ?? (await qrPng('document')),
        },
      },
    );
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    return { res, email };
  }

  describe('errors', () => {
    it('a validation error: the check’s own message, in English or in French', async () => {
      const login = (headers: Record<string, string> = {}) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/login_check',
          headers,
          payload: { username: '', password: 'x' },
        });
      const english = await login(EN);
      expect(english.statusCode).toBe(400);
      expect(english.json()).toEqual({
        message: ENGLISH_MESSAGES.login.emailRequired,
        errors: { username: ENGLISH_MESSAGES.login.emailRequired },
      });
      expect(english.json().message).toBe('The e-mail address is required.');
      const french = await login();
      expect(french.json().message).toBe(LOGIN_MESSAGES.emailRequired);
      expect((await login({ 'accept-language': 'de' })).json().message).toBe(
        "L'adresse email est requise.",
      );
    });

    it('zod’s own checks too (a text too long, a malformed id), never zod’s wording', async () => {
      const long = await ctx.app.inject({
        method: 'POST',
        url: '/api/login_check',
        headers: EN,
        payload: { username: 'a@b.co', password: 'x'.repeat(201) },
      });
      expect(long.json().message).toBe('This field must not be longer than 200 characters.');
      const token = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
      const badId = await as(
        ctx.app,
        token,
      )({
        method: 'GET',
        url: '/api/evenement/export/not-an-id',
        headers: EN,
      });
      expect(badId.statusCode).toBe(400);
      expect(badId.json().message).toBe(ENGLISH_MESSAGES.api.badRequest);
    });

    it('401, 403 and 404 in English; French without the header', async () => {
      const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/user/info', headers: EN });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().message).toBe('You must be signed in.');
      expect((await ctx.app.inject({ method: 'GET', url: '/api/user/info' })).json().message).toBe(
        API_MESSAGES.unauthenticated,
      );

      const user = await tokenFor(ctx.app, acme.staff.ROLE_USER.email);
      const forbidden = await as(ctx.app, user)({ method: 'GET', url: '/api/audit', headers: EN });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().message).toBe('You do not have permission.');

      const unknownRoute = await ctx.app.inject({
        method: 'GET',
        url: '/api/nowhere',
        headers: EN,
      });
      expect(unknownRoute.statusCode).toBe(404);
      expect(unknownRoute.json().message).toBe('The requested resource does not exist.');
      const admin = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
      const unknownEvent = await as(
        ctx.app,
        admin,
      )({
        method: 'GET',
        url: '/api/evenement/export/0190a5b2-0000-7000-8000-000000000000',
        headers: EN,
      });
      expect(unknownEvent.statusCode).toBe(404);
      expect(unknownEvent.json().message).toBe(ENGLISH_MESSAGES.api.notFound);
    });

    it('the rate limit’s 429 in the reader’s language', async () => {
      const limited = await startTestApp({
        rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 1 },
      });
      try {
        const body = multipart({ firstname: '' });
        const post = (headers: Record<string, string>) =>
          limited.app.inject({
            method: 'POST',
            url: '/api/visitor/create',
            payload: body.payload,
            headers: { ...body.headers, ...headers },
          });
        expect((await post(EN)).statusCode).toBe(400);
        const english = await post(EN);
        expect(english.statusCode).toBe(429);
        expect(english.json().message).toBe('Too many attempts. Try again in a minute.');
        expect((await post({})).json().message).toBe(API_MESSAGES.tooManyRequests);
      } finally {
        await limited.close();
      }
    });

    it('an upload too large says the limit from the constant, in the reader’s language', async () => {
      const tooLarge = Buffer.concat([await qrPng('document'), Buffer.alloc(2 * 1024 * 1024)]);
      const english = await submitVisitor(EN, {}, tooLarge);
      expect(english.res.statusCode).toBe(413);
      expect(english.res.json().message).toBe('The file must not be larger than 2 MB.');
      const french = await submitVisitor({}, {}, tooLarge);
      expect(french.res.statusCode).toBe(413);
      expect(french.res.json().message).toBe(VISITOR_MESSAGES.fileTooLarge);
    });

    it('a form’s field messages, each in English', async () => {
      const { res } = await submitVisitor(EN, { firstname: '', email: 'not-an-email' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('The "First names" field is required.');
      expect(res.json().errors).toMatchObject({
        firstname: 'The "First names" field is required.',
        email: 'Please enter a valid e-mail address.',
      });
    });
  });

  describe('successes', () => {
    it('the visitor form’s toast, and a staff save’s, in the reader’s language', async () => {
      const english = await submitVisitor(EN);
      expect(english.res.statusCode).toBe(200);
      expect(english.res.json().message).toBe('Visitor created successfully.');
      const french = await submitVisitor({});
      expect(french.res.json().message).toBe(VISITOR_MESSAGES.visitorCreated);

      const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
      const save = (headers: Record<string, string>) =>
        as(
          ctx.app,
          token,
        )({
          method: 'PUT',
          url: '/api/me/mail-preferences',
          headers,
          payload: { language: 'fr', arrival_mail: true },
        });
      expect((await save(EN)).json().message).toBe('Settings saved.');
      expect((await save({})).json().message).toBe(MAIL_PREFERENCES_MESSAGES.saved);
    });
  });

  describe('CSV exports', () => {
    it('headers in the reader’s language, still UTF-8 with a BOM and semicolons', async () => {
      const event = await buildEvent(ctx.db, { company: acme.company });
      const token = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
      const exported = (headers: Record<string, string>) =>
        as(ctx.app, token)({ method: 'GET', url: `/api/evenement/export/${event.id}`, headers });
      const english = await exported(EN);
      expect(english.statusCode).toBe(200);
      expect(english.body.startsWith('\uFEFF')).toBe(true);
      expect(english.body.slice(1).split('\r\n')[0]).toBe(
        'First name;Last name;Email;Contact;Employer;Registered;Arrival;Departure',
      );
      const french = await exported({});
      expect(french.body.slice(1).split('\r\n')[0]).toBe(
        'Prénom;Nom;E-mail;Contact;Employeur;Inscription;Arrivée;Départ',
      );

      const log = (headers: Record<string, string>) =>
        as(
          ctx.app,
          token,
        )({
          method: 'GET',
          url: '/api/visitorlog/export?from=2030-01-10T00:00:00Z&to=2030-01-11T00:00:00Z',
          headers,
        });
      const englishLog = await log(EN);
      expect(englishLog.body.slice(1).split('\r\n')[0]).toBe(
        ENGLISH_MESSAGES.csv.visitorLog.header.join(';'),
      );
      expect(englishLog.headers['content-disposition']).toMatch(/filename="check-in-list-/);
      const frenchLog = await log({});
      expect(frenchLog.body.slice(1).split('\r\n')[0]).toBe(
        FRENCH_MESSAGES.csv.visitorLog.header.join(';'),
      );
      expect(frenchLog.headers['content-disposition']).toMatch(/filename="liste-check-in-/);
    });

    it('the fixed words of the visitor log’s cells too (how, undone)', () => {
      const at = new Date('2030-01-10T09:30:00Z');
      const entry: VisitorLogEntry = {
        id: 'c1',
        visitorId: 'v1',
        uidn: 'ABCD-EFGH-JKMN',
        firstname: 'Awa',
        lastname: 'Koné',
        email: 'awa@example.com',
        organisationName: 'Orange CI',
        imageId: null,
        imageType: null,
        companyName: 'Acme',
        companySlug: 'acme',
        siteId: 's1',
        siteName: 'Plateau',
        timezone: 'UTC',
        createdAt: at,
        checkInAt: at,
        checkOutAt: null,
        checkInMethod: 'manual',
        checkOutMethod: null,
        checkInBy: 'Desk',
        checkOutBy: null,
        undoneAt: at,
        undoneBy: 'Chief',
        undoReason: 'Wrong person',
        undoneOutAt: null,
        undoneOutMethod: null,
        undoneOutBy: null,
        outUndoneAt: null,
        outUndoneBy: null,
        outUndoReason: null,
      };
      const [, english] = visitorLogCsv([entry], 'en').split('\r\n');
      expect(english).toBe(
        'Awa;Koné;awa@example.com;ABCD-EFGH-JKMN;Acme;Plateau;10/01/2030 09:30;;Typed code;;Desk;;Arrival undone by Chief: Wrong person',
      );
      const [, french] = visitorLogCsv([entry], 'fr').split('\r\n');
      expect(french).toBe(
        'Awa;Koné;awa@example.com;ABCD-EFGH-JKMN;Acme;Plateau;10/01/2030 09:30;;Saisie manuelle;;Desk;;Arrivée annulée par Chief : Wrong person',
      );
    });
  });

  describe('mails', () => {
    it('a visitor who called in English gets English mails, through a real SMTP server', async () => {
      const host = await buildUser(ctx.db, { company: acme.company, role: 'ROLE_USER' });
      const { res, email } = await submitVisitor(EN);
      const visitorId = res.json().data.visitor_id as string;
      const filed = await ctx.app.inject({
        method: 'POST',
        url: '/api/requests/create',
        headers: EN,
        payload: { visitor_id: visitorId, host_user_id: host.id, reason: 'Interview' },
      });
      expect(filed.statusCode).toBe(201);
      expect(filed.json().message).toBe('Request created successfully.');
      await deliverMails();
      const [ack] = mailTo(email);
      expect(ack?.subject).toBe(`Meeting request received – ${acme.company.name}`);
      // The date in English (the weekday's comma varies with the ICU version).
      expect(ack?.text).toMatch(/Date: Sunday,? 24 November 2030/);
      expect(ack?.html || '').toContain('lang="en"');

      const french = await submitVisitor({});
      await ctx.app.inject({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: french.res.json().data.visitor_id, host_user_id: host.id },
      });
      await deliverMails();
      expect(mailTo(french.email)[0]?.subject).toBe(
        `Demande de rendez-vous reçue – ${acme.company.name}`,
      );
    });

    it('a staff member who signed in in English gets English staff mails; a chosen language stays', async () => {
      const host = await buildUser(ctx.db, {
        company: acme.company,
        role: 'ROLE_USER',
        firstname: 'Moussa',
      });
      const signIn = (headers: Record<string, string>) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/login_check',
          headers,
          payload: { username: host.email, password: 'Test-Password-123' },
        });
      expect((await signIn(EN)).statusCode).toBe(200);
      const languageOf = async () =>
        (await ctx.db.select().from(users).where(eq(users.id, host.id)))[0]?.language;
      expect(await languageOf()).toBe('en');

      const { res } = await submitVisitor({});
      await ctx.app.inject({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: res.json().data.visitor_id, host_user_id: host.id },
      });
      await deliverMails();
      const [request] = mailTo(host.email);
      expect(request?.subject).toBe('Meeting request: Awa Koné');
      expect(request?.text).toContain('Hello Moussa,');

      // Signing in in French follows; a language chosen on the preferences page stays.
      const french = await signIn({});
      expect(await languageOf()).toBe('fr');
      await as(
        ctx.app,
        french.json().token as string,
      )({
        method: 'PUT',
        url: '/api/me/mail-preferences',
        payload: { language: 'en', arrival_mail: true },
      });
      await signIn({});
      expect(await languageOf()).toBe('en');
    });
  });
});
