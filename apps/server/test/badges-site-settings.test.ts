/**
 * Issue 29: a site's badge printer (an IPP address) and label size, set on the sites screen
 * (`/api/company/{id}/sites`), on PGlite and PostgreSQL: saved, cleared by a blank, kept when
 * left out, refused with the field's own message when malformed; the site's label is the one
 * its badges are laid out for (the page's @page, the PDF's media size).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRENCH_MESSAGES as fr, type Site } from '@sesame/shared';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildRequest, buildTenant, buildVisitor } from './helpers/factories';

const run = promisify(execFile);

describe(`a site's badge settings (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let tenant: Awaited<ReturnType<typeof buildTenant>>;
  let manager: ReturnType<typeof as>;
  let workDir: string;

  beforeAll(async () => {
    tenant = await buildTenant(ctx.db);
    manager = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_MANAGER.email));
    workDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-badge-site-'));
  });
  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const siteUrl = () => `/api/company/${tenant.company.id}/sites/${tenant.company.siteId}`;
  const put = (payload: Record<string, unknown>) =>
    manager({ method: 'PUT', url: siteUrl(), payload });

  it('a new site has no printer and the 62×100 label; a creation may set both', async () => {
    const main = await manager({ method: 'GET', url: siteUrl() });
    expect(main.json<{ data: Site }>().data).toMatchObject({
      badge_printer_url: null,
      badge_size: '62x100',
    });
    const created = await manager({
      method: 'POST',
      url: `/api/company/${tenant.company.id}/sites`,
      payload: {
        name: `Annexe ${Date.now()}`,
        timezone: 'Africa/Abidjan',
        badge_printer_url: 'ipps://printer.example.com/ipp/print',
        badge_size: 'A6',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<{ data: Site }>().data).toMatchObject({
      badge_printer_url: 'ipps://printer.example.com/ipp/print',
      badge_size: 'A6',
    });
  });

  it('saves, keeps when left out, clears with a blank; refuses a malformed address or size', async () => {
    const saved = await put({
      badge_printer_url: ' ipp://192.168.1.20/ipp/print ',
      badge_size: '54x86',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ data: Site }>().data).toMatchObject({
      badge_printer_url: 'ipp://192.168.1.20/ipp/print',
      badge_size: '54x86',
    });
    const kept = await put({ name: `Siège ${Date.now()}` });
    expect(kept.json<{ data: Site }>().data).toMatchObject({
      badge_printer_url: 'ipp://192.168.1.20/ipp/print',
      badge_size: '54x86',
    });

    for (const address of [
      'ftp://printer/ipp',
      'ipp://',
      'javascript:alert(1)',
      'ipp://a b/print',
    ]) {
      const res = await put({ badge_printer_url: address });
      expect(res.statusCode, address).toBe(400);
      expect(res.json().message).toBe(fr.kiosk.printerInvalid);
    }
    const size = await put({ badge_size: 'A4' });
    expect(size.statusCode).toBe(400);
    expect(size.json().message).toBe(fr.kiosk.badgeSizeInvalid);

    const cleared = await put({ badge_printer_url: '' });
    expect(cleared.json<{ data: Site }>().data.badge_printer_url).toBeNull();
  });

  it("the site's label is its badges' size: the page's @page and the PDF's media size", async () => {
    await put({ badge_size: '54x86' });
    const visitor = await buildVisitor(ctx.db, { company: tenant.company });
    const request = await buildRequest(ctx.db, {
      company: tenant.company,
      visitor,
      status: 1,
      confirmed: true,
    });
    const desk = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_EMPLOYEE.email));
    const page = await desk({ method: 'GET', url: `/api/badges/${request.id}` });
    expect(page.body).toContain('@page { size: 54mm 86mm; margin: 0 }');
    const pdf = await desk({ method: 'GET', url: `/api/badges/${request.id}?format=pdf` });
    const file = path.join(workDir, 'site-label.pdf');
    await writeFile(file, pdf.rawPayload);
    const { stdout } = await run('pdfinfo', [file]);
    expect(stdout).toMatch(/Page size:\s+153\.07\d? x 243\.78\d? pts/);
  });
});
