/**
 * Issue 30: a CSV of invited visitors (POST /api/invitations/import), on PGlite and
 * PostgreSQL — 500 lines with 3 bad ones create nothing and name those 3 lines; the same
 * file fixed creates 500 visits and queues 500 mails; the bytes and shapes French and
 * English Excel save (Windows-1252, a BOM, `,` or `;`, the columns in either language and
 * any order); the file refused as a whole (a wrong header, empty, too large); a dry run.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_MESSAGES, FRENCH_MESSAGES, type InvitationCreated } from '@sesame/shared';
import { invitations, mailOutbox, sites, visitRequests, visitors } from '../src/db/schema';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant } from './helpers/factories';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;
interface LineError {
  line: number;
  field: string | null;
  message: string;
}

const FR = FRENCH_MESSAGES.invitation;
const EN = ENGLISH_MESSAGES.invitation;
const HEADER_FR = 'Prénom;Nom;E-mail;Téléphone;Organisation';
const SCHEDULE = { date: '04/03/2030', time: '09:00', end_time: '10:00', reason: 'Formation' };

/** Windows-1252 bytes of `text` (Latin-1, and the code page's own 0x80–0x9F for ’ and Œ). */
function cp1252(text: string): Buffer {
  const own: Record<string, number> = { '’': 0x92, Œ: 0x8c, œ: 0x9c, '€': 0x80 };
  return Buffer.from([...text].map((c) => own[c] ?? c.charCodeAt(0)));
}

/** 500 visitors, one a line after the header (line n + 2 holds visitor n), every one with an e-mail. */
function fiveHundred(): string[] {
  return Array.from({ length: 500 }, (_, n) => {
    const phone = n % 5 === 0 ? `+225 07 07 07 ${String(10 + (n % 90)).padStart(2, '0')} 07` : '';
    return `Awa${n};Koné${n};awa.kone.${n}@example.com;${phone};Orange CI`;
  });
}

describe(`invitations from a CSV (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let siteId: string;
  let hostToken: string;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    const [site] = await ctx.db.select().from(sites).where(eq(sites.companyId, acme.company.id));
    siteId = site!.id;
    // A ROLE_USER: the least of the staff roles invites too.
    hostToken = await tokenFor(ctx.app, acme.staff.ROLE_USER.email);
  });

  const send = (
    file: Buffer | string | undefined,
    options: { dryRun?: boolean; lang?: 'fr' | 'en'; token?: string | null } = {},
  ) => {
    const body = multipart(
      { site_id: siteId, ...SCHEDULE },
      file === undefined
        ? {}
        : {
            file: {
              filename: 'visiteurs.csv',
              contentType: 'text/csv',
              bytes: typeof file === 'string' ? Buffer.from(file, 'utf8') : file,
            },
          },
    );
    return as(
      ctx.app,
      options.token === undefined ? hostToken : options.token,
    )({
      method: 'POST',
      url: `/api/invitations/import${options.dryRun ? '?dry_run=true' : ''}`,
      payload: body.payload,
      headers: { ...body.headers, 'accept-language': options.lang ?? 'fr' },
    });
  };

  /** What the company holds: its visitors, its invitations, its mails. */
  const counts = async () => {
    const company = acme.company.id;
    const count = async (table: typeof visitors | typeof invitations | typeof mailOutbox) =>
      Number(
        (
          await ctx.db
            .select({ n: sql<number>`count(*)` })
            .from(table)
            .where(eq(table.companyId, company))
        )[0]!.n,
      );
    return {
      visitors: await count(visitors),
      invitations: await count(invitations),
      mails: await count(mailOutbox),
    };
  };

  const previewOf = async (file: Buffer | string, lang: 'fr' | 'en' = 'fr') => {
    const res = await send(file, { dryRun: true, lang });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{
      visitors: {
        firstname: string;
        lastname: string;
        email: string;
        phone: string;
        organisation: string;
      }[];
      count: number;
    }>();
  };

  it('names the 3 bad lines of 500 and creates nothing; the file fixed creates 500 visits and 500 mails', async () => {
    const lines = fiveHundred();
    lines[40] = 'Awa40;;awa.kone.40@example.com;;Orange CI'; // line 42: no last name
    lines[248] = 'Awa248;Koné248;awa.kone.248@example;;Orange CI'; // line 250: a bad e-mail
    lines[478] = 'Awa478;Koné478;;;Orange CI'; // line 480: neither e-mail nor phone
    const before = await counts();

    const refused = await send([HEADER_FR, ...lines].join('\r\n'));
    expect(refused.statusCode, refused.body).toBe(400);
    const answer = refused.json<{ message: string; lines: LineError[] }>();
    expect(answer.message).toBe(FR.csvErrors(3));
    expect(answer.lines).toEqual([
      { line: 42, field: 'lastname', message: FR.required('lastname') },
      { line: 250, field: 'email', message: FRENCH_MESSAGES.visitor.emailInvalid },
      { line: 480, field: 'email', message: FR.contactRequired },
    ]);
    expect(await counts()).toEqual(before);

    const fixed = fiveHundred();
    const res = await send([HEADER_FR, ...fixed].join('\r\n') + '\r\n');
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<InvitationCreated & { message: string }>();
    expect(created.message).toBe(FR.created(500));
    expect(created.visitors).toHaveLength(500);
    expect(await counts()).toEqual({
      visitors: before.visitors + 500,
      invitations: before.invitations + 1,
      mails: before.mails + 500,
    });
    const requests = await ctx.db
      .select({ confirmed: visitRequests.confirmed, email: visitors.email })
      .from(visitRequests)
      .innerJoin(visitors, eq(visitors.id, visitRequests.visitorId))
      .where(eq(visitRequests.invitationId, created.invitation_id));
    expect(requests).toHaveLength(500);
    expect(requests.every((r) => r.confirmed)).toBe(true);
    expect(new Set(requests.map((r) => r.email)).size).toBe(500);
    const mails = await ctx.db
      .select({ to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.kind, 'invitation'),
          sql`${mailOutbox.payload}->>'invitationId' = ${created.invitation_id}`,
        ),
      );
    expect(mails.map((m) => m.to).sort()).toEqual(fixed.map((line) => line.split(';')[2]).sort());
    // Phones are stored as the service reads them: E.164.
    const [phoned] = await ctx.db
      .select({ contact: visitors.contact })
      .from(visitors)
      .where(eq(visitors.email, 'awa.kone.5@example.com'));
    expect(phoned!.contact).toBe('+2250707071507');
  });

  it('reads Windows-1252 as French Excel saves it', async () => {
    const file = cp1252(
      `${HEADER_FR}\r\nAwa;Koné;awa@example.com;;Société Générale\r\nJean;N’Guessan;jean@example.com;;L’Œuvre d’Orient\r\n`,
    );
    const preview = await previewOf(file);
    expect(preview.count).toBe(2);
    expect(preview.visitors.map((v) => [v.lastname, v.organisation])).toEqual([
      ['Koné', 'Société Générale'],
      ['N’Guessan', 'L’Œuvre d’Orient'],
    ]);
  });

  it('reads UTF-8 with a BOM, `,` with English headers, and the columns in any order', async () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${HEADER_FR}\r\nAwa;Koné;awa@example.com;;Société Générale\r\n`),
    ]);
    expect((await previewOf(bom)).visitors).toEqual([
      {
        firstname: 'Awa',
        lastname: 'Koné',
        email: 'awa@example.com',
        phone: '',
        organisation: 'Société Générale',
      },
    ]);

    const english = await previewOf(
      'First name,Last name,Email,Phone,Organisation\n' +
        'Jane,Doe,Jane.Doe@Example.com,+44 20 7946 0000,"Acme, Ltd"\n\n' +
        'John,Smith,,0707070707,"The ""Big"" One"\n',
      'en',
    );
    expect(english.visitors).toEqual([
      {
        firstname: 'Jane',
        lastname: 'Doe',
        email: 'jane.doe@example.com',
        phone: '+442079460000',
        organisation: 'Acme, Ltd',
      },
      {
        firstname: 'John',
        lastname: 'Smith',
        email: '',
        phone: '+2250707070707',
        organisation: 'The "Big" One',
      },
    ]);

    // Another order, headers in any case and accents, no phone column, Excel's empty rows.
    const reordered = await previewOf(
      'e-mail ; NOM ; prenom\r\nawa@example.com;Koné;Awa\r\n;;\r\nyao@example.com;Kouassi;Yao\r\n',
    );
    expect(reordered.visitors.map((v) => `${v.firstname} ${v.lastname} ${v.email}`)).toEqual([
      'Awa Koné awa@example.com',
      'Yao Kouassi yao@example.com',
    ]);
  });

  it('refuses a wrong header, naming the columns in the caller’s language', async () => {
    const file = 'Prénom;Nom;Courriel\r\nAwa;Koné;awa@example.com\r\n';
    const fr = await send(file);
    expect(fr.statusCode, fr.body).toBe(400);
    expect(fr.json().message).toBe(FR.csvHeader('Prénom, Nom, E-mail, Téléphone, Organisation'));
    const en = await send(file, { lang: 'en' });
    expect(en.statusCode, en.body).toBe(400);
    expect(en.json().message).toBe(
      EN.csvHeader('First name, Last name, Email, Phone, Organisation'),
    );
    // First and last name, and an e-mail or a phone column, are required.
    const noContact = await send('Prénom;Nom;Organisation\r\nAwa;Koné;Orange\r\n');
    expect(noContact.statusCode).toBe(400);
    expect(noContact.json().message).toBe(
      FR.csvHeader('Prénom, Nom, E-mail, Téléphone, Organisation'),
    );
  });

  it('names a line of another number of cells, a broken quote and an unreadable phone', async () => {
    const res = await send(
      `${HEADER_FR}\r\nAwa;Koné;awa@example.com;;Orange;en trop\r\nYao;Kouassi\r\n` +
        'Ali;Traoré;ali@example.com;+225 07 07;Orange\r\n',
      { lang: 'en' },
    );
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ message: string; lines: LineError[] }>()).toEqual({
      message: EN.csvErrors(3),
      lines: [
        { line: 2, field: null, message: EN.csvCells(6, 5) },
        { line: 3, field: null, message: EN.csvCells(2, 5) },
        { line: 4, field: 'phone', message: ENGLISH_MESSAGES.validation.phoneInvalid },
      ],
    });

    const quote = await send(
      `${HEADER_FR}\r\nAwa;Koné;awa@example.com;;Orange\r\nYao;"Kouassi;yao@example.com;;Orange\r\nAli;Traoré;ali@example.com;;Orange\r\n`,
    );
    expect(quote.statusCode, quote.body).toBe(400);
    expect(quote.json<{ lines: LineError[] }>().lines).toEqual([
      { line: 3, field: null, message: FR.csvQuotes },
    ]);

    // A cell over two lines: the next record's line is still the file's.
    const multiline = await send(
      `${HEADER_FR}\r\nAwa;Koné;awa@example.com;;"Orange\r\nCI"\r\nYao;;yao@example.com;;Orange\r\n`,
    );
    expect(multiline.statusCode, multiline.body).toBe(400);
    expect(multiline.json<{ lines: LineError[] }>().lines).toEqual([
      { line: 2, field: 'organisation', message: expect.any(String) as string },
      { line: 4, field: 'lastname', message: FR.required('lastname') },
    ]);
  });

  it('creates nothing on a dry run, and refuses an empty file, a header alone, a missing or too large file', async () => {
    const before = await counts();
    const preview = await previewOf(`${HEADER_FR}\r\n${fiveHundred().slice(0, 20).join('\r\n')}`);
    expect(preview.count).toBe(20);
    expect(await counts()).toEqual(before);

    for (const file of ['', HEADER_FR, `${HEADER_FR}\r\n\r\n;;;;\r\n`, '\r\n\r\n']) {
      const res = await send(file);
      expect(res.statusCode, JSON.stringify(file)).toBe(400);
      expect(res.json().message).toBe(FR.csvEmpty);
    }
    const missing = await send(undefined);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(FR.csvMissing);

    // Over the CSV's 1 MiB: its own 400; over the parser's 5 MiB: the upload limit's 413.
    const line = 'Awa;Koné;awa@example.com;;Orange CI\r\n';
    const big = await send(
      `${HEADER_FR}\r\n${line.repeat(Math.ceil((1024 * 1024) / line.length))}`,
    );
    expect(big.statusCode, big.body).toBe(400);
    expect(big.json().message).toBe(FR.csvTooLarge('1'));
    const huge = await send(Buffer.alloc(6 * 1024 * 1024, 'a'));
    expect(huge.statusCode, huge.body).toBe(413);
    expect(huge.json().message).toBe(FRENCH_MESSAGES.api.fileTooLargeMax(1024 * 1024));
    expect(await counts()).toEqual(before);
  });

  it('refuses more visitors than an invitation takes, a file that is no text, and an anonymous caller', async () => {
    const many = Array.from({ length: 1001 }, (_, n) => `A;B${n};b${n}@example.com;;`);
    const res = await send([HEADER_FR, ...many].join('\n'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(FR.tooManyVisitors(1000));

    const utf16 = Buffer.from(`\ufeff${HEADER_FR}\r\nAwa;Koné;awa@example.com;;\r\n`, 'utf16le');
    const binary = await send(utf16);
    expect(binary.statusCode, binary.body).toBe(400);
    expect(binary.json().message).toBe(FR.csvUnreadable);

    const anonymous = await send(`${HEADER_FR}\r\nAwa;Koné;awa@example.com;;\r\n`, {
      token: null,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers a schedule error as the invitation form does', async () => {
    const body = multipart(
      { site_id: siteId, ...SCHEDULE, date: '01/01/2020' },
      {
        file: {
          filename: 'v.csv',
          contentType: 'text/csv',
          bytes: Buffer.from(`${HEADER_FR}\r\nAwa;Koné;awa@example.com;;\r\n`),
        },
      },
    );
    const res = await as(
      ctx.app,
      hostToken,
    )({ method: 'POST', url: '/api/invitations/import', ...body });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      message: FR.datePast,
      errors: { date: FR.datePast },
    });
  });
});
