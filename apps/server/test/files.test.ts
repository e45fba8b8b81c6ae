/**
 * Identity documents and photos (issue 11 §5): a signed file URL is bound to the
 * session it was handed to, checked live on every fetch, and never cached.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestRow } from '@sesame/shared';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { files, users } from '../src/db/schema';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp, type TestContext } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildTenant, buildUser } from './helpers/factories';

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

  const fetchFile = (url: string) => ctx.app.inject({ method: 'GET', url });
  const sessionOf = async (token: string) => (await ctx.app.tokens.verify(token))!.sid;

  it('serves the document to the live session it was handed to, never cached, with a safe name', async () => {
    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    expect(url).toContain(`session=${await sessionOf(token)}`);
    const res = await fetchFile(url);
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
    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const res = await fetchFile(await documentUrl(token, pdfVisitor));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="piece-identite.pdf"');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('stops answering once the session is logged out (404)', async () => {
    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(token, pngVisitor);
    expect((await fetchFile(url)).statusCode).toBe(200);
    const out = await as(ctx.app, token)({ method: 'POST', url: '/api/logout' });
    expect(out.statusCode).toBe(200);
    const after = await fetchFile(url);
    expect(after.statusCode).toBe(404);
    expect(after.body).not.toContain('PNG');
  });

  it("stops answering once the account is disabled (404), the other staff's links live on", async () => {
    const leaver = await buildUser(ctx.db, { company: acme.company, role: 'ROLE_EMPLOYEE' });
    const stays = await tokenFor(ctx.app, acme.staff.ROLE_SUPERVISOR.email);
    const token = await tokenFor(ctx.app, leaver.email);
    const url = await documentUrl(token, pngVisitor);
    const othersUrl = await documentUrl(stays, pngVisitor);
    expect((await fetchFile(url)).statusCode).toBe(200);
    await ctx.db.update(users).set({ status: false }).where(eq(users.id, leaver.id));
    expect((await fetchFile(url)).statusCode).toBe(404);
    expect((await fetchFile(othersUrl)).statusCode).toBe(200);
  });

  it("another company's staff can neither use nor forge a link (404)", async () => {
    const acmeToken = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const url = await documentUrl(acmeToken, pngVisitor);
    const fileId = url.split('/api/files/')[1]!.split('?')[0]!;
    const globexToken = await tokenFor(ctx.app, globex.staff.ROLE_SUPERVISOR.email);
    const globexSession = await sessionOf(globexToken);

    // acme's link with globex's session put in: the signature no longer matches.
    const swapped = url.replace(/session=[^&]+/, `session=${globexSession}`);
    expect((await fetchFile(swapped)).statusCode).toBe(404);
    // A link correctly signed for globex's session (as a bug elsewhere might hand out).
    const signedForGlobex = ctx.app.fileUrls.signed(fileId, { sessionId: globexSession })!;
    expect((await fetchFile(signedForGlobex)).statusCode).toBe(404);
    // Nor does the bearer header of globex's staff open it.
    expect((await as(ctx.app, globexToken)({ method: 'GET', url: swapped })).statusCode).toBe(404);
    // A tampered signature, an expiry moved forward, no session at all.
    expect((await fetchFile(url.replace(/signature=.{4}/, 'signature=AAAA'))).statusCode).toBe(404);
    const later = Number(new URL(url, 'http://x').searchParams.get('expires')) + 60_000;
    expect((await fetchFile(url.replace(/expires=\d+/, `expires=${later}`))).statusCode).toBe(404);
    const bare = await fetchFile(url.replace(/session=[^&]+&/, ''));
    expect([400, 404]).toContain(bare.statusCode);
  });

  it("serves ROLE_ADMIN, who acts on every company, from another company's staff", async () => {
    const admin = await tokenFor(ctx.app, globex.staff.ROLE_ADMIN.email);
    const res = await fetchFile(await documentUrl(admin, pngVisitor));
    expect(res.statusCode).toBe(200);
  });

  it('hands out no document URL without a signed-in session', async () => {
    expect(ctx.app.fileUrls.signed('0190f0f0-0000-7000-8000-000000000000', null)).toBeNull();
  });
});
