import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_MESSAGES, ID_FILE_MAX_BYTES, VISITOR_MESSAGES } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { files, visitRequests, visitors } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { dayOf } from '../src/time-zones';
import { as, multipart, startTestApp, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildRequest,
  buildTenant,
  buildVisitor,
} from './helpers/factories';

const run = promisify(execFile);

async function decodeQr(png: Buffer): Promise<string> {
  const file = path.join(os.tmpdir(), `sesame-visitors-qr-${process.pid}-${Date.now()}.png`);
  await writeFile(file, png);
  const { stdout } = await run('sh', ['-c', `zbarimg --raw -q '${file}' 2>/dev/null`]);
  return stdout.trim();
}

const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

function visitorFields(company: string, overrides: Record<string, string | undefined> = {}) {
  return {
    company_id: company,
    firstname: 'Awa',
    lastname: 'Koné',
    id_number: 'CI-0042',
    organisation_name: 'Acme',
    email: 'awa@example.com',
    contact: '0701020304',
    address: 'Rue 12',
    city: 'Abidjan',
    country: 'Côte d’Ivoire',
    state: 'Lagunes',
    zipcode: '01 BP 1',
    host: 'M. Diallo',
    reason: 'Réunion',
    request_date: '24/11/2030',
    request_time: '10:30',
    // Issue 16: the privacy notice accepted.
    privacy_accepted: '1',
    language: 'fr',
    ...overrides,
  };
}

describe(`visitor creation (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let png: Buffer;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    png = await qrPng('identity document');
  });

  const create = (
    fields: Record<string, string | undefined>,
    file: { filename: string; contentType: string; bytes: Buffer } | null = {
      filename: 'id.png',
      contentType: 'image/png',
      bytes: png,
    },
  ) => {
    const body = multipart(fields, file ? { request_image: file } : {});
    return ctx.app.inject({ method: 'POST', url: '/api/visitor/create', ...body });
  };

  const stored = async () => {
    const [v] = await ctx.db.select({ n: count() }).from(visitors);
    const [f] = await ctx.db.select({ n: count() }).from(files);
    let onDisk = 0;
    try {
      for (const dir of await readdir(path.join(ctx.config.dataDir, 'files'))) {
        onDisk += (await readdir(path.join(ctx.config.dataDir, 'files', dir))).length;
      }
    } catch {
      // no folder yet: nothing stored
    }
    return { visitors: Number(v!.n), files: Number(f!.n), onDisk };
  };

  it('creates the visitor anonymously (200, spec message), stores the document privately, and gives no code yet', async () => {
    const before = await stored();
    const res = await create(visitorFields(acme.company.slug, { email: 'Awa@Example.com' }));
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.message).toBe('Visiteur créé avec succès.');
    expect(body.data).toMatchObject({
      firstname: 'Awa',
      lastname: 'Koné',
      email: 'awa@example.com',
      address: 'Rue 12',
      city: 'Abidjan',
      // Sent as its French name, stored as its ISO code (issue 18).
      country: 'CI',
      request_date: '24/11/2030',
      request_time: '10:30',
      company: { id: acme.company.id, slug: acme.company.slug },
    });
    expect(body.data).not.toHaveProperty('uidn');
    expect(JSON.stringify(body)).not.toMatch(/request_image|stored|\.png/);

    const [visitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, body.data.visitor_id as string));
    expect(visitor).toMatchObject({
      companyId: acme.company.id,
      idNumber: 'CI-0042',
      organisationName: 'Acme',
      language: 'fr',
      eventId: null,
    });
    expect(visitor!.uidn).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const [file] = await ctx.db.select().from(files).where(eq(files.id, visitor!.requestImageId!));
    expect(file).toMatchObject({
      companyId: acme.company.id,
      ownerType: 'visitor',
      ownerId: visitor!.id,
      mediaType: 'image/png',
      size: png.length,
    });
    expect(await ctx.app.storage.get(file!.storedName)).toEqual(png);
    const after = await stored();
    expect(after).toEqual({
      visitors: before.visitors + 1,
      files: before.files + 1,
      onDisk: before.onDisk + 1,
    });
  });

  it('reads a phone number as people write it, international or not, and stores it in E.164', async () => {
    for (const [typed, stored] of [
      ['+225 07 07 07 07 07', '+2250707070707'],
      ['07.07.07.07.07', '+2250707070707'],
      ['00 33 6 12 34 56 78', '+33612345678'],
      ['+1 (415) 555-2671', '+14155552671'],
    ] as const) {
      const res = await create(visitorFields(acme.company.slug, { contact: typed }));
      expect(res.statusCode, `${typed}: ${res.body}`).toBe(200);
      const [row] = await ctx.db
        .select({ contact: visitors.contact })
        .from(visitors)
        .where(eq(visitors.id, res.json().data.visitor_id as string));
      expect(row!.contact, typed).toBe(stored);
    }
    // Nothing is stored for a refused number: no visitor, no document.
    const before = await stored();
    const refused = await create(visitorFields(acme.company.slug, { contact: '+225 07 07' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual({
      contact:
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
    });
    expect(await stored()).toEqual(before);
  });

  it('accepts the company by id, and a PDF document', async () => {
    const res = await create(visitorFields(acme.company.id), {
      filename: 'passport.pdf',
      contentType: 'application/pdf',
      bytes: pdfBytes,
    });
    expect(res.statusCode).toBe(200);
  });

  it('checks the fields in the spec order with the spec messages (400)', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ firstname: '', lastname: '', email: 'bad' }, 'Le champ "Prénoms" est requis.'],
      [{ lastname: ' ', id_number: '' }, 'Le champ "Nom" est requis.'],
      [{ id_number: '', contact: '' }, 'Le champ "Numéro de pièce d\'identité" est requis.'],
      [{ organisation_name: undefined, email: '' }, 'Le champ "Employeur" est requis.'],
      [{ email: '', contact: '' }, 'Le champ "Email" est requis.'],
      [{ contact: '', request_date: '' }, 'Le champ "Contact" est requis.'],
      [{ email: 'awa@example', contact: '12' }, 'Veuillez entrer une adresse e-mail valide.'],
      [
        { contact: '07 01 02 03' },
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
      ],
      [
        { contact: '1234567890123456' },
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
      ],
      [
        { contact: '07 01 02 03 0A' },
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
      ],
      // The shape of a number, but not a possible one in Côte d'Ivoire (10 digits).
      [
        { contact: '12345678' },
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
      ],
      [{ request_date: '', request_time: 'HH:MM' }, 'Date non sélectionnée'],
      [{ request_date: '2026-11-24' }, 'Date invalide'],
      [{ request_date: '31/02/2026' }, 'Date invalide'],
      [{ request_time: 'HH:MM' }, "Veuillez sélectionner l'heure."],
      [{ request_time: '24:30' }, "Veuillez sélectionner l'heure."],
      [{ request_time: '10:MM' }, 'Veuillez sélectionner les minutes.'],
    ];
    for (const [overrides, message] of cases) {
      const res = await create(visitorFields(acme.company.slug, overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().message, JSON.stringify(overrides)).toBe(message);
    }
    const all = await create(visitorFields(acme.company.slug, { firstname: '', email: 'x' }));
    expect(all.json().errors).toMatchObject({
      firstname: 'Le champ "Prénoms" est requis.',
      email: VISITOR_MESSAGES.emailInvalid,
    });
  });

  it("refuses a visit date past in the company's time zone (400), today allowed", async () => {
    // Kiritimati is UTC+14 and Pago Pago UTC-11: their todays differ from each other's.
    for (const timezone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const company = await buildCompany(ctx.db, { timezone });
      const dayIn = (offsetDays: number) =>
        dayOf(new Date(Date.now() + offsetDays * 86_400_000), timezone)
          .split('-')
          .reverse()
          .join('/');
      const past = await create(visitorFields(company.slug, { request_date: dayIn(-1) }));
      expect(past.statusCode, timezone).toBe(400);
      expect(past.json()).toMatchObject({
        message: VISITOR_MESSAGES.datePast,
        errors: { request_date: VISITOR_MESSAGES.datePast },
      });
      const today = await create(visitorFields(company.slug, { request_date: dayIn(0) }));
      expect(today.statusCode, timezone).toBe(200);
      // Only today's visitor was stored.
      const stored = await ctx.db
        .select({ date: visitors.requestDate })
        .from(visitors)
        .where(eq(visitors.companyId, company.id));
      expect(stored).toEqual([{ date: dayIn(0) }]);
    }
  });

  it('puts the missing document after the required fields and before the e-mail shape', async () => {
    const noFile = await create(visitorFields(acme.company.slug, { email: 'bad' }), null);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().message).toBe('Veuillez sélectionner un fichier valide');
    const missingName = await create(visitorFields(acme.company.slug, { firstname: '' }), null);
    expect(missingName.json().message).toBe('Le champ "Prénoms" est requis.');
  });

  it('answers 404 for an unknown company and 400 without one', async () => {
    expect((await create(visitorFields('no-such-company'))).statusCode).toBe(404);
    const none = await create(visitorFields(acme.company.slug, { company_id: '' }));
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(API_MESSAGES.badRequest);
  });

  it('refuses a body that is not multipart (400)', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      payload: visitorFields(acme.company.slug),
    });
    expect(res.statusCode).toBe(400);
  });

  describe('uploads refused, nothing stored', () => {
    const refusals: [
      string,
      { filename: string; contentType: string; bytes: Buffer },
      number,
      string,
    ][] = [
      [
        'oversize (2 MiB + 1 byte)',
        {
          filename: 'big.png',
          contentType: 'image/png',
          bytes: Buffer.concat([Buffer.alloc(0), Buffer.alloc(ID_FILE_MAX_BYTES + 1, 1)]),
        },
        413,
        'La taille du fichier ne doit pas dépasser 2 Mo.',
      ],
      [
        'far over the stream limit (6 MB)',
        {
          filename: 'huge.jpg',
          contentType: 'image/jpeg',
          bytes: Buffer.alloc(6 * 1024 * 1024, 1),
        },
        413,
        'La taille du fichier ne doit pas dépasser 2 Mo.',
      ],
      [
        'a text file renamed .png',
        {
          filename: 'id.png',
          contentType: 'image/png',
          bytes: Buffer.from('just some text, not an image\n'),
        },
        415,
        API_MESSAGES.fileTypeRefused,
      ],
      [
        'an SVG',
        {
          filename: 'id.svg',
          contentType: 'image/svg+xml',
          bytes: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="10" height="10"/></svg>',
          ),
        },
        415,
        API_MESSAGES.fileTypeRefused,
      ],
      [
        'an empty file',
        { filename: 'empty.png', contentType: 'image/png', bytes: Buffer.alloc(0) },
        400,
        'Veuillez sélectionner un fichier valide',
      ],
    ];

    for (const [name, file, status, message] of refusals) {
      it(`refuses ${name}: ${status}`, async () => {
        const before = await stored();
        const res = await create(visitorFields(acme.company.slug), file);
        expect(res.statusCode).toBe(status);
        expect(res.json().message).toBe(message);
        expect(await stored()).toEqual(before);
      });
    }

    it('accepts exactly 2 MiB of a real image', async () => {
      const padded = Buffer.concat([png, Buffer.alloc(ID_FILE_MAX_BYTES - png.length)]);
      const res = await create(visitorFields(acme.company.slug), {
        filename: 'id.png',
        contentType: 'image/png',
        bytes: padded,
      });
      expect(res.statusCode).toBe(200);
    });
  });
});

describe(`public form rate limit (${testDatabaseKind})`, () => {
  it('answers 429 once a client passes publicFormPerWindow', async () => {
    const app = await startTestApp({
      rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 2 },
    });
    try {
      const body = multipart({ firstname: '' });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await app.app.inject({ method: 'POST', url: '/api/visitor/create', ...body });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([400, 400, 429]);
      const requests = await app.app.inject({
        method: 'POST',
        url: '/api/requests/create',
        payload: { visitor_id: 'x' },
      });
      expect(requests.statusCode).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe(`visitor delete and meeting card (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
  });

  const del = async (id: string, email?: string) =>
    as(
      ctx.app,
      email ? await tokenFor(ctx.app, email) : null,
    )({
      method: 'DELETE',
      url: `/api/visitor/delete/${id}`,
    });

  it('delete: 401 anonymous, 400 bad id, 403 every role but admin, 404 unknown', async () => {
    const visitor = await buildVisitor(ctx.db, { company: acme.company });
    expect((await del(visitor.id)).statusCode).toBe(401);
    const bad = await del('12', acme.staff.ROLE_ADMIN.email);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(API_MESSAGES.badRequest);
    for (const role of [
      'ROLE_USER',
      'ROLE_EMPLOYEE',
      'ROLE_SUPERVISOR',
      'ROLE_SESAME',
      'ROLE_MANAGER',
      'ROLE_SUPER_ADMIN',
    ] as const) {
      const res = await del(visitor.id, acme.staff[role].email);
      expect(res.statusCode, role).toBe(403);
      expect(res.json().message).toBe(API_MESSAGES.forbidden);
    }
    expect(
      (await del('0190f0f0-0000-7000-8000-000000000000', acme.staff.ROLE_ADMIN.email)).statusCode,
    ).toBe(404);
  });

  it("delete: admin removes any company's visitor with their request, document row and bytes", async () => {
    const png = await qrPng('doc');
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(visitorFields(globex.company.slug), {
        request_image: { filename: 'id.png', contentType: 'image/png', bytes: png },
      }),
    });
    const visitorId = res.json().data.visitor_id as string;
    const [visitor] = await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId));
    const [file] = await ctx.db.select().from(files).where(eq(files.id, visitor!.requestImageId!));
    await buildRequest(ctx.db, { company: globex.company, visitor: visitor! });

    const ok = await del(visitorId, acme.staff.ROLE_ADMIN.email);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('Visiteur supprimé.');
    expect(await ctx.db.select().from(visitors).where(eq(visitors.id, visitorId))).toEqual([]);
    expect(
      await ctx.db.select().from(visitRequests).where(eq(visitRequests.visitorId, visitorId)),
    ).toEqual([]);
    expect(await ctx.db.select().from(files).where(eq(files.id, file!.id))).toEqual([]);
    expect(await ctx.app.storage.get(file!.storedName)).toBeNull();
    expect((await del(visitorId, acme.staff.ROLE_ADMIN.email)).statusCode).toBe(404);
  });

  it("the card's address is the place's: the company's for a meeting, the event's for an event", async () => {
    const place = await buildCompany(ctx.db, {
      address: 'Boulevard Latrille',
      city: 'Cocody',
      country: 'CI',
    });
    const home = { address: 'Rue du Domicile 7', city: 'Yopougon', zipcode: '00225' };
    const meeting = await buildVisitor(ctx.db, { company: place, ...home });
    await buildRequest(ctx.db, { company: place, visitor: meeting, status: 1, confirmed: true });
    const event = await buildEvent(ctx.db, {
      company: place,
      addressName: 'Palais de la Culture',
      city: 'Treichville',
      country: 'CI',
    });
    const guest = await buildVisitor(ctx.db, { company: place, eventId: event.id, ...home });
    await buildRequest(ctx.db, { company: place, visitor: guest, status: 1, confirmed: true });
    const card = async (uidn: string) =>
      (await ctx.app.inject({ method: 'GET', url: `/api/visitor/card/${uidn}` })).json().data;

    const meetingCard = await card(meeting.uidn);
    expect(meetingCard).toMatchObject({
      location: place.name,
      address: 'Boulevard Latrille',
      city: 'Cocody',
      zipcode: null,
      country: 'CI',
    });
    expect(JSON.stringify(meetingCard)).not.toMatch(/Domicile|Yopougon/);
    const eventCard = await card(guest.uidn);
    expect(eventCard).toMatchObject({ address: 'Palais de la Culture', city: 'Treichville' });
    expect(JSON.stringify(eventCard)).not.toMatch(/Domicile|Yopougon/);
  });

  it('meeting card: only a confirmed visitor, by code (any case, with or without dashes)', async () => {
    const pending = await buildVisitor(ctx.db, { company: acme.company, firstname: 'Ines' });
    await buildRequest(ctx.db, { company: acme.company, visitor: pending });
    const confirmed = await buildVisitor(ctx.db, { company: acme.company, firstname: 'Yao' });
    await buildRequest(ctx.db, {
      company: acme.company,
      visitor: confirmed,
      status: 1,
      confirmed: true,
    });
    const get = (code: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/visitor/card/${code}` });

    expect((await get(pending.uidn)).statusCode).toBe(404);
    expect((await get('not-a-code')).statusCode).toBe(404);
    expect((await get('AAAA-BBBB-CCCC')).statusCode).toBe(404);

    const res = await get(confirmed.uidn.replace(/-/g, '').toLowerCase());
    expect(res.statusCode).toBe(200);
    const card = res.json().data;
    expect(card).toMatchObject({
      uidn: confirmed.uidn,
      firstname: 'Yao',
      lastname: 'Koné',
      date: confirmed.requestDate,
      time: '10:30',
      title: null,
      location: acme.company.name,
      host: 'M. Diallo',
      company: { slug: acme.company.slug },
    });
    expect(JSON.stringify(card)).not.toMatch(/id_number|request_image|email/);
    const qr = Buffer.from((card.qr_code as string).split(',')[1]!, 'base64');
    expect(await decodeQr(qr)).toBe(`http://sesame.test/scan/${confirmed.uidn}`);
  });
});
