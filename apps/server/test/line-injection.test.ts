/**
 * Issue 26 §5, calendar and mail injection: the invitation is valid RFC 5545 whatever a
 * company is called (read back by ical.js, a strict parser), single-line fields answer
 * 400 with the product's message and store nothing, and a name stored with a line feed
 * before the schemas refused one cannot add a line to a mail or its invitation.
 */
import { and, eq } from 'drizzle-orm';
import ICAL from 'ical.js';
import { simpleParser, type ParsedMail } from 'mailparser';
import nodemailer from 'nodemailer';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_MESSAGES, FRENCH_MESSAGES } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { companies, events, mailOutbox, users, visitRequests, visitors } from '../src/db/schema';
import {
  calendarInvitation,
  foldLine,
  icsParam,
  icsText,
  senderAddress,
  writeInvitation,
} from '../src/mail/calendar';
import {
  HOST_REQUEST_MAIL,
  VISITOR_ACK_MAIL,
  VISITOR_DECLINED_MAIL,
  enqueueOnce,
  enqueueVisitorCodeMail,
} from '../src/mail/outbox';
import type { MailTransport } from '../src/mail/transport';
import { MailWorker } from '../src/mail/worker';
import { qrPng } from '../src/qr/qr';
import { callAs, multipart, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
  companyFormFields,
  visitorFormFields,
} from './helpers/factories';

const CONTROL_CHARS = FRENCH_MESSAGES.validation.controlChars;

/** The brief's company: a quote, a semicolon, and what looks like a property after them. */
const QUOTED = 'Société "Le Bon"; ATTENDEE:x';
/** A manager's attempt at adding lines to every visitor's invitation. */
const INJECTED =
  'Acme\r\nATTENDEE;RSVP=TRUE:mailto:x@evil.test\r\nBEGIN:VALARM\nURL:http://evil.test';

const CARD_URL = 'http://sesame.test/company/acme/meeting-request-qr/ABCD-1234';

/**
 * The invitation read the strict way: CRLF line ends only, no physical line over 75
 * octets, each continuation a space and whole characters, then ical.js.
 */
function strictlyParsed(ics: string) {
  expect(ics.endsWith('\r\n')).toBe(true);
  const physical = ics.slice(0, -2).split('\r\n');
  for (const line of physical) {
    expect(line).not.toMatch(/[\r\n]/);
    expect(Buffer.byteLength(line, 'utf8'), line).toBeLessThanOrEqual(75);
    // Each physical line is whole characters: its octets decode to itself.
    expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
  }
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const vevents = calendar.getAllSubcomponents('vevent');
  expect(vevents).toHaveLength(1);
  return { calendar, vevent: vevents[0]! };
}

const invitation = (overrides: Partial<Parameters<typeof writeInvitation>[0]> = {}) =>
  writeInvitation({
    uid: 'visit-1@sesame',
    start: new Date(Date.UTC(2030, 10, 24, 10, 30)),
    title: 'Rendez-vous chez Acme',
    location: 'Rue 12, Abidjan',
    description: 'Votre code visiteur : ABCD-1234\n' + CARD_URL,
    url: CARD_URL,
    organizer: { name: 'Acme', email: 'no-reply@sesame.test' },
    stamp: new Date(Date.UTC(2030, 10, 20, 8, 0)),
    ...overrides,
  });

describe('the calendar invitation (RFC 5545, read back by ical.js)', () => {
  it(`a company named ${QUOTED}: one ORGANIZER, no ATTENDEE, VALARM nor other URL, the CN sensible`, () => {
    const ics = invitation({ organizer: { name: QUOTED, email: 'no-reply@sesame.test' } });
    const { calendar, vevent } = strictlyParsed(ics);
    expect(vevent.getAllProperties().map((p) => p.name)).toEqual([
      'uid',
      'dtstamp',
      'dtstart',
      'duration',
      'summary',
      'location',
      'description',
      'url',
      'organizer',
      'status',
    ]);
    expect(calendar.getAllSubcomponents()).toHaveLength(1);
    const [organizer, ...more] = vevent.getAllProperties('organizer');
    expect(more).toHaveLength(0);
    expect(vevent.getAllProperties('attendee')).toHaveLength(0);
    expect(vevent.getAllSubcomponents('valarm')).toHaveLength(0);
    expect(vevent.getAllProperties('url').map((p) => p.getFirstValue())).toEqual([CARD_URL]);
    // The double quotes, which a quoted parameter cannot hold, read as apostrophes.
    expect(organizer!.getParameter('cn')).toBe("Société 'Le Bon'; ATTENDEE:x");
    expect(organizer!.getFirstValue()).toBe('mailto:no-reply@sesame.test');
  });

  it('line breaks in the name, the title or the place add no line: they read as spaces', () => {
    const ics = invitation({
      organizer: { name: INJECTED, email: 'no-reply@sesame.test' },
      title: INJECTED,
      location: INJECTED,
    });
    const { vevent } = strictlyParsed(ics);
    expect(vevent.getAllProperties('organizer')).toHaveLength(1);
    expect(vevent.getAllProperties('attendee')).toHaveLength(0);
    expect(vevent.getAllSubcomponents('valarm')).toHaveLength(0);
    expect(vevent.getAllProperties('url')).toHaveLength(1);
    const oneLine = 'Acme ATTENDEE;RSVP=TRUE:mailto:x@evil.test BEGIN:VALARM URL:http://evil.test';
    expect(vevent.getFirstProperty('organizer')!.getParameter('cn')).toBe(oneLine);
    expect(vevent.getFirstPropertyValue('summary')).toBe(oneLine);
    expect(vevent.getFirstPropertyValue('location')).toBe(oneLine);
    expect(ics).not.toMatch(/\r\n(ATTENDEE|BEGIN:VALARM|URL:http:\/\/evil)/);
  });

  it('escapes TEXT values (backslash, semicolon, comma, new line) and they come back as written', () => {
    const title = 'Réunion; budget, T1 \\ T2';
    const description = 'Ligne 1; a, b\nLigne 2 \\ fin';
    const { vevent } = strictlyParsed(invitation({ title, description }));
    expect(vevent.getFirstPropertyValue('summary')).toBe(title);
    expect(vevent.getFirstPropertyValue('description')).toBe(description);
    expect(icsText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d e');
    expect(icsText('a\r\nb', 'several')).toBe('a\\nb');
  });

  it('folds at 75 octets without cutting a character (accents, emoji)', () => {
    const location = `Immeuble ${'é'.repeat(60)} ${'😀'.repeat(30)} ${'ß'.repeat(41)}`;
    const organizer = `Ébène ${'Ô'.repeat(80)}`;
    const ics = invitation({ location, organizer: { name: organizer, email: 'a@b.ci' } });
    const { vevent } = strictlyParsed(ics);
    expect(vevent.getFirstPropertyValue('location')).toBe(location);
    expect(vevent.getFirstProperty('organizer')!.getParameter('cn')).toBe(organizer);
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
    // 37 two-octet characters are 74 octets: the 38th would straddle the limit.
    expect(foldLine('é'.repeat(38))).toBe(`${'é'.repeat(37)}\r\n é`);
  });

  it('quotes every parameter value; a caret is doubled (RFC 6868) and comes back single', () => {
    expect(icsParam('A "B"')).toBe(`"A 'B'"`);
    const name = "Caret^n et ^' et ^^";
    const { vevent } = strictlyParsed(invitation({ organizer: { name, email: 'a@b.ci' } }));
    expect(vevent.getFirstProperty('organizer')!.getParameter('cn')).toBe(name);
  });

  it('without an address there is no ORGANIZER (it takes none without a value), and it still reads', () => {
    const ics = invitation({ organizer: { name: QUOTED, email: null } });
    const { vevent } = strictlyParsed(ics);
    expect(vevent.getAllProperties('organizer')).toHaveLength(0);
    expect(invitation({ organizer: { name: 'Acme', email: 'not an address' } })).not.toContain(
      'ORGANIZER',
    );
  });

  it("names the sender's address (MAIL_FROM) as organizer; none when it holds none", () => {
    expect(senderAddress('Sésame <no-reply@sesame.local>')).toBe('no-reply@sesame.local');
    expect(senderAddress('"Accueil; Acme" <accueil@acme.ci>')).toBe('accueil@acme.ci');
    expect(senderAddress('no-reply@sesame.local')).toBe('no-reply@sesame.local');
    expect(senderAddress('Sésame')).toBeNull();
  });

  it('writes none for a day or time it cannot read', () => {
    const base = {
      uid: 'u',
      title: 't',
      timeZone: 'Africa/Abidjan',
      location: null,
      description: 'd',
      url: CARD_URL,
      organizer: { name: 'Acme', email: null },
    };
    expect(calendarInvitation({ ...base, date: '24/11/2030', time: null })).toBeNull();
    expect(calendarInvitation({ ...base, date: null, time: '10:30' })).toBeNull();
    const ics = calendarInvitation({ ...base, date: '24/11/2030', time: '10:30' });
    expect(ics).toContain('DTSTART:20301124T103000Z');
  });
});

describe(`single-line fields through the API (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  const call = callAs(ctx);
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let png: Buffer;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    png = await qrPng('identity document');
  });

  const visitorForm = (fields: Record<string, string>, language?: string) => {
    const body = multipart(
      visitorFormFields({
        company_id: acme.company.slug,
        request_date: '24/11/2030',
        request_time: '10:30',
        ...fields,
      }),
      { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } },
    );
    return ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      payload: body.payload,
      headers: { ...body.headers, ...(language ? { 'accept-language': language } : {}) },
    });
  };

  it('the visitor form: a line feed in a name is a 400 in the reader’s language, and no visitor', async () => {
    for (const [field, value] of [
      ['firstname', 'Awa\nBcc: x@evil.test'],
      ['lastname', 'Koné\r\nX'],
      ['organisation_name', 'Acme\u0085Corp'],
      ['host', 'M.\tDiallo'],
      ['reason', 'Entretien\u009b2J'],
    ] as const) {
      const email = `lf-${field}@example.com`;
      const res = await visitorForm({ [field]: value, email });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().message).toBe(CONTROL_CHARS);
      expect(res.json().errors[field]).toBe(CONTROL_CHARS);
      expect(await ctx.db.select().from(visitors).where(eq(visitors.email, email))).toEqual([]);
    }
    const english = await visitorForm({ firstname: 'Awa\nX', email: 'lf-en@example.com' }, 'en');
    expect(english.statusCode).toBe(400);
    expect(english.json().message).toBe(ENGLISH_MESSAGES.validation.controlChars);
    // Accents, quotes and a semicolon are a name like any other.
    const fine = await visitorForm({ firstname: 'Zoë "Zo"; N°2', email: 'lf-ok@example.com' });
    expect(fine.statusCode).toBe(200);
    expect(fine.json().data.firstname).toBe('Zoë "Zo"; N°2');
  });

  it('the request: a line feed in the host or the reason is a 400, and no request', async () => {
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    for (const payload of [
      { visitor_id: visitor.id, host: 'M. Diallo\r\nBcc: x@evil.test' },
      { visitor_id: visitor.id, reason: 'Entretien\nannuel' },
    ]) {
      const res = await call({ method: 'POST', url: '/api/requests/create', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(CONTROL_CHARS);
    }
    const stored = await ctx.db
      .select()
      .from(visitRequests)
      .where(eq(visitRequests.visitorId, visitor.id));
    expect(stored).toEqual([]);
  });

  it('the company: a line feed in its name is a 400, created or renamed; a quote and a semicolon are fine', async () => {
    const logo = { logo: { filename: 'logo.png', contentType: 'image/png', bytes: png } };
    const created = await call(
      {
        method: 'POST',
        url: '/api/company',
        ...multipart(companyFormFields({ name: 'Evil\nATTENDEE:x', id_number: 'RC-LF' }), logo),
      },
      acme.staff.ROLE_ADMIN.email,
    );
    expect(created.statusCode).toBe(400);
    expect(created.json().errors.name).toBe(CONTROL_CHARS);
    expect(await ctx.db.select().from(companies).where(eq(companies.idNumber, 'RC-LF'))).toEqual(
      [],
    );

    // The threat the issue names: a manager renaming their own company.
    const renamed = await call(
      {
        method: 'PUT',
        url: `/api/company/${acme.company.id}`,
        ...multipart({ name: 'Acme\r\nATTENDEE:mailto:x@evil.test', description: 'D' }),
      },
      acme.staff.ROLE_MANAGER.email,
    );
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toBe(CONTROL_CHARS);
    const [kept] = await ctx.db.select().from(companies).where(eq(companies.id, acme.company.id));
    expect(kept!.name).toBe(acme.company.name);

    const quoted = await call(
      {
        method: 'PUT',
        url: `/api/company/${acme.company.id}`,
        ...multipart({ name: QUOTED, description: 'Ligne 1\r\nLigne 2' }),
      },
      acme.staff.ROLE_MANAGER.email,
    );
    expect(quoted.statusCode).toBe(200);
    const [now] = await ctx.db.select().from(companies).where(eq(companies.id, acme.company.id));
    expect(now).toMatchObject({ name: QUOTED, description: 'Ligne 1\nLigne 2' });
  });

  it('the event and the staff user: a line feed in a name is a 400, and nothing stored', async () => {
    const event = await call(
      {
        method: 'POST',
        url: '/api/evenement/create',
        payload: {
          company_id: acme.company.id,
          name: 'Gala\nURL:http://evil.test',
          location: 'Salle',
          address_name: 'Plateau',
          date_event: '24/12/2030',
          time_event: '18:30',
        },
      },
      acme.staff.ROLE_SUPERVISOR.email,
    );
    expect(event.statusCode).toBe(400);
    expect(event.json().errors.name).toBe(CONTROL_CHARS);
    expect(
      await ctx.db
        .select()
        .from(events)
        .where(and(eq(events.companyId, acme.company.id), eq(events.location, 'Salle'))),
    ).toEqual([]);

    const user = await call(
      {
        method: 'POST',
        url: '/api/user/create',
        payload: {
          name: 'Koné\u0000',
          firstname: 'Awa\u2028X',
          email: 'lf-user@example.com',
          password: 'a long enough password 42',
          title: 'Accueil',
          contact: '0701020304',
          role: 'ROLE_USER',
          company_id: acme.company.id,
        },
      },
      acme.staff.ROLE_ADMIN.email,
    );
    expect(user.statusCode).toBe(400);
    expect(await ctx.db.select().from(users).where(eq(users.email, 'lf-user@example.com'))).toEqual(
      [],
    );
  });
});

type Sent = { outboxId: string; to: string; parsed: ParsedMail };

/** Composes each mail as SMTP would carry it, and parses it back (mailparser). */
function wireTransport(): MailTransport & { sent: Sent[] } {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const sent: Sent[] = [];
  return {
    sent,
    description: 'composed and parsed',
    async send({ outboxId, ...message }) {
      const info = await composer.sendMail(message);
      sent.push({ outboxId, to: String(message.to), parsed: await simpleParser(info.message) });
      return 'parsed';
    },
    close: () => composer.close(),
  };
}

describe(`mails of values stored with line breaks before the schemas refused them (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  /** No line of the text part, nor header, starts with what the stored values tried to add. */
  function expectNoInjectedLine(mail: ParsedMail) {
    expect(mail.subject ?? '').not.toMatch(/[\r\n]/);
    expect(mail.headers.has('bcc')).toBe(false);
    for (const line of (mail.text ?? '').split('\n')) {
      expect(line).not.toMatch(/^(Bcc:|ATTENDEE|URL:|X-Evil)/);
      // No control character at all in a line (a tab included).
      expect(line).not.toMatch(/\p{Cc}/u);
    }
    // The HTML's own line feeds aside (between its tags), none.
    expect(String(mail.html)).not.toMatch(/[^\P{Cc}\n]/u);
  }

  it('the code mail and its invitation, the acknowledgement, the host request and the decline', async () => {
    const company = await buildCompany(ctx.db, {
      name: `${QUOTED}\r\nATTENDEE:mailto:x@evil.test`,
      address: 'Rue 12\nX-Evil: 1',
      city: 'Abidjan',
    });
    const host = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE', firstname: 'Moussa' });
    const stored = {
      firstname: 'Awa\r\nBcc: x@evil.test',
      lastname: 'Koné\u0085X',
      organisationName: 'Acme\u009b2J',
      requestDate: '24/11/2030',
    };
    // Confirmed: the code mail with its invitation.
    const confirmed = await buildVisitor(ctx.db, { company, ...stored });
    await buildRequest(ctx.db, {
      company,
      visitor: confirmed,
      status: 1,
      confirmed: true,
      host: 'M. Diallo\nURL:http://evil.test',
      reason: 'Entretien\tannuel',
    });
    const codeId = await enqueueVisitorCodeMail(ctx.db, {
      companyId: company.id,
      visitorId: confirmed.id,
    });
    // Pending: the acknowledgement and the host's request.
    const pending = await buildVisitor(ctx.db, { company, ...stored });
    const filed = await buildRequest(ctx.db, {
      company,
      visitor: pending,
      host: 'M. Diallo\r\nBcc: x@evil.test',
      hostUserId: host.id,
    });
    const ackId = await enqueueOnce(ctx.db, {
      companyId: company.id,
      kind: VISITOR_ACK_MAIL,
      toAddress: pending.email,
      payload: { visitorId: pending.id, requestId: filed.id },
      dedupeKey: `ack-${filed.id}`,
    });
    const hostId = await enqueueOnce(ctx.db, {
      companyId: company.id,
      kind: HOST_REQUEST_MAIL,
      toAddress: host.email,
      payload: { visitorId: pending.id, requestId: filed.id, userId: host.id },
      dedupeKey: `host-${filed.id}`,
    });
    // Declined, with a reason written on several lines (kept) and a tab (a space).
    const declined = await buildVisitor(ctx.db, { company, ...stored });
    const refused = await buildRequest(ctx.db, {
      company,
      visitor: declined,
      status: 0,
      confirmed: false,
      declineReason: 'Absent ce jour-là.\r\nRevenez\tjeudi.',
    });
    const declinedId = await enqueueOnce(ctx.db, {
      companyId: company.id,
      kind: VISITOR_DECLINED_MAIL,
      toAddress: declined.email,
      payload: { visitorId: declined.id, requestId: refused.id },
      dedupeKey: `declined-${refused.id}`,
    });

    const transport = wireTransport();
    const silent = { info() {}, warn() {}, error() {} } as never;
    await new MailWorker({ db: ctx.db, config: ctx.config, log: silent, transport }).drain();
    const mailOf = (id: string | null) => transport.sent.find((m) => m.outboxId === id)?.parsed;
    const mails = [codeId, ackId, hostId, declinedId].map(mailOf);
    expect(mails.every(Boolean)).toBe(true);
    for (const mail of mails) expectNoInjectedLine(mail!);

    const code = mails[0]!;
    expect(code.subject).toBe(`Votre code visiteur – ${QUOTED} ATTENDEE:mailto:x@evil.test`);
    expect(code.text).toContain('Bonjour Awa Bcc: x@evil.test Koné X,');
    expect(code.text).toContain('- Hôte : M. Diallo URL:http://evil.test');
    expect(code.text).toContain('- Motif : Entretien annuel');

    const ics = code.attachments.find((a) => a.filename === 'invitation.ics');
    const { vevent } = strictlyParsed(ics!.content.toString('utf8'));
    expect(vevent.getAllProperties('organizer')).toHaveLength(1);
    expect(vevent.getAllProperties('attendee')).toHaveLength(0);
    expect(vevent.getAllSubcomponents('valarm')).toHaveLength(0);
    expect(vevent.getAllProperties('url')).toHaveLength(1);
    const organizer = vevent.getFirstProperty('organizer')!;
    expect(organizer.getParameter('cn')).toBe(
      "Société 'Le Bon'; ATTENDEE:x ATTENDEE:mailto:x@evil.test",
    );
    // The address the mail comes from (the test's MAIL_FROM), until the front desk has one.
    expect(organizer.getFirstValue()).toBe('mailto:no-reply@sesame.test');
    expect(vevent.getFirstPropertyValue('location')).toBe('Rue 12 X-Evil: 1, Abidjan');

    expect(mails[2]!.text).toContain(
      'Awa Bcc: x@evil.test Koné X (Acme 2J) demande à vous rencontrer.',
    );
    const decline = mails[3]!.text!.split('\n');
    expect(decline).toContain('Motif donné : Absent ce jour-là.');
    expect(decline).toContain('Revenez jeudi.');

    const outbox = await ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.companyId, company.id));
    expect(outbox.map((row) => row.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it("the invitation's organizer is the company's own address when it has one (issue 27)", async () => {
    const company = await buildCompany(ctx.db, { name: 'Acme', email: 'accueil@acme.test' });
    const visitor = await buildVisitor(ctx.db, { company, requestDate: '24/11/2030' });
    await buildRequest(ctx.db, { company, visitor, status: 1, confirmed: true });
    const codeId = await enqueueVisitorCodeMail(ctx.db, {
      companyId: company.id,
      visitorId: visitor.id,
    });
    const transport = wireTransport();
    const silent = { info() {}, warn() {}, error() {} } as never;
    await new MailWorker({ db: ctx.db, config: ctx.config, log: silent, transport }).drain();
    const mail = transport.sent.find((m) => m.outboxId === codeId)?.parsed;
    const ics = mail!.attachments.find((a) => a.filename === 'invitation.ics');
    const { vevent } = strictlyParsed(ics!.content.toString('utf8'));
    const organizer = vevent.getFirstProperty('organizer')!;
    expect(organizer.getParameter('cn')).toBe('Acme');
    expect(organizer.getFirstValue()).toBe('mailto:accueil@acme.test');
  });
});
