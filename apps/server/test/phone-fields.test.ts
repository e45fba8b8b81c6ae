/**
 * Issue 27: one phone rule. A staff member's number ('+225 07 07 07 07 07', refused until
 * then as not '8 à 15 chiffres') is read and stored as a visitor's: by libphonenumber, in
 * E.164, a number without a country code read in Côte d'Ivoire. So are a card holder's and
 * a company's, on creation and on every edit; a number the library says is none is a 400
 * under its field, with the one message, in the caller's language, and nothing changes.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENGLISH_MESSAGES, FRENCH_MESSAGES } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { companies, qrUsers, users, visitors } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildQrUser, buildTenant } from './helpers/factories';

const TYPED = '+225 07 07 07 07 07';
const STORED = '+2250707070707';
/** Shaped like a number (the form lets it through), but none in Côte d'Ivoire's ten digits. */
const NOT_A_NUMBER = '12345678';
const PHONE_INVALID: string = FRENCH_MESSAGES.validation.phoneInvalid;

describe(`every phone field follows the visitor's rule (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let admin: ReturnType<typeof as>;
  let png: Buffer;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    admin = as(ctx.app, await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email));
    png = await qrPng('a document');
  });

  const image = (filename: string) => ({ filename, contentType: 'image/png', bytes: png });

  const userForm = (contact: string) => ({
    name: 'Koné',
    firstname: 'Awa',
    email: `awa.kone-${Math.random().toString(36).slice(2)}@example.com`,
    password: 'Un-mot-de-passe-solide-42',
    title: 'Accueil',
    contact,
    role: 'ROLE_EMPLOYEE',
    status: true,
    company_id: acme.company.id,
  });

  const companyForm = (phone: string) => ({
    name: `Phare ${Math.random().toString(36).slice(2)}`,
    id_number: 'RC-0027',
    address: 'Rue 27',
    city: 'Abidjan',
    state: 'Lagunes',
    country: 'CI',
    zipcode: '00225',
    company_field: 'Services',
    point_contact: 'Awa Koné',
    title: 'Directrice',
    email: 'contact@example.com',
    phone_number: phone,
  });

  /** A 400 naming the phone field with the one message, in French unless asked otherwise. */
  const refusedUnder = (
    res: { statusCode: number; json: () => { message: string; errors: object } },
    field: string,
    message = PHONE_INVALID,
  ) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(res.json().errors).toEqual({ [field]: message });
  };

  it('creates a staff user with +225 07 07 07 07 07, stored as a visitor with the same number is', async () => {
    const created = await admin({
      method: 'POST',
      url: '/api/user/create',
      payload: userForm(TYPED),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.contact).toBe(STORED);
    const [user] = await ctx.db.select().from(users).where(eq(users.id, created.json().data.id));
    expect(user!.contact).toBe(STORED);

    // The visitor form, the same number typed the same way.
    const visitor = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          company_id: acme.company.slug,
          firstname: 'Awa',
          lastname: 'Koné',
          id_number: 'CI-0027',
          organisation_name: 'Acme',
          email: 'awa@example.com',
          contact: TYPED,
          host: 'M. Diallo',
          reason: 'Réunion',
          request_date: '24/11/2030',
          request_time: '10:30',
          privacy_accepted: '1',
          language: 'fr',
        },
        { request_image: image('id.png') },
      ),
    });
    expect(visitor.statusCode, visitor.body).toBe(200);
    const [row] = await ctx.db
      .select({ contact: visitors.contact })
      .from(visitors)
      .where(eq(visitors.id, visitor.json().data.visitor_id as string));
    expect(row!.contact).toBe(user!.contact);
  });

  it('reads the other ways a front desk writes it, in Côte d’Ivoire without a country code', async () => {
    for (const typed of ['+2250707070707', '07 07 07 07 07', '07.07.07.07.07']) {
      const res = await admin({
        method: 'POST',
        url: '/api/user/create',
        payload: userForm(typed),
      });
      expect(res.statusCode, typed).toBe(201);
      expect(res.json().data.contact, typed).toBe(STORED);
    }
    const abroad = await admin({
      method: 'POST',
      url: '/api/user/create',
      payload: userForm('00 33 6 12 34 56 78'),
    });
    expect(abroad.json().data.contact).toBe('+33612345678');
  });

  it('refuses a user whose number is none, creating nobody, with the message in the caller’s language', async () => {
    const form = userForm(NOT_A_NUMBER);
    refusedUnder(
      await admin({ method: 'POST', url: '/api/user/create', payload: form }),
      'contact',
    );
    expect(await ctx.db.select().from(users).where(eq(users.email, form.email))).toEqual([]);
    const english = await admin({
      method: 'POST',
      url: '/api/user/create',
      payload: userForm('appelez-moi'),
      headers: { 'accept-language': 'en' },
    });
    refusedUnder(english, 'contact', ENGLISH_MESSAGES.validation.phoneInvalid);
  });

  it('reads the number again on a user edit, and refuses one that is none without saving', async () => {
    const created = await admin({
      method: 'POST',
      url: '/api/user/create',
      payload: userForm('0102030405'),
    });
    const { id, email } = created.json().data as { id: string; email: string };
    const { password: _unchanged, ...edit } = userForm(TYPED);
    const saved = await admin({
      method: 'PUT',
      url: `/api/user/${id}`,
      payload: { ...edit, email },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.contact).toBe(STORED);
    refusedUnder(
      await admin({
        method: 'PUT',
        url: `/api/user/${id}`,
        payload: { ...edit, email, contact: NOT_A_NUMBER },
      }),
      'contact',
    );
    const [user] = await ctx.db.select().from(users).where(eq(users.id, id));
    expect(user!.contact).toBe(STORED);
  });

  it('stores a QR code’s and a member card’s number in E.164, and their edits too', async () => {
    const qr = await admin({
      method: 'POST',
      url: '/api/create-qr',
      ...multipart(
        { firstname: 'Yao', contact: TYPED, type: 'permanent' },
        { user_document: image('document.png') },
      ),
    });
    expect(qr.statusCode, qr.body).toBe(200);
    expect(qr.json().data.contact).toBe(STORED);

    const member = await admin({
      method: 'POST',
      url: '/api/create-member',
      ...multipart(
        {
          firstname: 'Aya',
          lastname: 'Yao',
          contact: '07 07 07 07 07',
          email: 'aya.yao@example.com',
          title: 'Membre',
          company_id: acme.company.id,
        },
        { user_document: image('photo.png') },
      ),
    });
    expect(member.statusCode, member.body).toBe(201);
    expect(member.json().data.contact).toBe(STORED);

    const card = await buildQrUser(ctx.db, { company: acme.company, contact: '0102030405' });
    const edited = await admin({
      method: 'PUT',
      url: `/api/qruser/${card.id}`,
      payload: { contact: '07.07.07.07.07' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const badge = await buildQrUser(ctx.db, { company: acme.company, kind: 'member' });
    const memberEdit = await admin({
      method: 'PUT',
      url: `/api/qrusermembre/${badge.id}`,
      payload: { contact: TYPED },
    });
    expect(memberEdit.statusCode, memberEdit.body).toBe(200);
    const stored = await ctx.db.select({ id: qrUsers.id, contact: qrUsers.contact }).from(qrUsers);
    for (const id of [qr.json().data.id, member.json().data.id, card.id, badge.id]) {
      expect(stored.find((row) => row.id === id)?.contact, id).toBe(STORED);
    }
  });

  it('refuses a card holder’s number that is none, on creation and on an edit', async () => {
    refusedUnder(
      await admin({
        method: 'POST',
        url: '/api/create-qr',
        ...multipart(
          { contact: NOT_A_NUMBER, type: 'permanent' },
          { user_document: image('document.png') },
        ),
      }),
      'contact',
    );
    const card = await buildQrUser(ctx.db, { company: acme.company, contact: STORED });
    refusedUnder(
      await admin({
        method: 'PUT',
        url: `/api/qruser/${card.id}`,
        payload: { contact: NOT_A_NUMBER },
      }),
      'contact',
    );
    const [row] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, card.id));
    expect(row!.contact).toBe(STORED);
  });

  it('stores a company’s number in E.164 on creation and on its edit, and refuses one that is none', async () => {
    const created = await admin({
      method: 'POST',
      url: '/api/company',
      ...multipart(companyForm('+225 27 20 20 12 34'), { logo: image('logo.png') }),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data.phone_number).toBe('+2252720201234');

    const id = created.json().data.id as string;
    const { name: _readOnly, ...edit } = companyForm(TYPED);
    const saved = await admin({ method: 'POST', url: `/api/company/${id}`, ...multipart(edit) });
    expect(saved.statusCode, saved.body).toBe(200);
    refusedUnder(
      await admin({
        method: 'POST',
        url: `/api/company/${id}`,
        ...multipart({ ...edit, phone_number: NOT_A_NUMBER }),
      }),
      'phone_number',
    );
    const [row] = await ctx.db.select().from(companies).where(eq(companies.id, id));
    expect(row!.phoneNumber).toBe(STORED);
  });
});
