/**
 * Issue 29, the kiosks on the server: created, listed, edited, paired and revoked by a
 * company's admin side; a code that pairs once and dies after 10 minutes, kept as a digest
 * like the device token; a revoked kiosk refused at its next call; visitors checked in and
 * out by the visit found or their code with the desk's rules and an idempotency key; a
 * walk-in filed with its host's mail and its photo, which retention and erasure remove.
 */
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sayIn } from '@sesame/shared';
import {
  auditEvents,
  files,
  kiosks,
  mailOutbox,
  scanRequests,
  visitRequests,
  visitorChecks,
  visitors,
} from '../src/db/schema';
import { issuePairingCode } from '../src/kiosks/device';
import { purgeDue } from '../src/privacy/retention';
import { decideRequest } from '../src/requests/host-loop';
import { as, tokenFor, useTestApp } from './helpers/app';
import {
  buildCompany,
  buildEvent,
  buildRequest,
  buildSite,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';
import { createKiosk, pair, pairedKiosk, utcDay } from './helpers/kiosk';

const fr = sayIn.bind(null, 'fr');
const en = sayIn.bind(null, 'en');
const MINUTE = 60_000;
/** A JPEG as the tablet's camera sends it (its signature and some bytes). */
const jpeg = () =>
  `data:image/jpeg;base64,${Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
    Buffer.from('kiosk photo bytes'),
  ]).toString('base64')}`;

describe('kiosks: the staff side (issue 29)', () => {
  const ctx = useTestApp();

  it('creates a kiosk with a code shown once, lists, edits, gives a new code and revokes it', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const manager = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email));
    const created = await manager({
      method: 'POST',
      url: `/api/company/${company.id}/kiosks`,
      payload: { name: 'Hall A', site_id: company.siteId, idle_seconds: 90 },
    });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body.message).toBe(fr((m) => m.kiosk.created));
    expect(body.data).toMatchObject({
      name: 'Hall A',
      site: { id: company.siteId },
      languages: ['fr', 'en'],
      idle_seconds: 90,
      host_wait_seconds: 180,
      badge_size: '62x100',
      state: 'waiting',
    });
    expect(body.pairing.code).toMatch(/^\d{6}$/);
    const expires = Date.parse(body.pairing.expires_at) - Date.now();
    expect(expires).toBeGreaterThan(9 * MINUTE);
    expect(expires).toBeLessThanOrEqual(10 * MINUTE);

    // At rest: a digest, never the code.
    const [row] = await ctx.db.select().from(kiosks).where(eq(kiosks.id, body.data.id));
    expect(row!.pairingCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(body.pairing.code);

    const second = await createKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId);
    const list = await manager({ method: 'GET', url: `/api/company/${company.slug}/kiosks` });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((k: { id: string }) => k.id)).toEqual([
      second.data.id,
      body.data.id,
    ]);
    expect(list.body).not.toMatch(/pairing_code|token|hash/);

    const edited = await manager({
      method: 'PUT',
      url: `/api/company/${company.id}/kiosks/${body.data.id}`,
      payload: { name: 'Hall B', ask_photo: true, printer_url: 'ipp://192.168.1.20/ipp/print' },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().data).toMatchObject({
      name: 'Hall B',
      ask_photo: true,
      idle_seconds: 90,
      printer_url: 'ipp://192.168.1.20/ipp/print',
    });

    const paired = await pair(ctx, body.pairing.code);
    expect(paired.statusCode).toBe(200);
    const newCode = await manager({
      method: 'POST',
      url: `/api/company/${company.id}/kiosks/${body.data.id}/pairing`,
    });
    expect(newCode.statusCode).toBe(200);
    expect(newCode.json().pairing.code).toMatch(/^\d{6}$/);
    expect(newCode.json().data.state).toBe('paired');

    const revoked = await manager({
      method: 'DELETE',
      url: `/api/company/${company.id}/kiosks/${body.data.id}`,
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().data.state).toBe('revoked');
    expect(revoked.json().data.revoked_at).not.toBeNull();
    const after = await manager({ method: 'GET', url: `/api/company/${company.id}/kiosks` });
    expect(after.json().data.find((k: { id: string }) => k.id === body.data.id).state).toBe(
      'revoked',
    );

    const actions = (
      await ctx.db
        .select({ action: auditEvents.action, actor: auditEvents.actorUserId })
        .from(auditEvents)
        .where(and(eq(auditEvents.companyId, company.id), eq(auditEvents.subjectId, body.data.id)))
    ).map((e) => `${e.action}:${e.actor === null ? 'device' : 'staff'}`);
    expect(actions.sort()).toEqual(
      [
        'kiosk.created:staff',
        'kiosk.updated:staff',
        'kiosk.paired:device',
        'kiosk.code_issued:staff',
        'kiosk.revoked:staff',
      ].sort(),
    );
  });

  it('refuses a site that is not an active one of the company (400), another company’s kiosk (404)', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const other = await buildCompany(ctx.db);
    const archived = await buildSite(ctx.db, { company, archivedAt: new Date() });
    const manager = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email));
    for (const siteId of [other.siteId, archived.id]) {
      const res = await manager({
        method: 'POST',
        url: `/api/company/${company.id}/kiosks`,
        payload: { name: 'Hall', site_id: siteId },
      });
      expect(res.statusCode).toBe(400);
    }
    expect(
      (
        await manager({
          method: 'POST',
          url: `/api/company/${company.id}/kiosks`,
          payload: { name: 'Hall', site_id: company.siteId, idle_seconds: 5 },
        })
      ).json().message,
    ).toBe(fr((m) => m.kiosk.secondsInvalid(15, 600)));

    const otherAdmin = await buildUser(ctx.db, { company: other, role: 'ROLE_MANAGER' });
    const theirs = await createKiosk(ctx, otherAdmin.email, other, other.siteId);
    for (const url of [
      `/api/company/${other.id}/kiosks/${theirs.data.id}`,
      `/api/company/${company.id}/kiosks/${theirs.data.id}`,
    ]) {
      expect((await manager({ method: 'PUT', url, payload: { name: 'X' } })).statusCode).toBe(404);
      expect((await manager({ method: 'DELETE', url })).statusCode).toBe(404);
      expect((await manager({ method: 'POST', url: `${url}/pairing` })).statusCode).toBe(404);
    }
    const list = await manager({ method: 'GET', url: `/api/company/${other.id}/kiosks` });
    expect(list.statusCode).toBe(404);
    // Whoever lacks the right: 403.
    const employee = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email));
    expect(
      (await employee({ method: 'GET', url: `/api/company/${company.id}/kiosks` })).statusCode,
    ).toBe(403);
  });

  it('lets a manager limited to one site manage that site’s kiosks only', async () => {
    const company = await buildCompany(ctx.db);
    const second = await buildSite(ctx.db, { company });
    const admin = await buildUser(ctx.db, { company, role: 'ROLE_SUPER_ADMIN' });
    const limited = await buildUser(ctx.db, {
      company,
      role: 'ROLE_MANAGER',
      siteIds: [company.siteId],
      homeSiteId: company.siteId,
    });
    const atSecond = await createKiosk(ctx, admin.email, company, second.id);
    const atMain = await createKiosk(ctx, limited.email, company, company.siteId);
    const manager = as(ctx.app, await tokenFor(ctx.app, limited.email));
    const list = await manager({ method: 'GET', url: `/api/company/${company.id}/kiosks` });
    expect(list.json().data.map((k: { id: string }) => k.id)).toEqual([atMain.data.id]);
    const refused = await manager({
      method: 'POST',
      url: `/api/company/${company.id}/kiosks`,
      payload: { name: 'Hall', site_id: second.id },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(fr((m) => m.site.notYours));
    expect(
      (
        await manager({
          method: 'DELETE',
          url: `/api/company/${company.id}/kiosks/${atSecond.data.id}`,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await manager({
          method: 'PUT',
          url: `/api/company/${company.id}/kiosks/${atMain.data.id}`,
          payload: { site_id: second.id },
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('kiosks and their sites and companies (issue 29)', () => {
  const ctx = useTestApp();

  it('keeps a site with a kiosk from deletion (409, archive it); its archive stops the kiosk', async () => {
    const company = await buildCompany(ctx.db);
    const lobby = await buildSite(ctx.db, { company });
    const admin = await buildUser(ctx.db, { company, role: 'ROLE_SUPER_ADMIN' });
    const kiosk = await pairedKiosk(ctx, admin.email, company, lobby.id);
    const staff = as(ctx.app, await tokenFor(ctx.app, admin.email));
    const deleted = await staff({
      method: 'DELETE',
      url: `/api/company/${company.id}/sites/${lobby.id}`,
    });
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().message).toBe(fr((m) => m.site.hasHistory));
    expect((await kiosk.call({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(200);
    const archived = await staff({
      method: 'POST',
      url: `/api/company/${company.id}/sites/${lobby.id}/archive`,
    });
    expect(archived.statusCode).toBe(200);
    expect((await kiosk.call({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(401);
  });

  it('deletes an empty company with its kiosks', async () => {
    const company = await buildCompany(ctx.db);
    const platform = await buildCompany(ctx.db);
    const admin = await buildUser(ctx.db, { company: platform, role: 'ROLE_ADMIN' });
    const created = await createKiosk(ctx, admin.email, company, company.siteId);
    const res = await as(
      ctx.app,
      await tokenFor(ctx.app, admin.email),
    )({ method: 'DELETE', url: `/api/company/delete/${company.id}` });
    expect(res.statusCode).toBe(200);
    expect(await ctx.db.select().from(kiosks).where(eq(kiosks.id, created.data.id))).toEqual([]);
  });
});

describe('kiosks: pairing and the device token (issue 29)', () => {
  const ctx = useTestApp();

  it('pairs once with a live code, keeps only digests, and refuses a used or expired code', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const created = await createKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId);
    const bad = await pair(ctx, '12ab');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(fr((m) => m.kiosk.codeInvalid));

    const paired = await pair(ctx, created.pairing.code);
    expect(paired.statusCode).toBe(200);
    const { token, kiosk } = paired.json();
    expect(token).toMatch(/^kiosk_/);
    expect(kiosk).toMatchObject({
      id: created.data.id,
      company: { name: company.name, slug: company.slug },
      site: { timezone: 'UTC' },
      server_prints: false,
    });
    const [row] = await ctx.db.select().from(kiosks).where(eq(kiosks.id, created.data.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.pairingCodeHash).toBeNull();
    expect(JSON.stringify(row)).not.toContain(token.slice(6));
    expect(JSON.stringify(row)).not.toContain(created.pairing.code);

    const again = await pair(ctx, created.pairing.code);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(fr((m) => m.kiosk.codeRefused));

    // A code issued 11 minutes ago has expired.
    const stale = await issuePairingCode(
      ctx.db,
      ctx.config.jwtSecret,
      created.data.id,
      new Date(Date.now() - 11 * MINUTE),
    );
    expect((await pair(ctx, stale.code)).statusCode).toBe(401);
    // One issued 9 minutes ago still pairs.
    const live = await issuePairingCode(
      ctx.db,
      ctx.config.jwtSecret,
      created.data.id,
      new Date(Date.now() - 9 * MINUTE),
    );
    expect((await pair(ctx, live.code)).statusCode).toBe(200);
  });

  it('answers the kiosk its settings, and refuses a revoked kiosk at its next call (401)', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const kiosk = await pairedKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId, {
      languages: ['en', 'fr'],
      ask_photo: true,
    });
    const me = await kiosk.call({ method: 'GET', url: '/api/kiosk/me' });
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ languages: ['en', 'fr'], ask_photo: true });
    expect(me.body).not.toMatch(/printer_url|token/);

    const manager = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email));
    await manager({ method: 'DELETE', url: `/api/company/${company.id}/kiosks/${kiosk.id}` });
    const refused = await kiosk.call({ method: 'GET', url: '/api/kiosk/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(fr((m) => m.kiosk.deviceRefused));
    expect(
      (
        await kiosk.call({
          method: 'GET',
          url: '/api/kiosk/me',
          headers: { 'accept-language': 'en' },
        })
      ).json().message,
    ).toBe(en((m) => m.kiosk.deviceRefused));

    // A new code pairs it again; the old token stays dead.
    const code = await manager({
      method: 'POST',
      url: `/api/company/${company.id}/kiosks/${kiosk.id}/pairing`,
    });
    const repaired = await pair(ctx, code.json().pairing.code);
    expect(repaired.statusCode).toBe(200);
    expect((await kiosk.call({ method: 'GET', url: '/api/kiosk/me' })).statusCode).toBe(401);
    expect(
      (await as(ctx.app, repaired.json().token)({ method: 'GET', url: '/api/kiosk/me' }))
        .statusCode,
    ).toBe(200);
  });

  it('limits pairing attempts per client address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/kiosk/pair',
        payload: { code: String(100000 + i) },
        remoteAddress: '10.99.0.1',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});

describe('kiosks: checking visitors in and out (issue 29)', () => {
  const ctx = useTestApp();

  async function setting() {
    const { company, staff } = await buildTenant(ctx.db);
    const kiosk = await pairedKiosk(ctx, staff.ROLE_MANAGER.email, company, company.siteId);
    const confirmed = async (values: Partial<typeof visitors.$inferInsert> = {}) => {
      const visitor = await buildVisitor(ctx.db, { company, ...values });
      const request = await buildRequest(ctx.db, {
        company,
        visitor,
        status: 1,
        confirmed: true,
      });
      return { visitor, request };
    };
    return { company, staff, kiosk, confirmed };
  }

  it('checks in by the visit found, out by the code, each once, recorded as the kiosk’s', async () => {
    const { kiosk, confirmed } = await setting();
    const { visitor, request } = await confirmed({ firstname: 'Mariam' });
    const checkIn = () =>
      kiosk.call({
        method: 'POST',
        url: '/api/kiosk/check-in',
        payload: { request_id: request.id },
      });
    const first = await checkIn();
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({
      status: 'in',
      message: fr((m) => m.kiosk.checkedIn('Mariam')),
      request_id: request.id,
      firstname: 'Mariam',
    });
    // A second check-in never checks out, even after the repeat window.
    expect((await checkIn()).json().data.status).toBe('alreadyIn');
    const [check] = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    expect(check).toMatchObject({ checkInMethod: 'kiosk', checkInBy: null, checkOutAt: null });
    await ctx.db
      .update(visitorChecks)
      .set({ checkInAt: new Date(Date.now() - 10 * MINUTE) })
      .where(eq(visitorChecks.id, check!.id));
    expect((await checkIn()).json().data.status).toBe('alreadyIn');

    const checkOut = () =>
      kiosk.call({
        method: 'POST',
        url: '/api/kiosk/check-out',
        payload: { code: visitor.uidn.toLowerCase() },
        headers: { 'accept-language': 'en' },
      });
    const out = await checkOut();
    expect(out.statusCode).toBe(200);
    expect(out.json().data).toEqual({
      status: 'out',
      message: en((m) => m.kiosk.checkedOut('Mariam')),
      request_id: request.id,
      firstname: 'Mariam',
    });
    expect((await checkOut()).json().data.status).toBe('alreadyOut');
    const checks = await ctx.db
      .select()
      .from(visitorChecks)
      .where(eq(visitorChecks.visitorId, visitor.id));
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ checkOutMethod: 'kiosk', checkOutBy: null });
  });

  it('refuses as the desk does: not confirmed, not today, another site; never checked in', async () => {
    const { company, kiosk, confirmed } = await setting();
    const pending = await buildVisitor(ctx.db, { company });
    const pendingRequest = await buildRequest(ctx.db, { company, visitor: pending });
    const notYet = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { request_id: pendingRequest.id },
    });
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json().message).toBe(fr((m) => m.check.notConfirmed));

    const tomorrow = await confirmed({ requestDate: utcDay(1) });
    const early = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { code: tomorrow.visitor.uidn },
      headers: { 'accept-language': 'en' },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe(en((m) => m.kiosk.notHere));

    const elsewhere = await buildSite(ctx.db, { company });
    const there = await confirmed({ siteId: elsewhere.id });
    const byCode = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { code: there.visitor.uidn },
    });
    expect(byCode.statusCode).toBe(409);
    expect(byCode.json().message).toBe(fr((m) => m.kiosk.notHere));
    // A visit of another site is not found by its request id at all.
    const byId = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { request_id: there.request.id },
    });
    expect(byId.statusCode).toBe(404);

    const otherCompany = await buildCompany(ctx.db);
    const stranger = await buildVisitor(ctx.db, { company: otherCompany });
    await buildRequest(ctx.db, { company: otherCompany, visitor: stranger, confirmed: true });
    const unknown = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { code: stranger.uidn },
    });
    expect(unknown.statusCode).toBe(404);

    const never = await confirmed();
    const leaving = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-out',
      payload: { request_id: never.request.id },
    });
    expect(leaving.statusCode).toBe(409);
    expect(leaving.json().message).toBe(fr((m) => m.kiosk.notInside));

    const neither = await kiosk.call({ method: 'POST', url: '/api/kiosk/check-in', payload: {} });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().message).toBe(fr((m) => m.kiosk.checkWhom));
    expect(
      await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.companyId, company.id)),
    ).toEqual([]);
  });

  it('answers a retry with the same Idempotency-Key the same, and checks once', async () => {
    const { kiosk, confirmed } = await setting();
    const { visitor, request } = await confirmed();
    const send = (payload: Record<string, string>) =>
      kiosk.call({
        method: 'POST',
        url: '/api/kiosk/check-in',
        payload,
        headers: { 'idempotency-key': 'offline-queue-0001' },
      });
    const first = await send({ request_id: request.id });
    const retry = await send({ request_id: request.id });
    expect(first.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(retry.json().data.status).toBe('in');
    expect(
      await ctx.db.select().from(visitorChecks).where(eq(visitorChecks.visitorId, visitor.id)),
    ).toHaveLength(1);
    const [key] = await ctx.db
      .select()
      .from(scanRequests)
      .where(eq(scanRequests.kioskId, kiosk.id));
    expect(key).toMatchObject({ key: 'offline-queue-0001', userId: null });
    // The same key for another visit: 422, nothing recorded.
    const other = await confirmed();
    expect((await send({ request_id: other.request.id })).statusCode).toBe(422);
    expect(
      await ctx.db
        .select()
        .from(visitorChecks)
        .where(eq(visitorChecks.visitorId, other.visitor.id)),
    ).toEqual([]);
  });
});

describe('kiosks: walk-ins (issue 29)', () => {
  const ctx = useTestApp();

  const walkIn = (overrides: Record<string, unknown> = {}) => ({
    firstname: 'Koffi',
    lastname: 'Yao',
    organisation_name: 'Acme',
    email: `walkin-${Math.random().toString(36).slice(2)}@example.com`,
    contact: '',
    reason: 'Livraison',
    language: 'fr',
    privacy_accepted: true,
    ...overrides,
  });

  it('files the visitor and a pending request at the kiosk’s site, mails the host, and waits for the answer', async () => {
    const company = await buildCompany(ctx.db, { timezone: 'Pacific/Noumea' });
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const host = await buildUser(ctx.db, { company, firstname: 'Aïcha', name: 'Traoré' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId, {
      ask_photo: true,
    });
    const other = await pairedKiosk(ctx, manager.email, company, company.siteId);

    const hosts = await kiosk.call({ method: 'GET', url: '/api/kiosk/hosts?q=trao' });
    expect(hosts.statusCode).toBe(200);
    expect(hosts.json().data).toEqual([{ id: host.id, name: 'Aïcha Traoré' }]);

    const body = walkIn({ host_user_id: host.id, photo: jpeg() });
    const res = await kiosk.call({ method: 'POST', url: '/api/kiosk/walk-ins', payload: body });
    expect(res.statusCode).toBe(201);
    const { request_id: requestId, told } = res.json().data;
    expect(told).toBe('Aïcha Traoré');

    const [request] = await ctx.db
      .select()
      .from(visitRequests)
      .where(eq(visitRequests.id, requestId));
    expect(request).toMatchObject({ kioskId: kiosk.id, hostUserId: host.id, confirmed: null });
    const [visitor] = await ctx.db
      .select()
      .from(visitors)
      .where(eq(visitors.id, request!.visitorId));
    const noumea = new Intl.DateTimeFormat('fr-FR', {
      timeZone: 'Pacific/Noumea',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date());
    expect(visitor).toMatchObject({
      siteId: company.siteId,
      firstname: 'Koffi',
      email: body.email,
      idNumber: '',
      requestDate: noumea,
      requestImageId: null,
    });
    expect(visitor!.requestTime).toMatch(/^\d{2}:\d{2}$/);
    expect(visitor!.dayStartsAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(visitor!.dayEndsAt!.getTime()).toBeGreaterThan(Date.now());
    const [photo] = await ctx.db.select().from(files).where(eq(files.id, visitor!.photoFileId!));
    expect(photo).toMatchObject({
      ownerType: 'visitor_photo',
      ownerId: visitor!.id,
      mediaType: 'image/jpeg',
    });
    expect(await ctx.app.storage.get(photo!.storedName)).not.toBeNull();

    const mails = await ctx.db
      .select({ kind: mailOutbox.kind, to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(eq(mailOutbox.companyId, company.id));
    expect(mails.sort((a, b) => a.kind.localeCompare(b.kind))).toEqual([
      { kind: 'host_request', to: host.email },
      { kind: 'visitor_ack', to: body.email },
    ]);

    const status = (call = kiosk.call) =>
      call({ method: 'GET', url: `/api/kiosk/walk-ins/${requestId}` });
    expect((await status()).json().data.status).toBe('waiting');
    expect((await status(other.call)).statusCode).toBe(404);
    await ctx.db.transaction((tx) =>
      decideRequest(tx, { requestId, userId: host.id, decision: 'confirm' }),
    );
    expect((await status()).json().data.status).toBe('accepted');
    const checkIn = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/check-in',
      payload: { request_id: requestId },
    });
    expect(checkIn.json().data.status).toBe('in');
  });

  it('never queues a mail to an empty address: a phone-only walk-in tells the front desk', async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId);
    const res = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/walk-ins',
      payload: walkIn({ email: '', contact: '07 07 07 07 07' }),
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.told).toBeNull();
    const { request_id: requestId } = res.json().data;
    const [visitor] = await ctx.db
      .select({ contact: visitors.contact, email: visitors.email })
      .from(visitors)
      .innerJoin(visitRequests, eq(visitRequests.visitorId, visitors.id))
      .where(eq(visitRequests.id, requestId));
    expect(visitor).toEqual({ contact: '+2250707070707', email: '' });
    await ctx.db.transaction((tx) =>
      decideRequest(tx, { requestId, userId: desk.id, decision: 'confirm' }),
    );
    const mails = await ctx.db
      .select({ kind: mailOutbox.kind, to: mailOutbox.toAddress })
      .from(mailOutbox)
      .where(eq(mailOutbox.companyId, company.id));
    expect(mails).toEqual([{ kind: 'host_request', to: desk.email }]);
    expect(
      (await kiosk.call({ method: 'GET', url: `/api/kiosk/walk-ins/${requestId}` })).json(),
    ).toEqual({ data: { status: 'accepted' } });
  });

  it('sends the front desk the request when the host has not answered in the kiosk’s wait, once', async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const host = await buildUser(ctx.db, { company, firstname: 'Awa', name: 'Koné' });
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId);
    const other = await pairedKiosk(ctx, manager.email, company, company.siteId);
    const filed = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/walk-ins',
      payload: walkIn({ host_user_id: host.id }),
    });
    const { request_id: requestId } = filed.json().data;
    const tell = (call = kiosk.call) =>
      call({ method: 'POST', url: `/api/kiosk/walk-ins/${requestId}/front-desk` });
    const hostMails = async () =>
      (
        await ctx.db
          .select({ to: mailOutbox.toAddress })
          .from(mailOutbox)
          .where(and(eq(mailOutbox.companyId, company.id), eq(mailOutbox.kind, 'host_request')))
      )
        .map((row) => row.to)
        .sort();

    expect(await hostMails()).toEqual([host.email]);
    expect((await tell(other.call)).statusCode).toBe(404);
    const first = await tell();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ data: { told: 1 } });
    expect(await hostMails()).toEqual([host.email, desk.email].sort());
    // A second call (the tablet retrying) sends nothing more.
    await tell();
    expect(await hostMails()).toEqual([host.email, desk.email].sort());

    // Decided meanwhile: nobody else is told.
    const second = (
      await kiosk.call({
        method: 'POST',
        url: '/api/kiosk/walk-ins',
        payload: walkIn({ host_user_id: host.id }),
      })
    ).json().data.request_id as string;
    await ctx.db.transaction((tx) =>
      decideRequest(tx, { requestId: second, userId: host.id, decision: 'decline' }),
    );
    const late = await kiosk.call({
      method: 'POST',
      url: `/api/kiosk/walk-ins/${second}/front-desk`,
    });
    expect(late.json()).toEqual({ data: { told: 0 } });
  });

  it('keeps no photo where the kiosk does not ask for one', async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId);
    const res = await kiosk.call({
      method: 'POST',
      url: '/api/kiosk/walk-ins',
      payload: walkIn({ photo: jpeg() }),
    });
    expect(res.statusCode).toBe(201);
    const [visitor] = await ctx.db
      .select({ photo: visitors.photoFileId })
      .from(visitors)
      .innerJoin(visitRequests, eq(visitRequests.visitorId, visitors.id))
      .where(eq(visitRequests.id, res.json().data.request_id));
    expect(visitor).toEqual({ photo: null });
    const photos = await ctx.db
      .select({ id: files.id })
      .from(files)
      .where(and(eq(files.companyId, company.id), eq(files.ownerType, 'visitor_photo')));
    expect(photos).toEqual([]);
  });

  it('refuses a walk-in without a contact, with a host of another company, or a photo not a JPEG (400)', async () => {
    const company = await buildCompany(ctx.db);
    const other = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const stranger = await buildUser(ctx.db, { company: other });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId, {
      ask_photo: true,
    });
    const send = (payload: Record<string, unknown>) =>
      kiosk.call({ method: 'POST', url: '/api/kiosk/walk-ins', payload });
    const none = await send(walkIn({ email: '', contact: '' }));
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(fr((m) => m.kiosk.contactRequired));
    const foreignHost = await send(walkIn({ host_user_id: stranger.id }));
    expect(foreignHost.statusCode).toBe(400);
    expect(foreignHost.json().message).toBe(fr((m) => m.request.hostUnknown));
    const png = await send(
      walkIn({ photo: `data:image/jpeg;base64,${Buffer.from('\x89PNG\r\n').toString('base64')}` }),
    );
    expect(png.statusCode).toBe(400);
    expect(png.json().message).toBe(fr((m) => m.kiosk.photoInvalid));
    expect(await ctx.db.select().from(visitors).where(eq(visitors.companyId, company.id))).toEqual(
      [],
    );
    expect(await ctx.db.select().from(files).where(eq(files.companyId, company.id))).toEqual([]);
  });

  it('purges the photo with the identity documents, and erases and exports it with the person', async () => {
    const company = await buildCompany(ctx.db, { retentionDocumentsDays: 12 });
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId, {
      ask_photo: true,
    });
    const file = async (email: string) => {
      const res = await kiosk.call({
        method: 'POST',
        url: '/api/kiosk/walk-ins',
        payload: walkIn({ email, photo: jpeg() }),
      });
      const [row] = await ctx.db
        .select({ visitor: visitors, storedName: files.storedName })
        .from(visitors)
        .innerJoin(visitRequests, eq(visitRequests.visitorId, visitors.id))
        .innerJoin(files, eq(files.id, visitors.photoFileId))
        .where(eq(visitRequests.id, res.json().data.request_id));
      return row!;
    };
    const old = await file('old-walkin@example.com');
    const recent = await file('recent-walkin@example.com');
    const monthAgo = new Date(Date.now() - 30 * 86_400_000);
    await ctx.db
      .update(visitors)
      .set({ createdAt: monthAgo, dayStartsAt: monthAgo, dayEndsAt: monthAgo })
      .where(eq(visitors.id, old.visitor.id));
    await purgeDue(ctx.db, ctx.app.storage);
    const [purged] = await ctx.db.select().from(visitors).where(eq(visitors.id, old.visitor.id));
    expect(purged!.photoFileId).toBeNull();
    expect(await ctx.app.storage.get(old.storedName)).toBeNull();
    expect(await ctx.db.select().from(files).where(eq(files.id, old.visitor.photoFileId!))).toEqual(
      [],
    );
    const [kept] = await ctx.db.select().from(visitors).where(eq(visitors.id, recent.visitor.id));
    expect(kept!.photoFileId).toBe(recent.visitor.photoFileId);

    const admin = as(ctx.app, await tokenFor(ctx.app, manager.email));
    const exported = await admin({
      method: 'GET',
      url: `/api/privacy/visitor/${recent.visitor.id}/export`,
    });
    expect(exported.statusCode).toBe(200);
    const { unzipSync, strFromU8 } = await import('fflate');
    const zip = unzipSync(new Uint8Array(exported.rawPayload));
    expect(Object.keys(zip)).toContain(`documents/${recent.visitor.photoFileId}.jpg`);
    expect(strFromU8(zip['donnees.json']!)).toContain(recent.visitor.photoFileId!);

    const erased = await admin({
      method: 'POST',
      url: `/api/privacy/visitor/${recent.visitor.id}/erase`,
    });
    expect(erased.statusCode).toBe(200);
    expect(await ctx.app.storage.get(recent.storedName)).toBeNull();
    expect(
      await ctx.db.select().from(files).where(eq(files.id, recent.visitor.photoFileId!)),
    ).toEqual([]);
  });

  it('does not list an event guest among the expected (their QR is their ticket)', async () => {
    const company = await buildCompany(ctx.db);
    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const kiosk = await pairedKiosk(ctx, manager.email, company, company.siteId);
    const event = await buildEvent(ctx.db, { company, dateEvent: utcDay() });
    const guest = await buildVisitor(ctx.db, {
      company,
      eventId: event.id,
      lastname: 'Gbagbo',
      dayStartsAt: event.dayStartsAt,
      dayEndsAt: event.dayEndsAt,
    });
    await buildRequest(ctx.db, { company, visitor: guest, status: 1, confirmed: true });
    const res = await kiosk.call({ method: 'GET', url: '/api/kiosk/expected?q=gbag' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
  });
});
