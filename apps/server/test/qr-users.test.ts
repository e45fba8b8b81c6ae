import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@sesame/shared';
import { files, qrUsers, userChecks } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildQrUser, buildTenant } from './helpers/factories';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const DOCX = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  Buffer.from('\0'.repeat(26) + 'word/document.xml'),
]);
const TEXT = Buffer.from('just some text, not a document');
let PNG: Buffer;

const file = (bytes: Buffer, filename = 'doc.bin', contentType = 'application/octet-stream') => ({
  filename,
  contentType,
  bytes,
});

describe(`permanent QR codes and member cards (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let globex: Tenant;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    PNG = await qrPng('photo');
  });

  async function call(
    who: { email: string } | null,
    options: Parameters<ReturnType<typeof as>>[0],
  ) {
    let token: string | null = null;
    if (who) {
      token = tokens.get(who.email) ?? (await tokenFor(ctx.app, who.email));
      tokens.set(who.email, token);
    }
    return as(ctx.app, token)(options);
  }

  const post = (
    who: { email: string } | null,
    url: string,
    fields: Record<string, string | undefined>,
    files: Record<string, ReturnType<typeof file>> = {},
  ) => call(who, { method: 'POST', url, ...multipart(fields, files) });

  const qrFields = (overrides: Record<string, string | undefined> = {}) => ({
    firstname: 'Yao',
    lastname: 'Kouassi',
    email: 'yao.kouassi@example.com',
    contact: '07 01-02 03 04',
    title: 'Technicien',
    type: 'permanent',
    dateExp: '2030-05-01',
    ...overrides,
  });

  const memberFields = (company: { id: string }, overrides: Record<string, string> = {}) => ({
    firstname: 'Awa',
    lastname: 'Traoré',
    email: 'awa.traore@example.com',
    contact: '0102030405',
    title: 'Directrice',
    type: 'permanent',
    company_id: company.id,
    ...overrides,
  });

  describe('POST /api/create-qr', () => {
    it('401 without a token', async () => {
      const res = await post(null, '/api/create-qr', qrFields(), { user_document: file(PDF) });
      expect(res.statusCode).toBe(401);
    });

    it.each<Role>(['ROLE_EMPLOYEE', 'ROLE_USER'])('403 for %s', async (role) => {
      const res = await post(acme.staff[role], '/api/create-qr', qrFields(), {
        user_document: file(PDF),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("Vous n'avez pas la permission.");
    });

    it('400 when the document is missing (the only required field)', async () => {
      const res = await post(acme.staff.ROLE_SUPERVISOR, '/api/create-qr', qrFields());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Le champ "Document" est requis.',
        errors: { user_document: 'Le champ "Document" est requis.' },
      });
    });

    it('400 with the exact message for a malformed e-mail, contact, type or date', async () => {
      const cases: [Record<string, string>, string, string][] = [
        [{ email: 'not-an-email' }, 'email', 'Veuillez entrer une adresse e-mail valide.'],
        [
          { contact: '12-34' },
          'contact',
          "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
        ],
        [{ type: 'temporary' }, 'type', 'Le seul type de QR code est « permanent ».'],
        [{ dateExp: '2030-02-30' }, 'dateExp', 'Date invalide'],
        [{ company_id: 'acme' }, 'company_id', "L'entreprise choisie n'existe pas."],
      ];
      for (const [overrides, field, message] of cases) {
        const res = await post(acme.staff.ROLE_ADMIN, '/api/create-qr', qrFields(overrides), {
          user_document: file(PDF),
        });
        expect(res.statusCode, field).toBe(400);
        expect(res.json().message).toBe(message);
        expect(res.json().errors[field]).toBe(message);
      }
    });

    it('415 for a document that is not pdf, doc, docx or an image (checked by content)', async () => {
      const res = await post(acme.staff.ROLE_MANAGER, '/api/create-qr', qrFields(), {
        user_document: file(TEXT, 'cv.pdf', 'application/pdf'),
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().message).toBe("Ce type de fichier n'est pas accepté.");
    });

    it('404 when a role that chooses the company names one that does not exist', async () => {
      const res = await post(
        acme.staff.ROLE_ADMIN,
        '/api/create-qr',
        qrFields({ company_id: '01890a5d-ac96-774b-bcce-b302099a8057' }),
        { user_document: file(PDF) },
      );
      expect(res.statusCode).toBe(404);
    });

    it('200: stores the QR user with the contact in E.164 (issue 27), the expiry day, and answers the card', async () => {
      const res = await post(acme.staff.ROLE_SUPERVISOR, '/api/create-qr', qrFields(), {
        user_document: file(DOCX, 'contrat.docx'),
      });
      expect(res.statusCode).toBe(200);
      const { message, data } = res.json();
      expect(message).toBe('QR Code créé avec succès.');
      expect(data).toMatchObject({
        kind: 'permanent',
        type: 'permanent',
        firstname: 'Yao',
        lastname: 'Kouassi',
        contact: '+2250701020304',
        email: 'yao.kouassi@example.com',
        title: 'Technicien',
        dateExp: '2030-05-01',
        date_exp: '2030-05-01T23:59:59.999Z',
        expired: false,
        revoked: false,
        company_id: acme.company.id,
        company: { id: acme.company.id, name: acme.company.name, slug: acme.company.slug },
        photo: null,
        user_document_type:
          'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      });
      expect(data.uidn).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
      expect(data.qr_target).toBe(`http://sesame.test/scan-user-qrcode/${data.uidn}`);
      expect(data.qrcode).toMatch(/^data:image\/png;base64,/);
      expect(data.user_document).toMatch(
        /^\/api\/files\/[0-9a-f-]+\?session=[0-9a-f-]+&expires=\d+&signature=/,
      );

      const [row] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, data.id));
      expect(row).toMatchObject({
        companyId: acme.company.id,
        kind: 'permanent',
        uidn: data.uidn,
        contact: '+2250701020304',
        createdBy: acme.staff.ROLE_SUPERVISOR.id,
        revokedAt: null,
      });
      expect(row!.dateExp!.toISOString()).toBe('2030-05-01T23:59:59.999Z');
    });

    it('only the document is required; no dateExp means the code never expires', async () => {
      const res = await post(
        acme.staff.ROLE_MANAGER,
        '/api/create-qr',
        { type: 'permanent' },
        { user_document: file(PNG, 'photo.png', 'image/png') },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        firstname: null,
        dateExp: null,
        date_exp: null,
        expired: false,
      });
      expect(res.json().data.photo).toMatch(/^\/api\/files\//);
    });

    it('a supervisor creates in their own company whatever company_id says (spec §6)', async () => {
      const res = await post(
        acme.staff.ROLE_SUPERVISOR,
        '/api/create-qr',
        qrFields({ company_id: globex.company.id }),
        { user_document: file(PDF) },
      );
      expect(res.json().data.company_id).toBe(acme.company.id);
    });

    it.each<Role>(['ROLE_ADMIN', 'ROLE_SESAME'])('%s picks any company', async (role) => {
      const res = await post(
        acme.staff[role],
        '/api/create-qr',
        qrFields({ company_id: globex.company.id }),
        { user_document: file(PDF) },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.company_id).toBe(globex.company.id);
    });

    it('400 for an expiry day already past: nothing stored; today is accepted', async () => {
      const before = await ctx.db.select({ id: qrUsers.id }).from(qrUsers);
      const filesBefore = await ctx.db.select({ id: files.id }).from(files);
      const res = await post(
        acme.staff.ROLE_ADMIN,
        '/api/create-qr',
        qrFields({ dateExp: '2020-01-31' }),
        { user_document: file(PDF) },
      );
      expect(res.statusCode).toBe(400);
      const message =
        "La date d'expiration est déjà passée : choisissez aujourd'hui ou un jour à venir.";
      expect(res.json()).toEqual({ message, errors: { dateExp: message } });
      expect(await ctx.db.select({ id: qrUsers.id }).from(qrUsers)).toHaveLength(before.length);
      expect(await ctx.db.select({ id: files.id }).from(files)).toHaveLength(filesBefore.length);

      // Today, in the company's zone (UTC for the factory's companies), works until midnight.
      const today = new Date().toISOString().slice(0, 10);
      const ok = await post(acme.staff.ROLE_ADMIN, '/api/create-qr', qrFields({ dateExp: today }), {
        user_document: file(PDF),
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({ dateExp: today, expired: false });
    });

    it("keeps the expiry day in the company's own time zone", async () => {
      const paris = await buildCompany(ctx.db, { timezone: 'Europe/Paris' });
      const res = await post(
        acme.staff.ROLE_ADMIN,
        '/api/create-qr',
        qrFields({ company_id: paris.id, dateExp: '2030-07-14' }),
        { user_document: file(PDF) },
      );
      expect(res.json().data).toMatchObject({
        dateExp: '2030-07-14',
        date_exp: '2030-07-14T21:59:59.999Z',
      });
    });
  });

  describe('POST /api/create-member', () => {
    const photo = () => ({ user_document: file(PNG, 'awa.png', 'image/png') });

    it('401 without a token', async () => {
      const res = await post(null, '/api/create-member', memberFields(acme.company), photo());
      expect(res.statusCode).toBe(401);
    });

    it.each<Role>(['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_USER'])(
      '403 for %s (Carte Membre tile: admin, manager, ROLE_SESAME, and the super admin since issue 27)',
      async (role) => {
        const res = await post(
          acme.staff[role],
          '/api/create-member',
          memberFields(acme.company),
          photo(),
        );
        expect(res.statusCode).toBe(403);
      },
    );

    it('400: every field is required, with the exact message per field', async () => {
      const res = await post(acme.staff.ROLE_MANAGER, '/api/create-member', {}, photo());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'Le champ "Prénom" est requis.',
        errors: {
          firstname: 'Le champ "Prénom" est requis.',
          lastname: 'Le champ "Nom" est requis.',
          contact: 'Le champ "Contact" est requis.',
          email: 'Le champ "Email" est requis.',
          title: 'Le champ "Titre" est requis.',
          company_id: 'Le champ "Entreprise" est requis.',
        },
      });
      const noPhoto = await post(
        acme.staff.ROLE_MANAGER,
        '/api/create-member',
        memberFields(acme.company),
      );
      expect(noPhoto.statusCode).toBe(400);
      expect(noPhoto.json().message).toBe('Le champ "Document" est requis.');
      const badEmail = await post(
        acme.staff.ROLE_MANAGER,
        '/api/create-member',
        memberFields(acme.company, { email: 'awa@' }),
        photo(),
      );
      expect(badEmail.json().message).toBe('Veuillez entrer une adresse e-mail valide.');
    });

    it('415 when the photo is not a JPEG, PNG or WebP image', async () => {
      const res = await post(
        acme.staff.ROLE_MANAGER,
        '/api/create-member',
        memberFields(acme.company),
        {
          user_document: file(PDF, 'photo.png', 'image/png'),
        },
      );
      expect(res.statusCode).toBe(415);
    });

    it('201: answers data.uidn and data.photo, a signed URL that serves the photo', async () => {
      const res = await post(
        acme.staff.ROLE_MANAGER,
        '/api/create-member',
        memberFields(globex.company, { contact: '+225 01 02 03 04 05' }),
        photo(),
      );
      expect(res.statusCode).toBe(201);
      const { message, data } = res.json();
      expect(message).toBe('Carte créée avec succès.');
      // A manager does not choose: the card belongs to their own company.
      expect(data).toMatchObject({
        kind: 'member',
        company_id: acme.company.id,
        contact: '+2250102030405',
        dateExp: null,
        user_document_type: 'image/png',
      });
      expect(data.qr_target).toBe(`http://sesame.test/scan-user-qrcode/${data.uidn}`);
      // With the manager's own bearer token: the URL alone opens nothing (issue 26 §3).
      const image = await call(acme.staff.ROLE_MANAGER, { method: 'GET', url: data.photo });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.headers['x-content-type-options']).toBe('nosniff');
      expect(image.rawPayload.equals(PNG)).toBe(true);
      const tampered = await call(acme.staff.ROLE_MANAGER, {
        method: 'GET',
        url: data.photo.replace(/signature=.*/, 'signature=forged'),
      });
      expect(tampered.statusCode).toBe(404);
    });

    it('ROLE_SESAME creates a card for another company', async () => {
      const res = await post(
        acme.staff.ROLE_SESAME,
        '/api/create-member',
        memberFields(globex.company),
        photo(),
      );
      expect(res.statusCode).toBe(201);
      expect(res.json().data.company_id).toBe(globex.company.id);
    });
  });

  describe('GET and PUT /api/qruser/{id}', () => {
    let acmeQr: Awaited<ReturnType<typeof buildQrUser>>;
    beforeAll(async () => {
      acmeQr = await buildQrUser(ctx.db, { company: acme.company, firstname: 'Koffi' });
    });

    it('GET: 401, 400 for a malformed id, 403 employee, 404 unknown or another tenant, 200', async () => {
      const url = `/api/qruser/${acmeQr.id}`;
      expect((await call(null, { method: 'GET', url })).statusCode).toBe(401);
      const bad = await call(acme.staff.ROLE_SUPERVISOR, { method: 'GET', url: '/api/qruser/42' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('La requête est mal formée.');
      expect((await call(acme.staff.ROLE_EMPLOYEE, { method: 'GET', url })).statusCode).toBe(403);
      expect((await call(acme.staff.ROLE_USER, { method: 'GET', url })).statusCode).toBe(403);
      expect((await call(globex.staff.ROLE_SUPERVISOR, { method: 'GET', url })).statusCode).toBe(
        404,
      );
      const unknown = await call(acme.staff.ROLE_SUPERVISOR, {
        method: 'GET',
        url: '/api/qruser/01890a5d-ac96-774b-bcce-b302099a8057',
      });
      expect(unknown.statusCode).toBe(404);
      const own = await call(acme.staff.ROLE_SUPERVISOR, { method: 'GET', url });
      expect(own.statusCode).toBe(200);
      expect(own.json().data).toMatchObject({
        id: acmeQr.id,
        firstname: 'Koffi',
        uidn: acmeQr.uidn,
      });
      const admin = await call(globex.staff.ROLE_ADMIN, { method: 'GET', url });
      expect(admin.statusCode).toBe(200);
    });

    it('PUT: 401, 400 with the exact message, 403, 404 for another tenant', async () => {
      const url = `/api/qruser/${acmeQr.id}`;
      const put = (who: { email: string } | null, payload: unknown) =>
        call(who, { method: 'PUT', url, payload: payload as object });
      expect((await put(null, { dateExp: '2031-01-01' })).statusCode).toBe(401);
      const empty = await put(acme.staff.ROLE_SUPERVISOR, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('La requête est mal formée.');
      const badDate = await put(acme.staff.ROLE_SUPERVISOR, { dateExp: '31/12/2031' });
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().message).toBe('Date invalide');
      expect((await put(acme.staff.ROLE_EMPLOYEE, { dateExp: '2031-01-01' })).statusCode).toBe(403);
      expect((await put(globex.staff.ROLE_MANAGER, { dateExp: '2031-01-01' })).statusCode).toBe(
        404,
      );
    });

    it('PUT: an expired code is extended from the expiry screen, and can be disabled again', async () => {
      const url = `/api/qruser/${acmeQr.id}`;
      const expire = await call(acme.staff.ROLE_SUPERVISOR, {
        method: 'PUT',
        url,
        payload: { dateExp: '2021-03-01' },
      });
      expect(expire.statusCode).toBe(200);
      expect(expire.json().message).toBe('Utilisateur QR mis à jour avec succès.');
      expect(expire.json().data).toMatchObject({ dateExp: '2021-03-01', expired: true });
      const [stored] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, acmeQr.id));
      expect(stored!.dateExp!.getTime()).toBeLessThan(Date.now());

      const extend = await call(acme.staff.ROLE_SUPER_ADMIN, {
        method: 'PUT',
        url,
        payload: { dateExp: '2032-12-31' },
      });
      expect(extend.statusCode).toBe(200);
      expect(extend.json().data).toMatchObject({ dateExp: '2032-12-31', expired: false });
      const forever = await call(acme.staff.ROLE_MANAGER, {
        method: 'PUT',
        url,
        payload: { dateExp: null, title: 'Chef technicien' },
      });
      expect(forever.json().data).toMatchObject({ dateExp: null, title: 'Chef technicien' });
    });
  });

  describe('GET /api/qruser-list (spec §6: admin all; supervisor and ROLE_SESAME their company)', () => {
    let listTenant: Tenant;
    const acmeIds: string[] = [];
    const globexIds: string[] = [];
    beforeAll(async () => {
      listTenant = await buildTenant(ctx.db);
      for (let i = 0; i < 3; i++) {
        const row = await buildQrUser(ctx.db, {
          company: listTenant.company,
          lastname: `Acme${i}`,
          // Distinct instants: two rows of one millisecond have no "newest".
          createdAt: new Date(Date.now() - (10 - i) * 1000),
        });
        acmeIds.push(row.id);
      }
      globexIds.push((await buildQrUser(ctx.db, { company: globex.company })).id);
      await buildQrUser(ctx.db, { company: listTenant.company, kind: 'member' });
    });

    it('401 anonymous; 403 for the roles without the list', async () => {
      expect((await call(null, { method: 'GET', url: '/api/qruser-list' })).statusCode).toBe(401);
      for (const role of [
        'ROLE_EMPLOYEE',
        'ROLE_MANAGER',
        'ROLE_SUPER_ADMIN',
        'ROLE_USER',
      ] as Role[]) {
        const res = await call(listTenant.staff[role], { method: 'GET', url: '/api/qruser-list' });
        expect(res.statusCode, role).toBe(403);
      }
    });

    it('400 for a page size over 100', async () => {
      const res = await call(listTenant.staff.ROLE_ADMIN, {
        method: 'GET',
        url: '/api/qruser-list?per_page=101',
      });
      expect(res.statusCode).toBe(400);
    });

    it.each<Role>(['ROLE_SUPERVISOR', 'ROLE_SESAME'])(
      '%s sees only the permanent QR users of their company, newest first',
      async (role) => {
        const res = await call(listTenant.staff[role], { method: 'GET', url: '/api/qruser-list' });
        expect(res.statusCode).toBe(200);
        expect(res.json().data.map((q: { id: string }) => q.id)).toEqual([...acmeIds].reverse());
        expect(res.json().meta).toEqual({ page: 1, per_page: 10, total: 3 });
      },
    );

    it('admin sees every company, paged and searchable', async () => {
      const page = await call(listTenant.staff.ROLE_ADMIN, {
        method: 'GET',
        url: '/api/qruser-list?per_page=2&page=2',
      });
      expect(page.json().data).toHaveLength(2);
      expect(page.json().meta.total).toBeGreaterThanOrEqual(4);
      const all = await call(listTenant.staff.ROLE_ADMIN, {
        method: 'GET',
        url: '/api/qruser-list?per_page=100',
      });
      const ids = all.json().data.map((q: { id: string }) => q.id);
      expect(ids).toEqual(expect.arrayContaining([...acmeIds, ...globexIds]));
      expect(all.json().data.every((q: { kind: string }) => q.kind === 'permanent')).toBe(true);
      const search = await call(listTenant.staff.ROLE_ADMIN, {
        method: 'GET',
        url: '/api/qruser-list?q=acme1',
      });
      expect(search.json().data.map((q: { id: string }) => q.id)).toEqual([acmeIds[1]]);
      const [row] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, acmeIds[2]!));
      const byCode = await call(listTenant.staff.ROLE_SUPERVISOR, {
        method: 'GET',
        url: `/api/qruser-list?q=${row!.uidn.replace(/-/g, '').toLowerCase()}`,
      });
      expect(byCode.json().data.map((q: { id: string }) => q.id)).toEqual([acmeIds[2]]);
    });
  });

  describe('member cards: GET/PUT /api/qrusermembre/{id}, GET /api/qrmembre-list', () => {
    let tenant: Tenant;
    let member: Awaited<ReturnType<typeof buildQrUser>>;
    let permanent: Awaited<ReturnType<typeof buildQrUser>>;
    beforeAll(async () => {
      tenant = await buildTenant(ctx.db);
      member = await buildQrUser(ctx.db, { company: tenant.company, kind: 'member' });
      permanent = await buildQrUser(ctx.db, { company: tenant.company });
      await buildQrUser(ctx.db, { company: globex.company, kind: 'member' });
    });

    it('GET: 401, 403 employee, 404 another tenant or a permanent QR, 200', async () => {
      const url = `/api/qrusermembre/${member.id}`;
      expect((await call(null, { method: 'GET', url })).statusCode).toBe(401);
      expect((await call(tenant.staff.ROLE_EMPLOYEE, { method: 'GET', url })).statusCode).toBe(403);
      expect((await call(globex.staff.ROLE_MANAGER, { method: 'GET', url })).statusCode).toBe(404);
      const notMember = await call(tenant.staff.ROLE_MANAGER, {
        method: 'GET',
        url: `/api/qrusermembre/${permanent.id}`,
      });
      expect(notMember.statusCode).toBe(404);
      const ok = await call(tenant.staff.ROLE_MANAGER, { method: 'GET', url });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toMatchObject({ id: member.id, kind: 'member' });
      // ROLE_SESAME reaches members of every company (spec §6: it picks any company).
      expect((await call(globex.staff.ROLE_SESAME, { method: 'GET', url })).statusCode).toBe(200);
    });

    it('PUT: 401, 400, 403, 404, then 200 with what it stored', async () => {
      const url = `/api/qrusermembre/${member.id}`;
      const put = (who: { email: string } | null, payload: object) =>
        call(who, { method: 'PUT', url, payload });
      expect((await put(null, { title: 'Trésorier' })).statusCode).toBe(401);
      const extra = await put(tenant.staff.ROLE_MANAGER, { dateExp: '2030-01-01' });
      expect(extra.statusCode).toBe(400);
      const phone = await put(tenant.staff.ROLE_MANAGER, { contact: '123' });
      expect(phone.json().message).toBe(
        "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
      );
      expect((await put(tenant.staff.ROLE_EMPLOYEE, { title: 'Trésorier' })).statusCode).toBe(403);
      expect((await put(globex.staff.ROLE_MANAGER, { title: 'Trésorier' })).statusCode).toBe(404);
      const ok = await put(tenant.staff.ROLE_MANAGER, { title: 'Trésorier' });
      expect(ok.statusCode).toBe(200);
      const [row] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, member.id));
      expect(row!.title).toBe('Trésorier');
    });

    it('list: 401, 403 employee, own company for a manager, every company for admin', async () => {
      expect((await call(null, { method: 'GET', url: '/api/qrmembre-list' })).statusCode).toBe(401);
      expect(
        (await call(tenant.staff.ROLE_EMPLOYEE, { method: 'GET', url: '/api/qrmembre-list' }))
          .statusCode,
      ).toBe(403);
      const own = await call(tenant.staff.ROLE_MANAGER, {
        method: 'GET',
        url: '/api/qrmembre-list',
      });
      expect(own.json().data.map((m: { id: string }) => m.id)).toEqual([member.id]);
      const all = await call(tenant.staff.ROLE_ADMIN, {
        method: 'GET',
        url: '/api/qrmembre-list?per_page=100',
      });
      const companiesSeen = new Set(
        all.json().data.map((m: { company_id: string }) => m.company_id),
      );
      expect(companiesSeen.size).toBeGreaterThan(1);
      expect(all.json().data.every((m: { kind: string }) => m.kind === 'member')).toBe(true);
    });
  });

  describe('GET /api/company/{slug}/members', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await buildTenant(ctx.db);
      for (const [firstname, lastname] of [
        ['Zoé', 'Bamba'],
        ['Ali', 'Yao'],
        ['Marc', 'Anoh'],
      ] as const) {
        await post(
          tenant.staff.ROLE_MANAGER,
          '/api/create-member',
          memberFields(tenant.company, { firstname, lastname }),
          { user_document: file(PNG, 'p.png', 'image/png') },
        );
      }
      await buildQrUser(ctx.db, { company: tenant.company });
    });

    it('401, 403 employee, 404 unknown company or another tenant', async () => {
      const url = `/api/company/${tenant.company.slug}/members`;
      expect((await call(null, { method: 'GET', url })).statusCode).toBe(401);
      expect((await call(tenant.staff.ROLE_EMPLOYEE, { method: 'GET', url })).statusCode).toBe(403);
      expect(
        (
          await call(tenant.staff.ROLE_MANAGER, {
            method: 'GET',
            url: '/api/company/no-such-company/members',
          })
        ).statusCode,
      ).toBe(404);
      expect((await call(globex.staff.ROLE_SUPERVISOR, { method: 'GET', url })).statusCode).toBe(
        404,
      );
    });

    it('200: members by last name with photo, QR, uidn and company; admin reaches any company', async () => {
      const url = `/api/company/${tenant.company.slug.toUpperCase()}/members`;
      for (const who of [tenant.staff.ROLE_SUPERVISOR, globex.staff.ROLE_ADMIN]) {
        const res = await call(who, { method: 'GET', url });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.company).toMatchObject({ id: tenant.company.id, name: tenant.company.name });
        expect(body.meta.total).toBe(3);
        expect(body.data.map((m: { lastname: string }) => m.lastname)).toEqual([
          'Anoh',
          'Bamba',
          'Yao',
        ]);
        const first = body.data[0];
        expect(first.user_image).toMatch(/^\/api\/files\//);
        expect(first.code).toMatch(/^data:image\/png;base64,/);
        expect(first.uidn).toMatch(/^[0-9A-Z]{4}-/);
        expect(first.company.slug).toBe(tenant.company.slug);
        expect(first).not.toHaveProperty('documentId');
      }
    });

    it('an empty company answers an empty list', async () => {
      const empty = await buildCompany(ctx.db);
      const res = await call(acme.staff.ROLE_ADMIN, {
        method: 'GET',
        url: `/api/company/${empty.slug}/members`,
      });
      expect(res.json()).toMatchObject({ data: [], meta: { total: 0 } });
    });
  });

  describe('POST /api/qruser/{id}/reissue (a lost card)', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await buildTenant(ctx.db);
    });

    it('401, 403 for roles that do not create cards, 404 for another tenant', async () => {
      const card = await buildQrUser(ctx.db, { company: tenant.company, kind: 'member' });
      const url = `/api/qruser/${card.id}/reissue`;
      expect((await call(null, { method: 'POST', url })).statusCode).toBe(401);
      expect((await call(tenant.staff.ROLE_EMPLOYEE, { method: 'POST', url })).statusCode).toBe(
        403,
      );
      // A supervisor creates permanent QR codes, not member cards.
      expect((await call(tenant.staff.ROLE_SUPERVISOR, { method: 'POST', url })).statusCode).toBe(
        403,
      );
      expect((await call(globex.staff.ROLE_MANAGER, { method: 'POST', url })).statusCode).toBe(404);
    });

    it('201: a new uidn for the same person; the old row is revoked and points at the new one', async () => {
      const old = await buildQrUser(ctx.db, {
        company: tenant.company,
        dateExp: new Date('2031-06-30T23:59:59.999Z'),
      });
      await ctx.db.insert(userChecks).values({
        companyId: tenant.company.id,
        siteId: tenant.company.siteId,
        qrUserId: old.id,
        checkInMethod: 'scan',
      });
      const res = await call(tenant.staff.ROLE_SUPERVISOR, {
        method: 'POST',
        url: `/api/qruser/${old.id}/reissue`,
      });
      expect(res.statusCode).toBe(201);
      const fresh = res.json().data;
      expect(fresh.uidn).not.toBe(old.uidn);
      expect(fresh).toMatchObject({
        firstname: old.firstname,
        lastname: old.lastname,
        email: old.email,
        date_exp: '2031-06-30T23:59:59.999Z',
        revoked: false,
      });
      expect(fresh.qr_target).toBe(`http://sesame.test/scan-user-qrcode/${fresh.uidn}`);

      const [oldRow] = await ctx.db.select().from(qrUsers).where(eq(qrUsers.id, old.id));
      expect(oldRow!.revokedAt).toBeInstanceOf(Date);
      expect(oldRow!.replacedBy).toBe(fresh.id);
      // The person inside stays inside: the open check follows the new card.
      const open = await ctx.db.select().from(userChecks).where(eq(userChecks.qrUserId, fresh.id));
      expect(open).toHaveLength(1);

      const read = await call(tenant.staff.ROLE_SUPERVISOR, {
        method: 'GET',
        url: `/api/qruser/${old.id}`,
      });
      expect(read.json().data).toMatchObject({ revoked: true, replaced_by: fresh.id });
      const list = await call(tenant.staff.ROLE_SUPERVISOR, {
        method: 'GET',
        url: '/api/qruser-list',
      });
      const ids = list.json().data.map((q: { id: string }) => q.id);
      expect(ids).toContain(fresh.id);
      expect(ids).not.toContain(old.id);

      const again = await call(tenant.staff.ROLE_SUPERVISOR, {
        method: 'POST',
        url: `/api/qruser/${old.id}/reissue`,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('Cette carte a déjà été remplacée par une nouvelle.');
    });

    it('two re-issues racing on one card produce one new card', async () => {
      const card = await buildQrUser(ctx.db, { company: tenant.company, kind: 'member' });
      const reissue = () =>
        call(tenant.staff.ROLE_MANAGER, { method: 'POST', url: `/api/qruser/${card.id}/reissue` });
      const answers = await Promise.all([reissue(), reissue(), reissue()]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      const rows = await ctx.db
        .select()
        .from(qrUsers)
        .where(eq(qrUsers.companyId, tenant.company.id));
      const replacements = rows.filter(
        (r) => r.kind === 'member' && r.id !== card.id && !r.revokedAt,
      );
      expect(replacements.filter((r) => r.email === card.email)).toHaveLength(1);
    });
  });
});
