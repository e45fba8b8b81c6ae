/**
 * Issue 27: a person's export is named after them and the day, in their company's time
 * zone (`sesame-donnees-awa-kone-2026-11-27.zip`), not 'donnees-personnelles.zip' for
 * everyone. The name is what a visitor typed: the header stays safe whatever it holds
 * (ASCII `filename` with no quote, slash nor control character; RFC 5987 `filename*`
 * with the name as written, letters and digits only).
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sites } from '../src/db/schema';
import { exportFileNames } from '../src/privacy/export-name';
import { dayOf } from '../src/time-zones';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildQrUser, buildTenant, buildVisitor } from './helpers/factories';

/** `filename="…"` and the decoded `filename*=UTF-8''…` of a Content-Disposition. */
function fileNames(disposition: string) {
  const ascii = /; filename="([^"]*)"/.exec(disposition)?.[1];
  const encoded = /; filename\*=UTF-8''(\S+)$/.exec(disposition)?.[1];
  return { ascii, unicode: encoded === undefined ? undefined : decodeURIComponent(encoded) };
}

/** Today in `timeZone`, read around the call so a midnight between the two still passes. */
async function aroundToday<T>(timeZone: string, call: () => Promise<T>) {
  const before = dayOf(new Date(), timeZone);
  const result = await call();
  return { result, days: new Set([before, dayOf(new Date(), timeZone)]) };
}

describe('exportFileNames', () => {
  it('folds the name to ASCII for filename, keeps it as written for filename*', () => {
    expect(exportFileNames('sesame-donnees', 'Awa Koné', '2026-11-27')).toEqual({
      ascii: 'sesame-donnees-awa-kone-2026-11-27.zip',
      unicode: 'sesame-donnees-awa-koné-2026-11-27.zip',
    });
  });

  it('leaves out a name with nothing to keep, and bounds a long one', () => {
    expect(exportFileNames('sesame-donnees', '', '2026-11-27').ascii).toBe(
      'sesame-donnees-2026-11-27.zip',
    );
    // A name in a script with no ASCII letters: the ASCII name has none, filename* has it.
    expect(exportFileNames('sesame-donnees', 'عائشة', '2026-11-27')).toEqual({
      ascii: 'sesame-donnees-2026-11-27.zip',
      unicode: 'sesame-donnees-عائشة-2026-11-27.zip',
    });
    const long = exportFileNames('sesame-donnees', 'Aminata '.repeat(40), '2026-11-27');
    expect(long.ascii.length).toBeLessThanOrEqual('sesame-donnees--2026-11-27.zip'.length + 60);
    expect(Array.from(long.unicode).length).toBeLessThanOrEqual(
      'sesame-donnees--2026-11-27.zip'.length + 60,
    );
    expect(long.ascii).not.toMatch(/--/);
  });
});

describe(`the export's file name (${testDatabaseKind})`, () => {
  const ctx = useTestApp();

  it("carries the visitor's name and today in the company's (main site's) zone, in both spellings", async () => {
    const { company, staff } = await buildTenant(ctx.db);
    // UTC+14: its day is often not the server's, so the zone is what decides.
    const timeZone = 'Pacific/Kiritimati';
    // The company's day is its main site's (issue 28).
    await ctx.db.update(sites).set({ timezone: timeZone }).where(eq(sites.id, company.siteId));
    const visitor = await buildVisitor(ctx.db, { company, firstname: 'Awa', lastname: 'Koné' });
    const manager = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_MANAGER.email));

    const { result: res, days } = await aroundToday(timeZone, () =>
      manager({ method: 'GET', url: `/api/privacy/visitor/${visitor.id}/export` }),
    );
    expect(res.statusCode).toBe(200);
    const disposition = res.headers['content-disposition'] as string;
    expect(disposition).toMatch(/^attachment; filename="[^"]+"; filename\*=UTF-8''\S+$/);
    const { ascii, unicode } = fileNames(disposition);
    const day = [...days].find((d) => ascii === `sesame-donnees-awa-kone-${d}.zip`);
    expect(day, ascii).toBeDefined();
    expect(unicode).toBe(`sesame-donnees-awa-koné-${day}.zip`);

    const english = await manager({
      method: 'GET',
      url: `/api/privacy/visitor/${visitor.id}/export`,
      headers: { 'accept-language': 'en' },
    });
    expect(fileNames(english.headers['content-disposition'] as string).ascii).toMatch(
      /^sesame-personal-data-awa-kone-\d{4}-\d{2}-\d{2}\.zip$/,
    );
  });

  it('stays a safe header whatever the name holds: quotes, slashes, control characters', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const visitor = await buildVisitor(ctx.db, {
      company,
      firstname: 'Zoé "O\'Neil"\r\nX-Injected: 1',
      lastname: '../..\\Ève\u0007\u202e李',
    });
    const admin = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_ADMIN.email));
    const res = await admin({ method: 'GET', url: `/api/privacy/visitor/${visitor.uidn}/export` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-injected']).toBeUndefined();
    const disposition = res.headers['content-disposition'] as string;
    // Printable ASCII only, and the one pair of quotes around the ASCII name.
    expect(disposition).toMatch(/^[\x20-\x7e]+$/);
    expect(disposition.split('"')).toHaveLength(3);
    const { ascii, unicode } = fileNames(disposition);
    expect(ascii).toMatch(/^sesame-donnees-zoe-o-neil-x-injected-1-eve-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(unicode).toMatch(
      /^sesame-donnees-zoé-o-neil-x-injected-1-ève-李-\d{4}-\d{2}-\d{2}\.zip$/u,
    );
  });

  it('names a card holder by their card, and one without a name by the day alone', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const admin = as(ctx.app, await tokenFor(ctx.app, staff.ROLE_ADMIN.email));
    const named = await buildQrUser(ctx.db, { company, firstname: 'Yao', lastname: 'Kouassi' });
    const nameless = await buildQrUser(ctx.db, { company, firstname: null, lastname: null });
    const names = async (id: string) =>
      fileNames(
        (await admin({ method: 'GET', url: `/api/privacy/qr_user/${id}/export` })).headers[
          'content-disposition'
        ] as string,
      );
    expect((await names(named.id)).ascii).toMatch(
      /^sesame-donnees-yao-kouassi-\d{4}-\d{2}-\d{2}\.zip$/,
    );
    const anonymous = await names(nameless.id);
    expect(anonymous.ascii).toMatch(/^sesame-donnees-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(anonymous.unicode).toBe(anonymous.ascii);
  });
});
