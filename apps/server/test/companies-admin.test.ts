import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_MESSAGES, LOGO_MAX_BYTES, type Role } from '@sesame/shared';
import { sites, companies, files } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;
type Upload = { filename: string; contentType: string; bytes: Buffer };

let png: Buffer;
const jpeg = () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 1)]);
const pngFile = (): Upload => ({ filename: 'logo.png', contentType: 'image/png', bytes: png });

function companyFields(overrides: Record<string, string | undefined> = {}) {
  return {
    name: 'Société Générale CI',
    id_number: 'CI-ABJ-2026-B-1234',
    address: 'Avenue Joseph Anoma',
    city: 'Abidjan',
    state: 'Lagunes',
    country: 'Côte d’ivoire',
    zipcode: '01 BP 1355',
    company_field: 'Banque',
    point_contact: 'Mme Touré',
    title: 'Directrice administrative',
    email: 'contact@sgci.example',
    phone_number: '27 20 20 12 34',
    number_of_employee: '101-1000',
    description: 'Banque de détail',
    ...overrides,
  };
}

describe(`companies, write side (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Tenant;
  let globex: Tenant;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    png = await qrPng('logo');
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    for (const role of Object.keys(acme.staff) as Role[]) {
      tokens[role] = await tokenFor(ctx.app, acme.staff[role].email);
    }
  });

  const send = (
    token: string | null,
    method: 'POST' | 'PUT',
    url: string,
    fields: Record<string, string | undefined>,
    upload: Record<string, Upload> = {},
  ) => as(ctx.app, token)({ method, url, ...multipart(fields, upload) });

  const create = (
    token: string | null,
    fields = companyFields(),
    logo: Upload | null = pngFile(),
  ) => send(token, 'POST', '/api/company', fields, logo ? { logo } : {});

  describe('POST /api/company', () => {
    it('answers 401 without a token', async () => {
      const res = await create(null);
      expect(res.statusCode).toBe(401);
    });

    it.each([
      ['name', 'Le champ "Nom" est requis.'],
      ['id_number', 'Le champ "Numéro d\'identification" est requis.'],
      ['address', 'Le champ "Adresse" est requis.'],
      ['city', 'Le champ "Ville" est requis.'],
      ['state', 'Le champ "Région / État" est requis.'],
      ['country', 'Le champ "Pays" est requis.'],
      ['zipcode', 'Le champ "Code postal" est requis.'],
      ['company_field', 'Le champ "Secteur d\'activité" est requis.'],
      ['point_contact', 'Le champ "Point de contact" est requis.'],
      ['title', 'Le champ "Titre" est requis.'],
      ['email', 'Le champ "Email" est requis.'],
      ['phone_number', 'Le champ "Téléphone" est requis.'],
    ])('answers 400 when %s is missing, with the message of spec §5', async (field, message) => {
      const res = await create(tokens.ROLE_ADMIN, companyFields({ [field]: '' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect(res.json().errors[field]).toBe(message);
    });

    it('answers 400 for a missing logo, a bad e-mail, phone or employee range', async () => {
      const noLogo = await create(tokens.ROLE_ADMIN, companyFields(), null);
      expect(noLogo.statusCode).toBe(400);
      expect(noLogo.json().message).toBe('Le champ "Logo" est requis.');
      const empty = await create(tokens.ROLE_ADMIN, companyFields(), {
        filename: 'logo.png',
        contentType: 'image/png',
        bytes: Buffer.alloc(0),
      });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBe('Veuillez sélectionner un fichier valide');
      for (const [fields, message] of [
        [{ email: 'contact' }, 'Veuillez entrer une adresse e-mail valide.'],
        [
          { phone_number: '12-34' },
          "Veuillez entrer un numéro de téléphone valide, par exemple 07 07 07 07 07 ou, à l'étranger, +33 6 12 34 56 78.",
        ],
        [{ number_of_employee: '7' }, "Veuillez choisir une tranche du nombre d'employés."],
      ] as const) {
        const res = await create(tokens.ROLE_ADMIN, companyFields(fields));
        expect(res.statusCode).toBe(400);
        expect(res.json().message).toBe(message);
      }
    });

    it('checks the logo by its content: text named .png and SVG answer 415, over 2 MiB 413', async () => {
      const fake = await create(tokens.ROLE_ADMIN, companyFields(), {
        filename: 'logo.png',
        contentType: 'image/png',
        bytes: Buffer.from('this is plain text, not an image'),
      });
      expect(fake.statusCode).toBe(415);
      expect(fake.json().message).toBe("Ce type de fichier n'est pas accepté.");
      const svg = await create(tokens.ROLE_ADMIN, companyFields(), {
        filename: 'logo.svg',
        contentType: 'image/svg+xml',
        bytes: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
      });
      expect(svg.statusCode).toBe(415);
      const big = await create(tokens.ROLE_ADMIN, companyFields(), {
        filename: 'logo.png',
        contentType: 'image/png',
        bytes: Buffer.concat([png, Buffer.alloc(LOGO_MAX_BYTES)]),
      });
      expect(big.statusCode).toBe(413);
      expect(big.json().message).toBe('La taille du fichier ne doit pas dépasser 2 Mo.');
    });

    it('answers 403 to roles without the + Entreprise tile', async () => {
      // The super admin has '+ Entreprise' since issue 27 (the manager's tiles and more).
      for (const role of ['ROLE_EMPLOYEE', 'ROLE_SUPERVISOR', 'ROLE_USER'] as const) {
        const res = await create(tokens[role]);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe("Vous n'avez pas la permission.");
      }
    });

    it('creates the company (201) with its public logo, a slug from the name and its link QR', async () => {
      const res = await create(tokens.ROLE_ADMIN, companyFields({ name: 'Café Ébène & Fils' }));
      expect(res.statusCode).toBe(201);
      const { message, data } = res.json();
      expect(message).toBe('Entreprise créée avec succès.');
      expect(data).toMatchObject({
        name: 'Café Ébène & Fils',
        slug: 'cafe-ebene-fils',
        id_number: 'CI-ABJ-2026-B-1234',
        // Read as every phone number is, into E.164 (issue 27).
        phone_number: '+2252720201234',
        number_of_employee: '101-1000',
        // Sent as the spec's name, stored and answered as its ISO code (issue 18).
        country: 'CI',
        member_count: 0,
        link: 'http://sesame.test/cafe-ebene-fils/request-meeting',
        qrcode_url: '/api/public/qrcode-link/qrcode-cafe-ebene-fils.png',
      });
      expect(data.logo_url).toMatch(/^\/api\/public\/logo\/[a-f0-9]{32}\.png$/);
      const logo = await ctx.app.inject({ method: 'GET', url: data.logo_url });
      expect(logo.statusCode).toBe(200);
      expect(logo.headers['content-type']).toBe('image/png');
      expect(logo.rawPayload.equals(png)).toBe(true);
      const [file] = await ctx.db.select().from(files).where(eq(files.companyId, data.id));
      expect(file).toMatchObject({
        ownerType: 'company_logo',
        ownerId: data.id,
        mediaType: 'image/png',
      });
      const qr = await ctx.app.inject({ method: 'GET', url: data.qrcode_url });
      expect(qr.statusCode).toBe(200);
      expect(qr.headers['content-type']).toBe('image/png');
    });

    it('keeps slugs unique (-2, -3…) and away from route names', async () => {
      const slugs: string[] = [];
      for (const name of [
        'Globe Trotter',
        'Globe  trotter!',
        'GLOBE TROTTER',
        'Scan',
        'API',
        'Success Story',
        '***',
      ]) {
        const res = await create(tokens.ROLE_ADMIN, companyFields({ name }), {
          filename: 'logo.jpg',
          contentType: 'image/jpeg',
          bytes: jpeg(),
        });
        expect(res.statusCode).toBe(201);
        slugs.push(res.json().data.slug);
      }
      expect(slugs).toEqual([
        'globe-trotter',
        'globe-trotter-2',
        'globe-trotter-3',
        'scan-2',
        'api-2',
        'entreprise-success-story',
        'entreprise',
      ]);
    });

    it('gives companies of one name created at the same moment distinct slugs', async () => {
      const results = await Promise.all(
        [1, 2, 3].map(() => create(tokens.ROLE_ADMIN, companyFields({ name: 'Course Folle' }))),
      );
      expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]);
      const slugs = results.map((r) => r.json().data.slug).sort();
      expect(slugs).toEqual(['course-folle', 'course-folle-2', 'course-folle-3']);
    });

    it('lets a manager and ROLE_SESAME create companies too', async () => {
      for (const role of ['ROLE_MANAGER', 'ROLE_SESAME'] as const) {
        const res = await create(tokens[role], companyFields({ name: `Filiale ${role}` }));
        expect(res.statusCode).toBe(201);
      }
    });
  });

  describe('POST /api/company/{id} (the edit screen)', () => {
    const editFields = (overrides: Record<string, string | undefined> = {}) => {
      const { name: _name, ...rest } = companyFields(overrides);
      return rest;
    };

    it('answers 401, 400, 403, 404 in the ladder', async () => {
      const url = `/api/company/${acme.company.id}`;
      expect((await send(null, 'POST', url, editFields())).statusCode).toBe(401);
      const bad = await send(tokens.ROLE_MANAGER, 'POST', url, editFields({ city: '' }));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Le champ "Ville" est requis.');
      for (const role of ['ROLE_EMPLOYEE', 'ROLE_USER'] as const) {
        expect((await send(tokens[role], 'POST', url, editFields())).statusCode).toBe(403);
      }
      for (const role of ['ROLE_MANAGER', 'ROLE_SUPERVISOR'] as const) {
        const res = await send(
          tokens[role],
          'POST',
          `/api/company/${globex.company.id}`,
          editFields(),
        );
        expect(res.statusCode).toBe(404);
      }
      const missing = await send(
        tokens.ROLE_ADMIN,
        'POST',
        '/api/company/018f0000-0000-7000-8000-000000000000',
        editFields(),
      );
      expect(missing.statusCode).toBe(404);
    });

    it("updates the manager's own company, never its name nor its slug; the logo is optional", async () => {
      const company = await buildCompany(ctx.db, { name: 'Orange Bleu', slug: 'orange-bleu' });
      const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
      const token = await tokenFor(ctx.app, manager.email);
      const res = await send(token, 'POST', `/api/company/${company.id}`, {
        ...editFields({ city: 'Yamoussoukro' }),
        name: 'Nouveau nom',
        slug: 'nouveau-slug',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Entreprise mise à jour avec succès.');
      expect(res.json().data).toMatchObject({
        name: 'Orange Bleu',
        slug: 'orange-bleu',
        city: 'Yamoussoukro',
        logo_url: null,
      });
    });

    it('replaces the logo: the new one is served, the old one is gone', async () => {
      const created = (await create(tokens.ROLE_ADMIN, companyFields({ name: 'Logo Swap' }))).json()
        .data;
      const res = await send(
        tokens.ROLE_ADMIN,
        'POST',
        `/api/company/${created.id}`,
        editFields(),
        { logo: { filename: 'new.jpg', contentType: 'image/jpeg', bytes: jpeg() } },
      );
      expect(res.statusCode).toBe(200);
      const logoUrl: string = res.json().data.logo_url;
      expect(logoUrl).toMatch(/\.jpg$/);
      expect((await ctx.app.inject({ method: 'GET', url: logoUrl })).statusCode).toBe(200);
      expect((await ctx.app.inject({ method: 'GET', url: created.logo_url })).statusCode).toBe(404);
      const rows = await ctx.db.select().from(files).where(eq(files.companyId, created.id));
      expect(rows).toHaveLength(1);
      const svg = await send(
        tokens.ROLE_ADMIN,
        'POST',
        `/api/company/${created.id}`,
        editFields(),
        {
          logo: { filename: 'x.svg', contentType: 'image/svg+xml', bytes: Buffer.from('<svg/>') },
        },
      );
      expect(svg.statusCode).toBe(415);
    });

    it('sets the early-arrival minutes (default 0, whole minutes up to 720), and keeps them when absent', async () => {
      const created = await create(tokens.ROLE_ADMIN, companyFields({ name: 'Arrivées' }));
      expect(created.statusCode).toBe(201);
      const id: string = created.json().data.id;
      expect(created.json().data.arrival_early_minutes).toBe(0);
      const early = await create(
        tokens.ROLE_ADMIN,
        companyFields({ name: 'Arrivées tôt', arrival_early_minutes: '45' }),
      );
      expect(early.json().data.arrival_early_minutes).toBe(45);

      const edit = (value: string | undefined) =>
        send(tokens.ROLE_ADMIN, 'POST', `/api/company/${id}`, {
          ...editFields(),
          arrival_early_minutes: value,
        });
      for (const bad of ['721', '-5', '1.5', 'abc', '99999999999999999999']) {
        const res = await edit(bad);
        expect(res.statusCode, bad).toBe(400);
        expect(res.json(), bad).toMatchObject({
          message: COMPANY_MESSAGES.arrivalEarlyInvalid,
          errors: { arrival_early_minutes: COMPANY_MESSAGES.arrivalEarlyInvalid },
        });
      }
      expect((await edit('720')).json().data.arrival_early_minutes).toBe(720);
      expect((await edit(undefined)).json().data.arrival_early_minutes).toBe(720);
      // Issue 28: the setting is the company's main site's.
      const [row] = await ctx.db.select().from(sites).where(eq(sites.companyId, id));
      expect(row!.arrivalEarlyMinutes).toBe(720);
    });

    it("sets the 'fin de journée' (default 23:59, HH:MM), and keeps it when absent", async () => {
      const created = await create(tokens.ROLE_ADMIN, companyFields({ name: 'Fin de journée' }));
      expect(created.statusCode).toBe(201);
      const id: string = created.json().data.id;
      expect(created.json().data.day_end).toBe('23:59');
      const edit = (value: string | undefined) =>
        send(tokens.ROLE_ADMIN, 'POST', `/api/company/${id}`, { ...editFields(), day_end: value });
      for (const bad of ['24:00', '7:30', '18:60', '18h00', '18:00:00', 'x'.repeat(5000)]) {
        const res = await edit(bad);
        expect(res.statusCode, bad).toBe(400);
        expect(res.json(), bad).toMatchObject({
          message: COMPANY_MESSAGES.dayEndInvalid,
          errors: { day_end: COMPANY_MESSAGES.dayEndInvalid },
        });
      }
      expect((await edit('18:30')).json().data.day_end).toBe('18:30');
      expect((await edit(undefined)).json().data.day_end).toBe('18:30');
      // Issue 28: the setting is the company's main site's.
      const [row] = await ctx.db.select().from(sites).where(eq(sites.companyId, id));
      expect(row!.dayEnd).toBe('18:30');
    });

    it('turns the kiosk e-mail presence on and off (off by default), and keeps it when absent', async () => {
      const created = await create(tokens.ROLE_ADMIN, companyFields({ name: 'Kiosque' }));
      expect(created.statusCode).toBe(201);
      const id: string = created.json().data.id;
      expect(created.json().data.kiosk_email_enabled).toBe(false);
      const on = await create(
        tokens.ROLE_ADMIN,
        companyFields({ name: 'Kiosque ouvert', kiosk_email_enabled: 'true' }),
      );
      expect(on.json().data.kiosk_email_enabled).toBe(true);

      const edit = (value: string | undefined) =>
        send(tokens.ROLE_ADMIN, 'POST', `/api/company/${id}`, {
          ...editFields(),
          kiosk_email_enabled: value,
        });
      for (const bad of ['yes', '1', 'TRUE', 'x'.repeat(10_000)]) {
        const res = await edit(bad);
        expect(res.statusCode, bad.slice(0, 10)).toBe(400);
        expect(res.json()).toMatchObject({
          message: COMPANY_MESSAGES.kioskEmailInvalid,
          errors: { kiosk_email_enabled: COMPANY_MESSAGES.kioskEmailInvalid },
        });
      }
      expect((await edit('true')).json().data.kiosk_email_enabled).toBe(true);
      expect((await edit(undefined)).json().data.kiosk_email_enabled).toBe(true);
      const [row] = await ctx.db.select().from(companies).where(eq(companies.id, id));
      expect(row!.kioskEmailEnabled).toBe(true);
      expect((await edit('false')).json().data.kiosk_email_enabled).toBe(false);
      const read = await as(
        ctx.app,
        tokens.ROLE_ADMIN,
      )({ method: 'GET', url: `/api/company/${id}` });
      expect(read.json().data.kiosk_email_enabled).toBe(false);
    });

    it('lets a supervisor edit their own company (the navbar link)', async () => {
      const res = await send(
        tokens.ROLE_SUPERVISOR,
        'POST',
        `/api/company/${acme.company.id}`,
        editFields({ description: 'Vue du superviseur' }),
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data.description).toBe('Vue du superviseur');
    });
  });

  describe('PUT /api/company/{id} (the inline form of the company list)', () => {
    it('answers 401, 400, 403, 404 in the ladder', async () => {
      const url = `/api/company/${acme.company.id}`;
      const fields = { name: 'Acme', description: 'Desc' };
      expect((await send(null, 'PUT', url, fields)).statusCode).toBe(401);
      const noDescription = await send(tokens.ROLE_ADMIN, 'PUT', url, { name: 'Acme' });
      expect(noDescription.statusCode).toBe(400);
      expect(noDescription.json().message).toBe('Le champ "Description" est requis.');
      const noName = await send(tokens.ROLE_ADMIN, 'PUT', url, { description: 'x' });
      expect(noName.json().message).toBe('Le champ "Nom" est requis.');
      expect((await send(tokens.ROLE_EMPLOYEE, 'PUT', url, fields)).statusCode).toBe(403);
      const other = await send(
        tokens.ROLE_MANAGER,
        'PUT',
        `/api/company/${globex.company.id}`,
        fields,
      );
      expect(other.statusCode).toBe(404);
    });

    it('renames a company and keeps its slug; a different slug is refused', async () => {
      const created = (
        await create(tokens.ROLE_ADMIN, companyFields({ name: 'Ancien Nom' }))
      ).json().data;
      const url = `/api/company/${created.id}`;
      const moved = await send(tokens.ROLE_SESAME, 'PUT', url, {
        name: 'Nouveau Nom',
        description: 'x',
        slug: 'nouveau-nom',
      });
      expect(moved.statusCode).toBe(400);
      expect(moved.json().message).toBe(
        "Le slug d'une entreprise ne change pas : ses liens et ses QR codes imprimés en dépendent.",
      );
      const res = await send(
        tokens.ROLE_SESAME,
        'PUT',
        url,
        { name: 'Nouveau Nom', description: 'Nouvelle description', slug: created.slug },
        { logo: { filename: 'l.jpg', contentType: 'image/jpeg', bytes: jpeg() } },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        name: 'Nouveau Nom',
        description: 'Nouvelle description',
        slug: 'ancien-nom',
        link: 'http://sesame.test/ancien-nom/request-meeting',
      });
      expect(res.json().data.logo_url).toMatch(/\.jpg$/);
      const [row] = await ctx.db.select().from(companies).where(eq(companies.id, created.id));
      expect(row!.slug).toBe('ancien-nom');
    });
  });

  describe('DELETE /api/company/delete/{id}', () => {
    it('answers 401, 400, 403 to everyone but the admin, 404 for an unknown company', async () => {
      const company = await buildCompany(ctx.db);
      const url = `/api/company/delete/${company.id}`;
      expect((await as(ctx.app, null)({ method: 'DELETE', url })).statusCode).toBe(401);
      const bad = await as(
        ctx.app,
        tokens.ROLE_ADMIN,
      )({ method: 'DELETE', url: '/api/company/delete/acme' });
      expect(bad.statusCode).toBe(400);
      for (const role of [
        'ROLE_MANAGER',
        'ROLE_SESAME',
        'ROLE_SUPER_ADMIN',
        'ROLE_SUPERVISOR',
      ] as const) {
        const res = await as(ctx.app, tokens[role])({ method: 'DELETE', url });
        expect(res.statusCode).toBe(403);
      }
      const missing = await as(
        ctx.app,
        tokens.ROLE_ADMIN,
      )({
        method: 'DELETE',
        url: '/api/company/delete/018f0000-0000-7000-8000-000000000000',
      });
      expect(missing.statusCode).toBe(404);
    });

    it('refuses, saying what is left, while the company holds users, visitors, events or QR codes', async () => {
      const company = await buildCompany(ctx.db, { name: 'Pleine' });
      await buildUser(ctx.db, { company });
      await buildUser(ctx.db, { company });
      await buildVisitor(ctx.db, { company });
      await buildEvent(ctx.db, { company });
      await buildQrUser(ctx.db, { company, kind: 'member' });
      const res = await as(
        ctx.app,
        tokens.ROLE_ADMIN,
      )({ method: 'DELETE', url: `/api/company/delete/${company.id}` });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        "Impossible de supprimer l'entreprise « Pleine » : elle contient encore 2 utilisateurs, 1 visiteur, 1 évènement, 1 QR code ou carte membre. Supprimez-les d'abord.",
      );
      const [row] = await ctx.db.select().from(companies).where(eq(companies.id, company.id));
      expect(row).toBeDefined();
    });

    it('never deletes the default company', async () => {
      const demo = await buildCompany(ctx.db, { name: 'Demo', slug: 'demo' });
      const res = await as(
        ctx.app,
        tokens.ROLE_ADMIN,
      )({ method: 'DELETE', url: `/api/company/delete/${demo.id}` });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe("L'entreprise par défaut ne peut pas être supprimée.");
    });

    it('deletes an empty company with its logo', async () => {
      const created = (await create(tokens.ROLE_ADMIN, companyFields({ name: 'Éphémère' }))).json()
        .data;
      const res = await as(
        ctx.app,
        tokens.ROLE_ADMIN,
      )({ method: 'DELETE', url: `/api/company/delete/${created.id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe('Entreprise supprimée avec succès.');
      expect(
        (await ctx.app.inject({ method: 'GET', url: `/api/company/${created.slug}` })).statusCode,
      ).toBe(404);
      expect((await ctx.app.inject({ method: 'GET', url: created.logo_url })).statusCode).toBe(404);
      expect(await ctx.db.select().from(files).where(eq(files.companyId, created.id))).toEqual([]);
      // Its slug is free again for a new company.
      const again = await create(tokens.ROLE_ADMIN, companyFields({ name: 'Éphémère' }));
      expect(again.json().data.slug).toBe('ephemere');
    });
  });
});
