/**
 * Issue 29: visitors' badges, on PGlite and PostgreSQL. The badge page (HTML at the label's
 * size, its words in the visitor's language, every value escaped, nothing external, its own
 * CSP), the PDF at each label's exact media size read back as a printer would (`pdfinfo`, the
 * QR decoded by `zbarimg` at 300 dpi, the name by `pdftotext`), printing to a real IPP
 * Everywhere printer (`ippeveprinter`, whose kept job is that PDF), a printer that does not
 * answer (502, nothing recorded), reprints, and who may print what: the front desk of the
 * request's company and site, a kiosk of the request's site on its day.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BADGE_SIZES,
  ENGLISH_MESSAGES as en,
  FRENCH_MESSAGES as fr,
  ROLES,
  mayPerform,
  type BadgePrint,
  type BadgeSize,
  type Role,
} from '@sesame/shared';
import { auditEvents, badgePrints, companies, files, kiosks, sites, users } from '../src/db/schema';
import { badgePdf } from '../src/badges/render';
import { issuePairingCode, pairKiosk } from '../src/kiosks/device';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildSite, buildTenant, buildUser, buildVisitor } from './helpers/factories';
import { startIppPrinter, type TestIppPrinter } from './helpers/ipp-printer';
import { freePort } from './helpers/smtp';

const run = promisify(execFile);

/** A 24×32 JPEG: the kiosk camera's photo. */
const FACE_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAgAAAQABAAD//gAQTGF2YzU5LjM3LjEwMAD/2wBDAAgKCgsKCw0NDQ0NDRAPEBAQEBAQEBAQEBASEhIVFRUSEhIQEBISFBQVFRcXFxUVFRUXFxkZGR4eHBwjIyQrKzP/xABNAAEBAAAAAAAAAAAAAAAAAAAABAEBAQEAAAAAAAAAAAAAAAAAAAUGEAEAAAAAAAAAAAAAAAAAAAAAEQEAAAAAAAAAAAAAAAAAAAAA/8AAEQgAIAAYAwEiAAIRAAMRAP/aAAwDAQACEQMRAD8AvARGiAAAAAAf/9k=',
  'base64',
);

/** A plain PNG of `width`×`height` in one colour (a company logo that is no QR code). */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const crc32 = (bytes: Buffer) => {
    let crc = 0xffffffff;
    for (const byte of bytes) {
      let c = (crc ^ byte) & 0xff;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crc = (crc >>> 8) ^ c;
    }
    return (crc ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).fill(Buffer.from(rgb))]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const PRINTERS = ROLES.filter((role) => mayPerform(role, 'badges.print'));
const NOT_PRINTERS = ROLES.filter((role) => !mayPerform(role, 'badges.print'));

/** Today as the factories write a meeting's day (UTC sites). */
const today = () => new Date().toISOString().slice(0, 10).split('-').reverse().join('/');

/** A PDF's first page size in points, as `pdfinfo` reads it. */
async function pageSize(pdf: string): Promise<{ width: number; height: number }> {
  const { stdout } = await run('pdfinfo', [pdf]);
  const match = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(stdout);
  if (!match) throw new Error(`no page size in ${stdout}`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

/** The QR codes of a PDF's first page rendered at 300 dpi, as `zbarimg` reads them. */
async function qrCodes(pdf: string, dir: string): Promise<string[]> {
  const prefix = path.join(dir, `page-${Math.random().toString(36).slice(2)}`);
  await run('pdftoppm', ['-r', '300', '-png', '-f', '1', '-l', '1', '-singlefile', pdf, prefix]);
  const { stdout } = await run('zbarimg', ['--raw', '-q', `${prefix}.png`]);
  return stdout.split('\n').filter(Boolean);
}

const pdfText = async (pdf: string) => (await run('pdftotext', [pdf, '-'])).stdout;

/** Asserts `pdf` is the badge of `who` at `size`: its media size, its QR, its name. */
async function expectBadgePdf(
  pdf: string,
  size: BadgeSize,
  who: { uidn: string; firstname: string; lastname: string },
  dir: string,
) {
  const { width, height } = await pageSize(pdf);
  expect(width).toBeCloseTo((BADGE_SIZES[size].widthMm * 72) / 25.4, 1);
  expect(height).toBeCloseTo((BADGE_SIZES[size].heightMm * 72) / 25.4, 1);
  expect(await qrCodes(pdf, dir)).toEqual([who.uidn]);
  const text = (await pdfText(pdf)).replace(/\s+/g, ' ');
  expect(text).toContain(`${who.firstname} ${who.lastname}`);
}

describe(`badges (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let globex: Awaited<ReturnType<typeof buildTenant>>;
  let printer: TestIppPrinter;
  let workDir: string;
  let desk: ReturnType<typeof as>;
  let host: typeof users.$inferSelect;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-badges-'));
    printer = await startIppPrinter();
    acme = await buildTenant(ctx.db);
    globex = await buildTenant(ctx.db);
    await ctx.db
      .update(sites)
      .set({ name: 'Siège Plateau' })
      .where(eq(sites.id, acme.company.siteId));
    // The company's logo: a PNG, as the company form stores it.
    const logoName = 'a1b2c3d4e5f60718293a4b5c6d7e8f90.png';
    const logo = solidPng(120, 40, [27, 58, 107]);
    await ctx.app.storage.put(logoName, logo);
    const [logoRow] = await ctx.db
      .insert(files)
      .values({
        companyId: acme.company.id,
        ownerType: 'company_logo',
        ownerId: acme.company.id,
        storedName: logoName,
        mediaType: 'image/png',
        size: logo.length,
        sha256: 'x',
      })
      .returning();
    await ctx.db
      .update(companies)
      .set({ logoFileId: logoRow!.id })
      .where(eq(companies.id, acme.company.id));
    host = await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_EMPLOYEE',
      firstname: 'Mamadou',
      name: 'Diallo',
    });
    for (const role of ROLES) tokens[role] = await tokenFor(ctx.app, acme.staff[role].email);
    desk = as(ctx.app, tokens.ROLE_EMPLOYEE);
  });

  afterAll(async () => {
    await printer?.stop();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  /** A confirmed meeting of acme today (at `siteId`, the main site by default). */
  async function confirmedVisit(
    values: Partial<Parameters<typeof buildVisitor>[1]> = {},
    request: Partial<Parameters<typeof buildRequest>[1]> = {},
  ) {
    const visitor = await buildVisitor(ctx.db, {
      company: acme.company,
      firstname: 'Awa',
      lastname: 'Koné',
      organisationName: 'Orange CI',
      ...values,
    });
    const row = await buildRequest(ctx.db, {
      company: acme.company,
      visitor,
      hostUserId: host.id,
      status: 1,
      confirmed: true,
      ...request,
    });
    return { visitor, request: row };
  }

  /** A photo stored for `visitorId`, as the kiosk's walk-in stores it. */
  async function withPhoto() {
    const name = `${Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32)}.jpg`;
    await ctx.app.storage.put(name, FACE_JPEG);
    const [file] = await ctx.db
      .insert(files)
      .values({
        companyId: acme.company.id,
        ownerType: 'visitor_photo',
        storedName: name,
        mediaType: 'image/jpeg',
        size: FACE_JPEG.length,
        sha256: 'x',
      })
      .returning();
    return file!.id;
  }

  const setSitePrinter = (url: string | null, siteId = acme.company.siteId) =>
    ctx.db.update(sites).set({ badgePrinterUrl: url }).where(eq(sites.id, siteId));

  const printsOf = (requestId: string) =>
    ctx.db.select().from(badgePrints).where(eq(badgePrints.requestId, requestId));

  /** A kiosk of `siteId` and its device token. */
  async function kiosk(siteId: string, values: Partial<typeof kiosks.$inferInsert> = {}) {
    const [row] = await ctx.db
      .insert(kiosks)
      .values({ companyId: acme.company.id, siteId, name: 'Borne du hall', ...values })
      .returning();
    const secret = ctx.app.config.jwtSecret;
    const { code } = await issuePairingCode(ctx.db, secret, row!.id);
    const paired = await pairKiosk(ctx.db, secret, code);
    return { id: row!.id, call: as(ctx.app, paired!.token) };
  }

  it('the badge page: name, organisation, host, site, band, day, photo, logo and QR inlined; its own CSP', async () => {
    const photoFileId = await withPhoto();
    const { visitor, request } = await confirmedVisit({ photoFileId });
    const res = await desk({ method: 'GET', url: `/api/badges/${request.id}` });
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const html = res.body;
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('@page { size: 62mm 100mm; margin: 0 }');
    expect(html).toContain('Awa Koné');
    expect(html).toContain('Orange CI');
    expect(html).toContain('Hôte : Mamadou Diallo');
    expect(html).toContain('Siège Plateau');
    expect(html).toContain('>VISITEUR<');
    expect(html).toContain(`Valable le ${today()} uniquement`);
    expect(html).toContain(`data:image/jpeg;base64,${FACE_JPEG.toString('base64')}`);
    expect(html.match(/src="data:image\/png;base64,/g)).toHaveLength(2); // the logo and the QR
    // Nothing external: every image is inline, no link, no script without ?print=1.
    expect(html).not.toMatch(/(src|href)="(?!data:)/);
    expect(html).not.toContain('<script');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).toContain('img-src data:');
    expect(csp).toContain("script-src 'none'");
    expect(visitor.uidn).toBeTruthy();

    // ?print=1: one inline script, allowed by its nonce only.
    const printing = await desk({ method: 'GET', url: `/api/badges/${request.id}?print=1` });
    const nonce = /<script nonce="([^"]+)">[^<]*window\.print\(\)/.exec(printing.body)?.[1];
    expect(nonce).toBeTruthy();
    expect(String(printing.headers['content-security-policy'])).toContain(
      `script-src 'nonce-${nonce}'`,
    );
  });

  it("is said in the visitor's language, every value escaped, at the asked label size", async () => {
    const { request } = await confirmedVisit({
      language: 'en',
      firstname: 'Jane <b>',
      lastname: 'Doe & "Sons"',
      organisationName: '<script>alert(1)</script>',
    });
    const res = await desk({ method: 'GET', url: `/api/badges/${request.id}?size=A6` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toContain('<html lang="en">');
    expect(res.body).toContain('>VISITOR<');
    expect(res.body).toContain(en.badge.validOn(today()));
    expect(res.body).toContain('@page { size: 105mm 148mm; margin: 0 }');
    expect(res.body).toContain('Jane &lt;b&gt; Doe &amp; &quot;Sons&quot;');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script>alert');

    const bad = await desk({ method: 'GET', url: `/api/badges/${request.id}?size=A4` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(fr.kiosk.badgeSizeInvalid);
  });

  it('the PDF is at each label size exactly, its QR is the visitor code, its text the name', async () => {
    const photoFileId = await withPhoto();
    const { visitor, request } = await confirmedVisit({
      photoFileId,
      firstname: 'Marie-Éléonore',
      lastname: 'Kouassi-Ouattara',
      organisationName: 'Société Ivoirienne de Banque et de Commerce International',
    });
    for (const size of Object.keys(BADGE_SIZES) as BadgeSize[]) {
      const res = await desk({
        method: 'GET',
        url: `/api/badges/${request.id}?format=pdf&size=${size}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const file = path.join(workDir, `badge-${size}.pdf`);
      await writeFile(file, res.rawPayload);
      await expectBadgePdf(file, size, visitor, workDir);
      const text = await pdfText(file);
      expect(text).toContain('VISITEUR');
      // The QR, the photo (JPEG, kept as DCT) and the logo (PNG) are the page's images.
      const images = (await run('pdfimages', ['-list', file])).stdout
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .map((line) => line.trim().split(/\s+/));
      expect(
        images.map(([, , , width, height, , , , enc]) => `${width}x${height} ${enc}`).sort(),
      ).toEqual(['120x40 image', '24x32 jpeg', '400x400 image']);
      expect(text).toContain(`Valable le ${today()} uniquement`);
    }
  });

  it("embeds a photo held in a slice of Node's shared Buffer pool (pdf-lib reads the whole ArrayBuffer)", async () => {
    const pooled = Buffer.from(FACE_JPEG.toString('base64'), 'base64');
    expect(pooled.byteOffset > 0 || pooled.buffer.byteLength > pooled.length).toBe(true);
    const pdf = await badgePdf(
      {
        firstname: 'Awa',
        lastname: 'Koné',
        organisation: 'Orange CI',
        host: null,
        site: 'Siège',
        company: 'Demo SA',
        day: today(),
        language: 'fr',
        uidn: 'ABCD1234EFGH5678',
        photo: { bytes: pooled, mediaType: 'image/jpeg' },
        logo: null,
      },
      '54x86',
    );
    const file = path.join(workDir, 'pooled.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdfimages', ['-list', file]);
    expect(stdout).toMatch(/\s24\s+32\s+rgb\s+3\s+8\s+jpeg\s/);
  });

  it('prints over IPP: the printer keeps the very PDF; a second print is a reprint; both recorded and audited', async () => {
    await setSitePrinter(printer.url);
    try {
      const { visitor, request } = await confirmedVisit({ firstname: 'Yao', lastname: 'Kouamé' });
      const before = (await printer.jobs()).length;
      const first = await desk({
        method: 'POST',
        url: `/api/badges/${request.id}/print`,
        payload: { via: 'ipp' },
      });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().message).toBe(fr.badge.printed);
      const printed = first.json<{ data: BadgePrint }>().data;
      expect(printed).toMatchObject({ printer: printer.url, badge_size: '62x100', reprint: false });

      const jobs = await printer.waitForJobs(before + 1);
      const job = path.join(workDir, 'job.pdf');
      await writeFile(job, await readFile(jobs[jobs.length - 1]!));
      await expectBadgePdf(job, '62x100', visitor, workDir);

      const again = await desk({
        method: 'POST',
        url: `/api/badges/${request.id}/print`,
        headers: { 'accept-language': 'en' },
        payload: {},
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().message).toBe(en.badge.reprinted);
      expect(again.json<{ data: BadgePrint }>().data.reprint).toBe(true);
      await printer.waitForJobs(before + 2);

      const list = await desk({ method: 'GET', url: `/api/badges/${request.id}/prints` });
      expect(list.statusCode).toBe(200);
      const history = list.json<{ data: BadgePrint[] }>().data;
      expect(history.map((p) => p.reprint)).toEqual([true, false]);

      const rows = await printsOf(request.id);
      expect(rows).toHaveLength(2);
      expect(rows.every((r) => r.printedBy === acme.staff.ROLE_EMPLOYEE.id && !r.kioskId)).toBe(
        true,
      );
      const entries = await ctx.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.subjectId, request.id), eq(auditEvents.action, 'badge.printed')));
      expect(entries).toHaveLength(2);
      expect(entries.map((e) => e.actorUserId)).toEqual([
        acme.staff.ROLE_EMPLOYEE.id,
        acme.staff.ROLE_EMPLOYEE.id,
      ]);
      expect(entries.map((e) => (e.detail as { reprint: boolean }).reprint).sort()).toEqual([
        false,
        true,
      ]);
      // The detail names no person and no printer address.
      expect(JSON.stringify(entries.map((e) => e.detail))).not.toMatch(/Yao|Kouam|ipp:\/\//);
    } finally {
      await setSitePrinter(null);
    }
  });

  it('a printer that does not answer is a 502 naming it, and nothing is recorded', async () => {
    const down = `ipp://127.0.0.1:${await freePort()}/ipp/print`;
    await setSitePrinter(down);
    try {
      const { request } = await confirmedVisit();
      const res = await desk({
        method: 'POST',
        url: `/api/badges/${request.id}/print`,
        payload: { via: 'ipp' },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toBe(fr.badge.printerUnreachable(down));
      expect(await printsOf(request.id)).toHaveLength(0);
    } finally {
      await setSitePrinter(null);
    }
  });

  it("without a printer: 'ipp' is a 400, 'browser' records the browser's print", async () => {
    const { request } = await confirmedVisit();
    const ipp = await desk({
      method: 'POST',
      url: `/api/badges/${request.id}/print`,
      payload: { via: 'ipp' },
    });
    expect(ipp.statusCode).toBe(400);
    expect(ipp.json().message).toBe(fr.badge.noPrinter);
    const browser = await desk({
      method: 'POST',
      url: `/api/badges/${request.id}/print`,
      payload: { via: 'browser' },
    });
    expect(browser.statusCode, browser.body).toBe(200);
    expect(browser.json<{ data: BadgePrint }>().data).toMatchObject({
      printer: 'browser',
      reprint: false,
    });
    expect(await printsOf(request.id)).toHaveLength(1);

    const bad = await desk({
      method: 'POST',
      url: `/api/badges/${request.id}/print`,
      payload: { via: 'fax' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a request not confirmed has no badge (400), pending or declined', async () => {
    for (const values of [{}, { status: 0, confirmed: false }]) {
      const { request } = await confirmedVisit({}, { status: null, confirmed: null, ...values });
      for (const call of [
        { method: 'GET' as const, url: `/api/badges/${request.id}` },
        { method: 'GET' as const, url: `/api/badges/${request.id}?format=pdf` },
        {
          method: 'POST' as const,
          url: `/api/badges/${request.id}/print`,
          payload: { via: 'browser' },
        },
      ]) {
        const res = await desk(call);
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(400);
        expect(res.json().message).toBe(fr.badge.notConfirmed);
      }
      expect(await printsOf(request.id)).toHaveLength(0);
    }
  });

  it('who may: 401 without a token, 403 without badges.print, 404 for another company, 403 beyond site limits', async () => {
    const { request } = await confirmedVisit();
    const urls = [
      { method: 'GET' as const, url: `/api/badges/${request.id}` },
      {
        method: 'POST' as const,
        url: `/api/badges/${request.id}/print`,
        payload: { via: 'browser' },
      },
      { method: 'GET' as const, url: `/api/badges/${request.id}/prints` },
    ];
    expect(NOT_PRINTERS.length).toBeGreaterThan(0);
    for (const call of urls) {
      expect((await as(ctx.app, null)(call)).statusCode).toBe(401);
      for (const role of NOT_PRINTERS) {
        expect((await as(ctx.app, tokens[role])(call)).statusCode, role).toBe(403);
      }
      // Another company's front desk: the request does not exist for them.
      for (const role of ['ROLE_EMPLOYEE', 'ROLE_MANAGER', 'ROLE_SUPER_ADMIN'] as Role[]) {
        const token = await tokenFor(ctx.app, globex.staff[role].email);
        expect((await as(ctx.app, token)(call)).statusCode, role).toBe(404);
      }
    }
    // Every role with the right prints its own company's badge.
    for (const role of PRINTERS) {
      const res = await as(ctx.app, tokens[role])(urls[2]!);
      expect(res.statusCode, role).toBe(200);
    }
    // A desk limited to another site of the company.
    const annex = await buildSite(ctx.db, { company: acme.company, name: 'Annexe' });
    const limited = await buildUser(ctx.db, {
      company: acme.company,
      role: 'ROLE_EMPLOYEE',
      siteIds: [annex.id],
    });
    const limitedCall = as(ctx.app, await tokenFor(ctx.app, limited.email));
    for (const call of urls) {
      const res = await limitedCall(call);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(fr.site.notYours);
    }
    // …and prints the badges of its own site.
    const { request: annexRequest } = await confirmedVisit({ siteId: annex.id });
    expect(
      (await limitedCall({ method: 'GET', url: `/api/badges/${annexRequest.id}` })).statusCode,
    ).toBe(200);
    // No refused call printed anything.
    expect(await printsOf(request.id)).toHaveLength(0);
  });

  it("a kiosk prints its own site's badges of today at its label size, to its printer", async () => {
    const device = await kiosk(acme.company.siteId, {
      printerUrl: printer.url,
      badgeSize: '54x86',
    });
    const { visitor, request } = await confirmedVisit({ firstname: 'Fatou', lastname: 'Bamba' });

    const page = await device.call({ method: 'GET', url: `/api/kiosk/badges/${request.id}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain('@page { size: 54mm 86mm; margin: 0 }');
    expect(page.body).toContain('Fatou Bamba');

    const before = (await printer.jobs()).length;
    const res = await device.call({
      method: 'POST',
      url: `/api/kiosk/badges/${request.id}/print`,
      payload: { via: 'ipp' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: BadgePrint }>().data).toMatchObject({
      printer: printer.url,
      badge_size: '54x86',
      reprint: false,
    });
    const jobs = await printer.waitForJobs(before + 1);
    const job = path.join(workDir, 'kiosk-job.pdf');
    await writeFile(job, await readFile(jobs[jobs.length - 1]!));
    await expectBadgePdf(job, '54x86', visitor, workDir);

    const [row] = await printsOf(request.id);
    expect(row).toMatchObject({ kioskId: device.id, printedBy: null, badgeSize: '54x86' });
    const [entry] = await ctx.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectId, request.id), eq(auditEvents.action, 'badge.printed')));
    expect(entry).toMatchObject({ actorUserId: null, companyId: acme.company.id });
    expect(entry!.detail).toMatchObject({ kioskId: device.id, via: 'ipp', reprint: false });

    // The tablet's own print dialog: recorded as the browser's, a reprint now.
    const browser = await device.call({
      method: 'POST',
      url: `/api/kiosk/badges/${request.id}/print`,
      payload: { via: 'browser' },
    });
    expect(browser.json<{ data: BadgePrint }>().data).toMatchObject({
      printer: 'browser',
      reprint: true,
    });
  });

  it("a kiosk without a printer uses its site's, else says there is none", async () => {
    const device = await kiosk(acme.company.siteId);
    const { request } = await confirmedVisit();
    const none = await device.call({
      method: 'POST',
      url: `/api/kiosk/badges/${request.id}/print`,
      payload: { via: 'ipp' },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(fr.badge.noPrinter);
    await setSitePrinter(printer.url);
    try {
      const before = (await printer.jobs()).length;
      const res = await device.call({
        method: 'POST',
        url: `/api/kiosk/badges/${request.id}/print`,
        payload: { via: 'ipp' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ data: BadgePrint }>().data).toMatchObject({
        printer: printer.url,
        badge_size: '62x100',
      });
      await printer.waitForJobs(before + 1);
    } finally {
      await setSitePrinter(null);
    }
  });

  it("a kiosk reaches no other site's, no other day's, no unconfirmed badge; no staff token opens it", async () => {
    const annex = await buildSite(ctx.db, { company: acme.company, name: 'Annexe kiosque' });
    const annexKiosk = await kiosk(annex.id);
    const device = await kiosk(acme.company.siteId);
    const { request } = await confirmedVisit();
    const tomorrow = new Date(Date.now() + 86_400_000)
      .toISOString()
      .slice(0, 10)
      .split('-')
      .reverse()
      .join('/');
    const { request: later } = await confirmedVisit({ requestDate: tomorrow });
    const { request: pending } = await confirmedVisit({}, { status: null, confirmed: null });
    const { request: other } = await (async () => {
      const visitor = await buildVisitor(ctx.db, { company: globex.company });
      return {
        request: await buildRequest(ctx.db, {
          company: globex.company,
          visitor,
          status: 1,
          confirmed: true,
        }),
      };
    })();
    const calls = (id: string) => [
      { method: 'GET' as const, url: `/api/kiosk/badges/${id}` },
      {
        method: 'POST' as const,
        url: `/api/kiosk/badges/${id}/print`,
        payload: { via: 'browser' },
      },
    ];
    for (const call of calls(request.id)) {
      expect((await annexKiosk.call(call)).statusCode, 'another site').toBe(404);
      const staff = await as(ctx.app, tokens.ROLE_ADMIN)(call);
      expect(staff.statusCode).toBe(401);
      expect(staff.json().message).toBe(fr.kiosk.deviceRefused);
    }
    for (const id of [later.id, other.id]) {
      for (const call of calls(id)) expect((await device.call(call)).statusCode).toBe(404);
    }
    for (const call of calls(pending.id)) {
      const res = await device.call(call);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(fr.badge.notConfirmed);
    }
    // A device token opens no staff badge route.
    expect(
      (await device.call({ method: 'GET', url: `/api/badges/${request.id}` })).statusCode,
    ).toBe(401);
    for (const id of [request.id, later.id, pending.id]) expect(await printsOf(id)).toHaveLength(0);
  });
});
