/**
 * Identity documents and photos (issue 11 §5, issue 26 §3): a signed file URL is bound to
 * the session it was handed to and opens nothing alone — the fetch carries that session's
 * bearer token or the files cookie set at sign-in — checked live on every fetch, and never
 * cached.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestRow } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { auditEvents, files, users } from '../src/db/schema';
import { FILES_COOKIE, setFilesCookie } from '../src/files/cookie';
import { qrPng } from '../src/qr/qr';
import { as, multipart, startTestApp, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant, buildUser, TEST_PASSWORD } from './helpers/factories';

type Tenant = Awaited<ReturnType<typeof buildTenant>>;

const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

/** A visitor of `slug` sent through the public form with `document`; returns the visitor id. */
async function visitorWith(
  ctx: TestContext,
  slug: string,
  document: { filename: string; contentType: string; bytes: Buffer },
): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/visitor/create',
    ...multipart(
      {
        company_id: slug,
        firstname: 'Awa',
        lastname: 'Koné',
        id_number: 'CI-0042',
        organisation_name: 'Acme',
        email: `awa-${Math.random().toString(36).slice(2)}@example.com`,
        contact: '0701020304',
        request_date: '24/11/2030',
        request_time: '10:30',
        // Issue 16: the privacy notice accepted.
        privacy_accepted: '1',
      },
      { request_image: document },
    ),
  });
  expect(res.statusCode).toBe(200);
  const visitorId = res.json().data.visitor_id as string;
  const request = await ctx.app.inject({
    method: 'POST',
    url: '/api/requests/create',
    payload: { visitor_id: visitorId, host: 'M. Diallo' },
  });
  expect(request.statusCode).toBe(201);
  return visitorId;
}

/** The files cookie an answer sets, as the browser would read it; fails the test without one. */
function filesCookieSet(res: LightMyRequestResponse) {
  const raw = [res.headers['set-cookie'] ?? []]
    .flat()
    .find((line) => line.startsWith(`${FILES_COOKIE}=`));
  expect(raw, 'a Set-Cookie for the files cookie').toBeTruthy();
  const parsed = res.cookies.find((cookie) => cookie.name === FILES_COOKIE)!;
  const attributes = raw!
    .split(';')
    .slice(1)
    .map((part) => part.trim().split('=')[0]!.toLowerCase());
  return { raw: raw!, ...parsed, attributes };
}

/** Signs in through the real endpoint: the bearer token and the files cookie the answer sets. */
async function signIn(ctx: TestContext, email: string, headers: Record<string, string> = {}) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/login_check',
    headers,
    payload: { username: email, password: TEST_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  const set = filesCookieSet(res);
  const body = res.json<{ token: string; expires_at: string }>();
  return {
    token: body.token,
    expiresAt: body.expires_at,
    set,
    cookie: `${FILES_COOKIE}=${set.value}`,
  };
}

describe(`identity documents behind a live session (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  let acme: Tenant;
  let globex: Tenant;
  let pngVisitor: string;
  let pdfVisitor: string;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    const png = await qrPng('identity document');
    pngVisitor = await visitorWith(ctx, acme.company.slug, {
      filename: 'carte identité.png',
      contentType: 'image/png',
      bytes: png,
    });
    pdfVisitor = await visitorWith(ctx, acme.company.slug, {
      filename: 'passeport.pdf',
      contentType: 'application/pdf',
      bytes: pdfBytes,
    });
  });

  /** The document URL the request list hands to the holder of `token`. */
  async function documentUrl(token: string, visitorId: string): Promise<string> {
    const res = await as(ctx.app, token)({ method: 'GET', url: '/api/requests/list?per_page=100' });
    expect(res.statusCode).toBe(200);
    const row = res.json<{ data: RequestRow[] }>().data.find((r) => r.visitor.id === visitorId);
    expect(row?.visitor.request_image).toBeTruthy();
    return row!.visitor.request_image!;
  }

  const anonymously = (url: string) => ctx.app.inject({ method: 'GET', url });
  const withCookie = (url: string, cookie: string) =>
    ctx.app.inject({ method: 'GET', url, headers: { cookie } });
  const withBearer = (url: string, token: string) => as(ctx.app, token)({ method: 'GET', url });
  const sessionOf = async (token: string) => (await ctx.app.tokens.verify(token))!.sid;
  const viewsBy = async (userId: string) =>
    (
      await ctx.db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.action, 'document.viewed'), eq(auditEvents.actorUserId, userId)))
    ).length;

  it('serves the document to its own session, never cached, with a safe name', async () => {
    const { token, cookie } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    expect(url).toContain(`session=${await sessionOf(token)}`);
    const res = await withCookie(url, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe('inline; filename="piece-identite.png"');
    const [stored] = await ctx.db
      .select()
      .from(files)
      .where(eq(files.id, url.split('/api/files/')[1]!.split('?')[0]!));
    expect(res.headers['content-disposition']).not.toContain(stored!.storedName);
  });

  it('sends a PDF as an attachment', async () => {
    const { token, cookie } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const res = await withCookie(await documentUrl(token, pdfVisitor), cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="piece-identite.pdf"');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('a copied URL opens nothing alone: 401 anonymously, before its query is read', async () => {
    const { token } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    const copied = await anonymously(url);
    expect(copied.statusCode).toBe(401);
    expect(copied.json().message).toBe('Vous devez être authentifié.');
    expect(copied.body).not.toContain('PNG');
    // The guard order of every /api route: no credential is a 401, not the query's 400.
    const fileId = url.split('/api/files/')[1]!.split('?')[0]!;
    expect((await anonymously(`/api/files/${fileId}?session=nonsense`)).statusCode).toBe(401);
    // The web's own `token` cookie (readable by scripts, spec §3) is no credential here.
    expect((await withCookie(url, `token=${token}`)).statusCode).toBe(401);
    // Nor is the bearer token passed as the files cookie: the cookie holds its own value.
    expect((await withCookie(url, `${FILES_COOKIE}=${token}`)).statusCode).toBe(401);
  });

  it("the staff member's bearer token (an API client) or files cookie opens it, one audit entry per opening", async () => {
    const employee = acme.staff.ROLE_EMPLOYEE;
    const { token, cookie } = await signIn(ctx, employee.email);
    const url = await documentUrl(token, pngVisitor);
    const before = await viewsBy(employee.id);
    const byBearer = await withBearer(url, token);
    expect(byBearer.statusCode).toBe(200);
    expect(byBearer.headers['content-type']).toBe('image/png');
    expect(await viewsBy(employee.id)).toBe(before + 1);
    const byCookie = await withCookie(url, cookie);
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.rawPayload.equals(byBearer.rawPayload)).toBe(true);
    expect(await viewsBy(employee.id)).toBe(before + 2);
    // A refused fetch is no view.
    await anonymously(url);
    expect(await viewsBy(employee.id)).toBe(before + 2);
  });

  it('sign-in sets the files cookie: HttpOnly, SameSite=Strict, Path=/api/files, until the session ends, not Secure over HTTP', async () => {
    const { token, expiresAt, set } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email, {
      // Said by a client the server does not trust as a proxy (TRUST_PROXY unset): ignored.
      'x-forwarded-proto': 'https',
    });
    expect(set.httpOnly).toBe(true);
    expect(set.sameSite).toBe('Strict');
    expect(set.path).toBe('/api/files');
    expect(set.secure).toBeUndefined();
    expect(set.attributes).not.toContain('secure');
    expect(set.attributes).not.toContain('domain');
    // Kept as long as the session: its expiry, to the second.
    expect(Math.abs(set.expires!.getTime() - new Date(expiresAt).getTime())).toBeLessThan(1000);
    expect(set.maxAge).toBeGreaterThan(8 * 3600 - 60);
    // It names the session, not the bearer token: it is no key to the rest of the API.
    expect(set.value).not.toContain(token);
    expect(set.value.startsWith(`${await sessionOf(token)}.`)).toBe(true);
    const asBearer = await as(ctx.app, set.value)({ method: 'GET', url: '/api/user/info' });
    expect(asBearer.statusCode).toBe(401);
    // Nor is the API read with it: the cookie alone is anonymous on /api/user/info.
    const cookieOnly = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/info',
      headers: { cookie: `${FILES_COOKIE}=${set.value}` },
    });
    expect(cookieOnly.statusCode).toBe(401);
  });

  it('/user/info sets the files cookie again for the live session (a browser that lost it)', async () => {
    const { token, set } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const info = await as(ctx.app, token)({ method: 'GET', url: '/api/user/info' });
    expect(info.statusCode).toBe(200);
    const again = filesCookieSet(info);
    expect(again.value).toBe(set.value);
    expect(again.httpOnly).toBe(true);
    expect(again.sameSite).toBe('Strict');
    expect(again.path).toBe('/api/files');
    expect(Math.abs(again.expires!.getTime() - set.expires!.getTime())).toBeLessThan(1000);
    const url = await documentUrl(token, pngVisitor);
    expect((await withCookie(url, `${FILES_COOKIE}=${again.value}`)).statusCode).toBe(200);
  });

  it('sign-out clears the files cookie, and the cookie and the bearer stop opening the document (401)', async () => {
    const { token, cookie } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    expect((await withCookie(url, cookie)).statusCode).toBe(200);
    const out = await as(ctx.app, token)({ method: 'POST', url: '/api/logout' });
    expect(out.statusCode).toBe(200);
    const cleared = filesCookieSet(out);
    expect(cleared.value).toBe('');
    expect(cleared.maxAge).toBe(0);
    expect(cleared.expires!.getTime()).toBeLessThan(Date.now());
    // The same name and path, or the browser would keep the one it has.
    expect(cleared.path).toBe('/api/files');
    expect(cleared.httpOnly).toBe(true);
    expect(cleared.sameSite).toBe('Strict');
    // A browser that kept it anyway (a copy of the cookie) is refused, and told to drop it.
    const after = await withCookie(url, cookie);
    expect(after.statusCode).toBe(401);
    expect(after.body).not.toContain('PNG');
    expect(filesCookieSet(after).maxAge).toBe(0);
    expect((await withBearer(url, token)).statusCode).toBe(401);
  });

  it('a files cookie not made by the server is refused (401) and cleared', async () => {
    const { token, set } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    const session = await sessionOf(token);
    for (const forged of [`${session}.AAAA`, session, `${session}.${'A'.repeat(43)}`, '.x']) {
      const res = await withCookie(url, `${FILES_COOKIE}=${forged}`);
      expect(res.statusCode, forged).toBe(401);
      expect(filesCookieSet(res).maxAge).toBe(0);
    }
    // The real one still works.
    expect((await withCookie(url, `${FILES_COOKIE}=${set.value}`)).statusCode).toBe(200);
  });

  it("stops answering once the account is disabled (401), the other staff's links live on", async () => {
    const leaver = await buildUser(ctx.db, { company: acme.company, role: 'ROLE_EMPLOYEE' });
    const stays = await signIn(ctx, acme.staff.ROLE_SUPERVISOR.email);
    const gone = await signIn(ctx, leaver.email);
    const url = await documentUrl(gone.token, pngVisitor);
    const othersUrl = await documentUrl(stays.token, pngVisitor);
    expect((await withCookie(url, gone.cookie)).statusCode).toBe(200);
    await ctx.db.update(users).set({ status: false }).where(eq(users.id, leaver.id));
    expect((await withCookie(url, gone.cookie)).statusCode).toBe(401);
    expect((await withBearer(url, gone.token)).statusCode).toBe(401);
    expect((await withCookie(othersUrl, stays.cookie)).statusCode).toBe(200);
  });

  it("another company's staff, with their own cookie or bearer, can neither use nor forge a link (404)", async () => {
    const acmeSignedIn = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(acmeSignedIn.token, pngVisitor);
    const fileId = url.split('/api/files/')[1]!.split('?')[0]!;
    const globexSignedIn = await signIn(ctx, globex.staff.ROLE_SUPERVISOR.email);
    const globexSession = await sessionOf(globexSignedIn.token);
    const asGlobex = [
      (u: string) => withCookie(u, globexSignedIn.cookie),
      (u: string) => withBearer(u, globexSignedIn.token),
    ];
    // acme's link as it was copied, and with globex's session put in (the signature no
    // longer matches).
    const swapped = url.replace(/session=[^&]+/, `session=${globexSession}`);
    // A link correctly signed for globex's session (as a bug elsewhere might hand out):
    // globex may not see acme's documents.
    const signedForGlobex = ctx.app.fileUrls.signed(fileId, { sessionId: globexSession })!;
    for (const fetch of asGlobex) {
      for (const link of [url, swapped, signedForGlobex]) {
        const res = await fetch(link);
        expect(res.statusCode, link).toBe(404);
        expect(res.body).not.toContain('PNG');
      }
    }
  });

  it("a colleague's own credential does not open a link handed to another session (404)", async () => {
    const first = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const colleague = await signIn(ctx, acme.staff.ROLE_SUPERVISOR.email);
    const url = await documentUrl(first.token, pngVisitor);
    expect((await withCookie(url, colleague.cookie)).statusCode).toBe(404);
    expect((await withBearer(url, colleague.token)).statusCode).toBe(404);
    // The colleague's own link, for the same document, opens.
    const theirs = await documentUrl(colleague.token, pngVisitor);
    expect((await withCookie(theirs, colleague.cookie)).statusCode).toBe(200);
  });

  it('a tampered link answers 404 even with its own session', async () => {
    const { token, cookie } = await signIn(ctx, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    const tampered = url.replace(/signature=.{4}/, 'signature=AAAA');
    expect((await withCookie(tampered, cookie)).statusCode).toBe(404);
    const later = Number(new URL(url, 'http://x').searchParams.get('expires')) + 60_000;
    const moved = url.replace(/expires=\d+/, `expires=${later}`);
    expect((await withBearer(moved, token)).statusCode).toBe(404);
    const bare = await withCookie(url.replace(/session=[^&]+&/, ''), cookie);
    expect([400, 404]).toContain(bare.statusCode);
  });

  it("serves ROLE_ADMIN, who acts on every company, from another company's staff", async () => {
    const admin = await signIn(ctx, globex.staff.ROLE_ADMIN.email);
    const url = await documentUrl(admin.token, pngVisitor);
    expect((await withCookie(url, admin.cookie)).statusCode).toBe(200);
    expect((await withBearer(url, admin.token)).statusCode).toBe(200);
  });

  it('hands out no document URL without a signed-in session', async () => {
    expect(ctx.app.fileUrls.signed('0190f0f0-0000-7000-8000-000000000000', null)).toBeNull();
  });
});

describe(`the files cookie is Secure over HTTPS (${testDatabaseKind})`, () => {
  // A server behind a proxy it trusts (TRUST_PROXY), which says the client used HTTPS.
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  let email: string;

  beforeAll(async () => {
    ctx = await startTestApp({ trustProxy: ['127.0.0.1'] });
    email = (await buildTenant(ctx.db)).staff.ROLE_EMPLOYEE.email;
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('when the trusted proxy says HTTPS: set at sign-in and at /user/info, cleared at sign-out', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const { token, set } = await signIn(ctx, email, https);
    expect(set.secure).toBe(true);
    expect(set.httpOnly).toBe(true);
    expect(set.sameSite).toBe('Strict');
    const info = await as(ctx.app, token)({ method: 'GET', url: '/api/user/info', headers: https });
    expect(filesCookieSet(info).secure).toBe(true);
    const out = await as(ctx.app, token)({ method: 'POST', url: '/api/logout', headers: https });
    const cleared = filesCookieSet(out);
    expect(cleared.secure).toBe(true);
    expect(cleared.maxAge).toBe(0);
  });

  it('not over plain HTTP through the same proxy', async () => {
    const { set } = await signIn(ctx, email, { 'x-forwarded-proto': 'http' });
    expect(set.secure).toBeUndefined();
    expect(set.attributes).not.toContain('secure');
  });

  it('always when PUBLIC_URL is an https:// address', () => {
    const headers: Record<string, string> = {};
    const reply = {
      request: { protocol: 'http' },
      header(name: string, value: string) {
        headers[name] = value;
        return reply;
      },
    } as unknown as FastifyReply;
    setFilesCookie(reply, 'value', new Date(Date.now() + 60_000), 'https://sesame.example.com');
    expect(headers['set-cookie']).toMatch(/; Secure$/);
    setFilesCookie(reply, 'value', new Date(Date.now() + 60_000), 'http://sesame.test');
    expect(headers['set-cookie']).not.toContain('Secure');
  });
});
