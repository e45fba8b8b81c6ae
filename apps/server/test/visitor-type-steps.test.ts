/**
 * Issue 31, on PGlite and PostgreSQL: the three ways in — the public form, the kiosk and an
 * invitation — take their steps from the visitor type. Each default type's required fields
 * are enforced by the server; a type's documents must come signed (a new version asks
 * again, an old signature within its validity does not); a type without the host's
 * approval lets a walk-in in at once; the watchlist's exact and close matches hold a kiosk
 * walk-in, a kiosk check and an invited visitor (no mail), a name under the threshold
 * passes.
 */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InvitationCreated, InvitationLinkView, SignatureInput } from '@sesame/shared';
import { sayIn } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import {
  documentVersions,
  invitations,
  mailOutbox,
  signatures,
  siteDocuments,
  visitRequests,
  visitorChecks,
  visitorTypeDocuments,
  visitorTypes,
  visitors,
  watchlistEntries,
  watchlistHolds,
} from '../src/db/schema';
import { newUidn } from '../src/db/ids';
import { sendHeldInvitation } from '../src/invitations/service';
import { InvitationLinks } from '../src/invitations/link';
import { insertDefaultVisitorTypes } from '../src/visitor-types/defaults';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildSite, buildTenant } from './helpers/factories';
import { pairedKiosk, utcDay } from './helpers/kiosk';

const fr = sayIn.bind(null, 'fr');
type Db = TestContext['db'];
type TypeName = 'Visiteur' | 'Prestataire' | "Entretien d'embauche" | 'Livraison';

/** The site's four default types, by French name. */
async function defaultTypes(db: Db, companyId: string, siteId: string) {
  await insertDefaultVisitorTypes(db, companyId, siteId);
  const rows = await db.select().from(visitorTypes).where(eq(visitorTypes.siteId, siteId));
  return Object.fromEntries(rows.map((t) => [t.nameFr, t])) as Record<
    TypeName,
    (typeof rows)[number]
  >;
}

/** A document of the site at version 1, asked by `typeId` with `validity`. */
async function documentFor(
  db: Db,
  type: { id: string; companyId: string; siteId: string },
  validity: 'visit' | 'days' | 'version' = 'version',
  validityDays: number | null = null,
) {
  const [doc] = await db
    .insert(siteDocuments)
    .values({ companyId: type.companyId, siteId: type.siteId })
    .returning();
  await db.insert(documentVersions).values({
    companyId: type.companyId,
    documentId: doc!.id,
    version: 1,
    titleFr: 'Accord de confidentialité',
    titleEn: 'Non-disclosure agreement',
    bodyFr: 'Je ne dirai rien.',
    bodyEn: 'I will tell nothing.',
  });
  await db.insert(visitorTypeDocuments).values({
    companyId: type.companyId,
    visitorTypeId: type.id,
    documentId: doc!.id,
    validity,
    validityDays,
  });
  return doc!.id;
}

/** The document's next version (its text edited). */
async function newVersion(db: Db, companyId: string, documentId: string, version: number) {
  await db.insert(documentVersions).values({
    companyId,
    documentId,
    version,
    titleFr: 'Accord de confidentialité',
    titleEn: 'Non-disclosure agreement',
    bodyFr: `Je ne dirai rien (v${version}).`,
    bodyEn: `I will tell nothing (v${version}).`,
  });
  await db
    .update(siteDocuments)
    .set({ currentVersion: version })
    .where(eq(siteDocuments.id, documentId));
}

const typed = (documentId: string, version = 1): SignatureInput => ({
  document_id: documentId,
  version,
  signer_name: 'Awa Koné',
  method: 'typed',
  accepted: true,
});

async function watch(
  db: Db,
  companyId: string,
  entry: Partial<typeof watchlistEntries.$inferInsert>,
) {
  await db.insert(watchlistEntries).values({ companyId, reason: 'Incident', ...entry });
}

describe(`visitor types on the public form (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  let company: Awaited<ReturnType<typeof buildCompany>>;
  let types: Awaited<ReturnType<typeof defaultTypes>>;
  let png: Buffer;

  beforeAll(async () => {
    company = await buildCompany(ctx.db);
    types = await defaultTypes(ctx.db, company.id, company.siteId);
    png = await qrPng('identity document');
  });

  const fields = (overrides: Record<string, string | undefined> = {}) => ({
    company_id: company.slug,
    site_id: company.siteId,
    firstname: 'Awa',
    lastname: 'Koné',
    id_number: '',
    organisation_name: '',
    email: `awa-${Math.random().toString(36).slice(2)}@example.com`,
    contact: '',
    address: '',
    city: '',
    country: '',
    state: '',
    zipcode: '',
    host: 'M. Diallo',
    reason: 'Réunion',
    request_date: utcDay(1),
    request_time: '10:30',
    privacy_accepted: '1',
    language: 'fr',
    ...overrides,
  });
  const create = (values: Record<string, string | undefined>, withDocument = false) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        values,
        withDocument
          ? { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } }
          : {},
      ),
    });

  it('asks each default type its own fields: a delivery without phone, number or document passes', async () => {
    const delivery = await create(
      fields({ visitor_type_id: types.Livraison.id, organisation_name: 'DHL' }),
    );
    expect(delivery.statusCode, delivery.body).toBe(200);
    expect(delivery.json().data.visitor_type_id).toBe(types.Livraison.id);
    const [stored] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, delivery.json().data.visitor_id));
    expect(stored).toMatchObject({
      visitorTypeId: types.Livraison.id,
      contact: '',
      idNumber: '',
      requestImageId: null,
    });

    const noOrganisation = await create(fields({ visitor_type_id: types.Livraison.id }));
    expect(noOrganisation.statusCode).toBe(400);
    expect(noOrganisation.json().message).toBe(fr((m) => m.visitor.required('organisation_name')));

    const interview = await create(fields({ visitor_type_id: types["Entretien d'embauche"].id }));
    expect(interview.statusCode).toBe(400);
    expect(interview.json().message).toBe(fr((m) => m.visitor.required('contact')));
    const interviewOk = await create(
      fields({ visitor_type_id: types["Entretien d'embauche"].id, contact: '0701020304' }),
    );
    expect(interviewOk.statusCode, interviewOk.body).toBe(200);

    // Visiteur (the site's first, also when none is named): the spec's form, every field.
    const full = { organisation_name: 'Acme', contact: '0701020304' };
    for (const visitorTypeId of [types.Visiteur.id, undefined]) {
      const noNumber = await create(fields({ ...full, visitor_type_id: visitorTypeId }), true);
      expect(noNumber.statusCode).toBe(400);
      expect(noNumber.json().message).toBe(fr((m) => m.visitor.required('id_number')));
      const noDocument = await create(
        fields({ ...full, id_number: 'CI-1', visitor_type_id: visitorTypeId }),
      );
      expect(noDocument.statusCode).toBe(400);
      expect(noDocument.json().message).toBe(fr((m) => m.visitor.fileInvalid));
      const ok = await create(
        fields({ ...full, id_number: 'CI-1', visitor_type_id: visitorTypeId }),
        true,
      );
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.visitor_type_id).toBe(types.Visiteur.id);
    }
  });

  it('refuses a type of another site, and asks the type’s documents signed', async () => {
    const other = await buildSite(ctx.db, { company });
    const otherTypes = await defaultTypes(ctx.db, company.id, other.id);
    const foreign = await create(
      fields({ visitor_type_id: otherTypes.Livraison.id, organisation_name: 'DHL' }),
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(fr((m) => m.visitorType.typeUnknown));

    const contractor = types.Prestataire;
    const documentId = await documentFor(ctx.db, contractor, 'visit');
    const values = fields({
      visitor_type_id: contractor.id,
      organisation_name: 'BTP',
      contact: '0701020304',
      id_number: 'CI-2',
    });
    const unsigned = await create(values, true);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe(
      fr((m) => m.visitorType.toSign('Accord de confidentialité')),
    );
    const signed = await create(
      { ...values, signatures: JSON.stringify([typed(documentId)]) },
      true,
    );
    expect(signed.statusCode, signed.body).toBe(200);
    const rows = await ctx.db
      .select()
      .from(signatures)
      .where(eq(signatures.visitorId, signed.json().data.visitor_id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ documentId, version: 1, language: 'fr', method: 'typed' });
  });
});

describe(`visitor types at the kiosk (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });

  async function lobby(kioskSettings: Record<string, unknown> = {}) {
    const { company, staff } = await buildTenant(ctx.db);
    const types = await defaultTypes(ctx.db, company.id, company.siteId);
    const kiosk = await pairedKiosk(
      ctx,
      staff.ROLE_MANAGER.email,
      company,
      company.siteId,
      kioskSettings,
    );
    return { company, staff, types, kiosk };
  }

  const walkIn = (overrides: Record<string, unknown> = {}) => ({
    firstname: 'Koffi',
    lastname: 'Yao',
    organisation_name: 'Acme',
    email: `walkin-${Math.random().toString(36).slice(2)}@example.com`,
    contact: '',
    id_number: '',
    reason: 'Rendez-vous',
    language: 'fr',
    privacy_accepted: true,
    ...overrides,
  });

  it('lists its site’s types with their documents', async () => {
    const { types, kiosk } = await lobby();
    await documentFor(ctx.db, types.Prestataire);
    const res = await kiosk.call({ method: 'GET', url: '/api/kiosk/visitor-types' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as {
      name_fr: string;
      documents: unknown[];
      host_approval: boolean;
    }[];
    expect(data.map((t) => t.name_fr)).toEqual([
      'Visiteur',
      'Prestataire',
      "Entretien d'embauche",
      'Livraison',
    ]);
    expect(data[1]!.documents).toHaveLength(1);
    expect(data[3]!.host_approval).toBe(false);
  });

  it('enforces each type’s fields; a delivery without phone is let in at once, checked in by the kiosk', async () => {
    const { types, kiosk, staff } = await lobby({ ask_photo: true });
    const send = (body: Record<string, unknown>) =>
      kiosk.call({ method: 'POST', url: '/api/kiosk/walk-ins', payload: body });

    const noNumber = await send(
      walkIn({ visitor_type_id: types.Visiteur.id, contact: '0701020304' }),
    );
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().message).toBe(fr((m) => m.visitorType.fieldRequired('id_number')));
    const noPhone = await send(walkIn({ id_number: 'CI-3' }));
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().message).toBe(fr((m) => m.visitorType.fieldRequired('phone')));
    // The kiosk takes no identity document: the Visiteur's is not asked here.
    const visitor = await send(
      walkIn({
        visitor_type_id: types.Visiteur.id,
        contact: '0701020304',
        id_number: 'CI-3',
        host_user_id: staff.ROLE_USER.id,
      }),
    );
    expect(visitor.statusCode, visitor.body).toBe(201);
    expect(visitor.json().data.status).toBe('waiting');

    const delivery = await send(walkIn({ visitor_type_id: types.Livraison.id, reason: 'Colis' }));
    expect(delivery.statusCode, delivery.body).toBe(201);
    const { request_id: requestId, status } = delivery.json().data;
    expect(status).toBe('let_in');
    const [request] = await ctx.db
      .select()
      .from(visitRequests)
      .where(eq(visitRequests.id, requestId));
    expect(request).toMatchObject({
      status: 1,
      confirmed: true,
      decidedBy: null,
      kioskId: kiosk.id,
    });
    const checks = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, request!.visitorId));
    expect(checks).toHaveLength(1);
    expect(checks[0]!.checkOutAt).toBeNull();
    const [stored] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, request!.visitorId));
    expect(stored!.visitorTypeId).toBe(types.Livraison.id);

    // A type that asks a photo, at a kiosk that takes one.
    await ctx.db
      .update(visitorTypes)
      .set({ requiredFields: ['photo'] })
      .where(eq(visitorTypes.id, types.Livraison.id));
    const noPhoto = await send(walkIn({ visitor_type_id: types.Livraison.id }));
    expect(noPhoto.statusCode).toBe(400);
    expect(noPhoto.json().message).toBe(fr((m) => m.visitorType.fieldRequired('photo')));
  });

  it('asks a type’s documents at a walk-in and at the check of an expected visit; an old signature within its validity is not asked again, a new version is', async () => {
    const { company, types, kiosk } = await lobby();
    const interview = types["Entretien d'embauche"];
    const documentId = await documentFor(ctx.db, interview, 'version');
    const email = `candidate-${Math.random().toString(36).slice(2)}@example.com`;
    const send = (body: Record<string, unknown>) =>
      kiosk.call({ method: 'POST', url: '/api/kiosk/walk-ins', payload: body });
    const body = walkIn({ visitor_type_id: interview.id, contact: '0701020304', email });
    const unsigned = await send(body);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe(
      fr((m) => m.visitorType.toSign('Accord de confidentialité')),
    );
    const walkInToSign = (address: string) =>
      kiosk.call({
        method: 'GET',
        url: `/api/kiosk/to-sign?visitor_type_id=${interview.id}&email=${encodeURIComponent(address)}&language=en`,
      });
    expect((await walkInToSign(email)).json().data.to_sign).toMatchObject([
      { document_id: documentId, version: 1, language: 'en' },
    ]);
    // Signed with "send me the signed document by e-mail": its PDF mail is queued to the visit's address.
    const signed = await send({ ...body, signatures: [{ ...typed(documentId), send_copy: true }] });
    expect(signed.statusCode, signed.body).toBe(201);
    const copies = await ctx.db
      .select({ to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'signed_document'));
    expect(copies.filter((c) => c.to === email)).toHaveLength(1);
    // Back as a walk-in with the same address: nothing left to sign; another address signs.
    expect((await walkInToSign(email.toUpperCase())).json().data.to_sign).toEqual([]);
    expect((await walkInToSign('someone.else@example.com')).json().data.to_sign).toHaveLength(1);
    // A type of no site of this kiosk's: refused.
    const foreign = await kiosk.call({
      method: 'GET',
      url: `/api/kiosk/to-sign?visitor_type_id=${crypto.randomUUID()}&email=${email}`,
    });
    expect(foreign.statusCode).toBe(400);

    // The same person expected later (a confirmed visit of today, typed): nothing to sign.
    const [visitor] = await ctx.db
      .insert(visitors)
      .values({
        companyId: company.id,
        siteId: company.siteId,
        uidn: newUidn(),
        firstname: 'Awa',
        lastname: 'Kouadio',
        email,
        contact: '',
        idNumber: '',
        organisationName: '',
        visitorTypeId: interview.id,
        requestDate: utcDay(0),
        dayStartsAt: new Date(Date.now() - 3_600_000),
        dayEndsAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const [request] = await ctx.db
      .insert(visitRequests)
      .values({ companyId: company.id, visitorId: visitor!.id, status: 1, confirmed: true })
      .returning();
    const search = await kiosk.call({ method: 'GET', url: '/api/kiosk/expected?q=kouadio' });
    expect(search.json().data[0].to_sign).toEqual([]);

    // A new version asks again: the search and the lookup say it, the check needs it.
    await newVersion(ctx.db, company.id, documentId, 2);
    const again = await kiosk.call({ method: 'GET', url: '/api/kiosk/expected?q=kouadio' });
    expect(again.json().data[0].to_sign).toEqual([
      {
        document_id: documentId,
        version: 2,
        language: 'fr',
        title: 'Accord de confidentialité',
        body: 'Je ne dirai rien (v2).',
      },
    ]);
    const lookup = await kiosk.call({
      method: 'GET',
      url: `/api/kiosk/to-sign?code=${visitor!.uidn}`,
    });
    expect(lookup.json().data.to_sign).toHaveLength(1);
    const check = (extra: Record<string, unknown> = {}) =>
      kiosk.call({
        method: 'POST',
        url: '/api/kiosk/check-in',
        payload: { request_id: request!.id, ...extra },
      });
    const refused = await check();
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      fr((m) => m.visitorType.toSign('Accord de confidentialité')),
    );
    const old = await check({ signatures: [typed(documentId, 1)] });
    expect(old.statusCode).toBe(409);
    const inside = await check({ signatures: [typed(documentId, 2)] });
    expect(inside.statusCode, inside.body).toBe(200);
    expect(inside.json().data.status).toBe('in');
    expect(
      await ctx.db.select().from(signatures).where(eq(signatures.visitorId, visitor!.id)),
    ).toHaveLength(1);
  });

  it('holds a watchlisted walk-in (exact e-mail, close name): nobody told, nobody checked in; a name under the threshold passes', async () => {
    const { company, types, kiosk, staff } = await lobby();
    await watch(ctx.db, company.id, { email: 'banned@example.com' });
    await watch(ctx.db, company.id, { firstname: 'Koffi', lastname: 'Yao' });
    const send = (body: Record<string, unknown>) =>
      kiosk.call({ method: 'POST', url: '/api/kiosk/walk-ins', payload: body });
    const delivery = { visitor_type_id: types.Livraison.id, host_user_id: staff.ROLE_USER.id };

    for (const person of [
      { firstname: 'Awa', lastname: 'Diallo', email: 'BANNED@example.com' },
      { firstname: 'Kofi', lastname: 'Yao' },
    ]) {
      const held = await send(walkIn({ ...delivery, ...person }));
      expect(held.statusCode, held.body).toBe(201);
      expect(held.json().data).toMatchObject({ status: 'held', told: null });
      const requestId = held.json().data.request_id as string;
      const [request] = await ctx.db
        .select()
        .from(visitRequests)
        .where(eq(visitRequests.id, requestId));
      expect(request).toMatchObject({ status: null, confirmed: null });
      expect(
        await ctx.db
          .select()
          .from(visitorChecks)
          .where(eq(visitorChecks.visitorId, request!.visitorId)),
      ).toEqual([]);
      const [hold] = await ctx.db
        .select()
        .from(watchlistHolds)
        .where(eq(watchlistHolds.visitorId, request!.visitorId));
      expect(hold).toMatchObject({ source: 'kiosk', status: 'pending', requestId });
    }
    expect(
      await ctx.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.companyId, company.id), eq(mailOutbox.kind, 'host_request'))),
    ).toEqual([]);

    const clear = await send(walkIn({ ...delivery, firstname: 'Kouamé', lastname: 'Yapo' }));
    expect(clear.json().data.status).toBe('let_in');
  });

  it('answers a watchlisted visitor’s own code check "held", with the welcome words only', async () => {
    const { company, kiosk } = await lobby();
    const [visitor] = await ctx.db
      .insert(visitors)
      .values({
        companyId: company.id,
        siteId: company.siteId,
        uidn: newUidn(),
        firstname: 'Issa',
        lastname: 'Traoré',
        email: 'issa@example.com',
        contact: '',
        idNumber: 'CI-99',
        organisationName: '',
        requestDate: utcDay(0),
        dayStartsAt: new Date(Date.now() - 3_600_000),
        dayEndsAt: new Date(Date.now() + 3_600_000),
      })
      .returning();
    await ctx.db
      .insert(visitRequests)
      .values({ companyId: company.id, visitorId: visitor!.id, status: 1, confirmed: true });
    await watch(ctx.db, company.id, { idNumber: 'CI-99' });
    const res = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { code: visitor!.uidn },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'held',
      message: fr((m) => m.watchlist.kioskHeld),
      firstname: 'Issa',
    });
    expect(
      await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitor!.id)),
    ).toEqual([]);
    // Denied by a reviewer: the tablet still says the same words, and nothing opens.
    await ctx.db
      .update(watchlistHolds)
      .set({ status: 'denied', decidedAt: new Date() })
      .where(eq(watchlistHolds.visitorId, visitor!.id));
    const denied = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { code: visitor!.uidn },
    });
    expect(denied.json().data).toMatchObject({
      status: 'held',
      message: fr((m) => m.watchlist.kioskHeld),
    });
    expect(
      await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitor!.id)),
    ).toEqual([]);
  });
});

describe(`visitor types of an invitation (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let tenant: Awaited<ReturnType<typeof buildTenant>>;
  let types: Awaited<ReturnType<typeof defaultTypes>>;
  let hostToken: string;
  let links: InvitationLinks;
  let png: Buffer;

  beforeAll(async () => {
    tenant = await buildTenant(ctx.db);
    types = await defaultTypes(ctx.db, tenant.company.id, tenant.company.siteId);
    hostToken = await tokenFor(ctx.app, tenant.staff.ROLE_USER.email);
    links = new InvitationLinks(ctx.config.jwtSecret);
    png = await qrPng('identity document');
  });

  const invite = async (
    visitorsList: Record<string, string>[],
    extra: Record<string, unknown> = {},
  ) =>
    as(
      ctx.app,
      hostToken,
    )({
      method: 'POST',
      url: '/api/invitations',
      payload: {
        site_id: tenant.company.siteId,
        date: utcDay(1),
        time: '09:00',
        end_time: '10:00',
        reason: 'Audit',
        language: 'fr',
        visitors: visitorsList,
        ...extra,
      },
    });
  const linkOf = async (created: InvitationCreated, index = 0) => {
    const [visitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, created.visitors[index]!.visitor_id));
    return links.sign(created.visitors[index]!.request_id, visitor!.dayEndsAt!);
  };
  const view = async (token: string) => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/public/invitation?token=${encodeURIComponent(token)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: InvitationLinkView }>().data;
  };
  const details = (token: string, fields: Record<string, string>, withDocument = false) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/public/invitation/details?token=${encodeURIComponent(token)}`,
      ...multipart(
        { privacy_accepted: '1', ...fields },
        withDocument
          ? { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } }
          : {},
      ),
    });
  const person = () => ({
    firstname: 'Awa',
    lastname: 'Koné',
    email: `awa-${Math.random().toString(36).slice(2)}@example.com`,
    organisation: 'Orange',
  });

  it('stores the type chosen on the invitation and its visitors; the link shows it and asks its fields', async () => {
    const res = await invite([person()], { visitor_type_id: types.Livraison.id });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<InvitationCreated>();
    const [invitation] = await ctx.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, created.invitation_id));
    expect(invitation!.visitorTypeId).toBe(types.Livraison.id);
    const [visitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, created.visitors[0]!.visitor_id));
    expect(visitor!.visitorTypeId).toBe(types.Livraison.id);
    const token = await linkOf(created);
    expect((await view(token)).visitor_type).toEqual({
      id: types.Livraison.id,
      name_fr: 'Livraison',
      name_en: 'Delivery',
      color: types.Livraison.color,
      required_fields: ['organisation'],
    });
    // A delivery gave its organisation to the host: nothing more to give.
    const done = await details(token, {});
    expect(done.statusCode, done.body).toBe(200);

    // Visiteur, the site's first when none is chosen: the number and the document.
    const plain = (await invite([person()])).json<InvitationCreated>();
    const plainToken = await linkOf(plain);
    expect((await view(plainToken)).visitor_type?.id).toBe(types.Visiteur.id);
    const phone = { contact: '0701020304' };
    const noNumber = await details(plainToken, phone, true);
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().message).toBe(fr((m) => m.visitor.required('id_number')));
    const noDocument = await details(plainToken, { ...phone, id_number: 'CI-7' });
    expect(noDocument.statusCode).toBe(400);
    expect(noDocument.json().message).toBe(fr((m) => m.visitor.fileInvalid));
    const noPhoneHere = await details(plainToken, { id_number: 'CI-7' }, true);
    expect(noPhoneHere.json().message).toBe(fr((m) => m.visitorType.fieldRequired('phone')));
    const completed = await details(plainToken, { ...phone, id_number: 'CI-7' }, true);
    expect(completed.statusCode, completed.body).toBe(200);
    const [plainVisitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, plain.visitors[0]!.visitor_id));
    expect(plainVisitor).toMatchObject({ idNumber: 'CI-7', contact: '+2250701020304' });

    // An interview asks a phone the host did not give.
    const interview = (
      await invite([person()], { visitor_type_id: types["Entretien d'embauche"].id })
    ).json<InvitationCreated>();
    const interviewToken = await linkOf(interview);
    const noPhone = await details(interviewToken, {});
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.json().message).toBe(fr((m) => m.visitorType.fieldRequired('phone')));
    expect((await details(interviewToken, { contact: '0701020304' })).statusCode).toBe(200);

    // Another site's type: 400.
    const other = await buildSite(ctx.db, { company: tenant.company });
    const otherTypes = await defaultTypes(ctx.db, tenant.company.id, other.id);
    const foreign = await invite([person()], { visitor_type_id: otherTypes.Livraison.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(fr((m) => m.visitorType.typeUnknown));
  });

  it('asks the type’s documents on the link; signed within its validity, not again; a new version, again', async () => {
    const contractor = types.Prestataire;
    const documentId = await documentFor(ctx.db, contractor, 'days', 30);
    const who = person();
    const first = (
      await invite([who], { visitor_type_id: contractor.id })
    ).json<InvitationCreated>();
    const token = await linkOf(first);
    expect((await view(token)).to_sign).toEqual([
      {
        document_id: documentId,
        version: 1,
        language: 'fr',
        title: 'Accord de confidentialité',
        body: 'Je ne dirai rien.',
      },
    ]);
    const fields = { id_number: 'CI-8', contact: '0701020304' };
    const unsigned = await details(token, fields, true);
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json().message).toBe(
      fr((m) => m.visitorType.toSign('Accord de confidentialité')),
    );
    const signed = await details(
      token,
      { ...fields, signatures: JSON.stringify([typed(documentId)]) },
      true,
    );
    expect(signed.statusCode, signed.body).toBe(200);
    expect((await view(token)).to_sign).toEqual([]);

    // Invited again: the signature of 30 days still holds.
    const second = (
      await invite([who], { visitor_type_id: contractor.id })
    ).json<InvitationCreated>();
    const secondToken = await linkOf(second);
    expect((await view(secondToken)).to_sign).toEqual([]);

    await newVersion(ctx.db, tenant.company.id, documentId, 2);
    expect((await view(secondToken)).to_sign.map((d) => d.version)).toEqual([2]);
  });

  it('holds a watchlisted invited visitor (exact phone, close name): no mail until allowed; the others are invited', async () => {
    await watch(ctx.db, tenant.company.id, { phone: '+2250707070707' });
    await watch(ctx.db, tenant.company.id, { firstname: 'Moussa', lastname: 'Sangaré' });
    const byPhone = { ...person(), firstname: 'Ali', lastname: 'Bamba', phone: '07 07 07 07 07' };
    const byName = { ...person(), firstname: 'Mousa', lastname: 'Sangare' };
    const clear = { ...person(), firstname: 'Mariam', lastname: 'Sanogo' };
    const res = await invite([byPhone, byName, clear]);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json<InvitationCreated>();
    const mailsTo = async (email: string) =>
      ctx.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'invitation')));
    expect(await mailsTo(byPhone.email)).toEqual([]);
    expect(await mailsTo(byName.email)).toEqual([]);
    expect(await mailsTo(clear.email)).toHaveLength(1);
    const holds = await ctx.db
      .select()
      .from(watchlistHolds)
      .where(eq(watchlistHolds.companyId, tenant.company.id));
    const heldVisitors = holds.filter((h) => h.source === 'invitation').map((h) => h.visitorId);
    expect(heldVisitors.sort()).toEqual(
      [created.visitors[0]!.visitor_id, created.visitors[1]!.visitor_id].sort(),
    );
    const byNameHold = holds.find((h) => h.visitorId === created.visitors[1]!.visitor_id)!;
    expect(byNameHold.matchedOn).toBe('name');

    // Still held: nothing is sent; allowed: the invitation mail goes, once.
    const requestId = created.visitors[1]!.request_id;
    expect(await ctx.db.transaction((tx) => sendHeldInvitation(tx, requestId))).toBe(false);
    await ctx.db
      .update(watchlistHolds)
      .set({ status: 'allowed', decidedAt: new Date() })
      .where(eq(watchlistHolds.id, byNameHold.id));
    expect(await ctx.db.transaction((tx) => sendHeldInvitation(tx, requestId))).toBe(true);
    await ctx.db.transaction((tx) => sendHeldInvitation(tx, requestId));
    expect(await mailsTo(byName.email)).toHaveLength(1);
    expect(await mailsTo(byPhone.email)).toEqual([]);
  });
});
