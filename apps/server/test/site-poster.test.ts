/**
 * A site's own poster (issue 28): the company link QR with `?site=` encodes the
 * request-meeting link naming that site, so the visitor form asks no site.
 */
import { describe, expect, it } from 'vitest';
import { qrPng, qrTargets } from '../src/qr/qr';
import { as, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildSite } from './helpers/factories';

describe(`a site's poster QR (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const get = (url: string) => as(ctx.app, null)({ method: 'GET', url });

  it("encodes /{slug}/request-meeting?site=<id> for one of the company's active sites", async () => {
    const company = await buildCompany(ctx.db, { timezone: 'Pacific/Noumea' });
    const second = await buildSite(ctx.db, {
      company,
      name: 'Los Angeles',
      timezone: 'America/Los_Angeles',
    });
    const res = await get(`/api/public/qrcode-link/qrcode-${company.slug}.png?site=${second.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    const link = qrTargets.companyRequestMeeting(ctx.config.publicUrl, company.slug, second.id);
    expect(link).toBe(`${ctx.config.publicUrl}/${company.slug}/request-meeting?site=${second.id}`);
    expect(res.rawPayload.equals(await qrPng(link))).toBe(true);

    // Without ?site=: the company's own link, as before.
    const plain = await get(`/api/public/qrcode-link/qrcode-${company.slug}.png`);
    expect(plain.statusCode).toBe(200);
    expect(
      plain.rawPayload.equals(
        await qrPng(qrTargets.companyRequestMeeting(ctx.config.publicUrl, company.slug)),
      ),
    ).toBe(true);
  });

  it("another company's site, an archived site or a malformed id has no poster", async () => {
    const company = await buildCompany(ctx.db);
    const other = await buildCompany(ctx.db);
    const archived = await buildSite(ctx.db, { company, archivedAt: new Date() });
    const url = (site: string) => `/api/public/qrcode-link/qrcode-${company.slug}.png?site=${site}`;
    expect((await get(url(other.siteId))).statusCode).toBe(404);
    expect((await get(url(archived.id))).statusCode).toBe(404);
    expect((await get(url('not-a-uuid'))).statusCode).toBe(400);
  });
});
