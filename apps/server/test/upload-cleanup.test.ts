/**
 * Issue 13: one cleanup (`withStoredFileCleanup`) serves every upload. For each
 * route that stores a file, a request refused by validation stores nothing, and a
 * request whose transaction fails after the bytes were written leaves no file in
 * storage either. The failure is the database's own: a trigger refuses the `files`
 * row, which is written right after the bytes.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../src/config';
import { qrPng } from '../src/qr/qr';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import {
  buildCompany,
  buildEvent,
  buildTenant,
  companyFormFields,
  visitorFormFields,
} from './helpers/factories';

type Upload = { filename: string; contentType: string; bytes: Buffer };

describe(`every upload cleans up after a failure (${testDatabaseKind})`, () => {
  const ctx = useTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, publicFormPerWindow: 10_000 } });
  let admin: string;
  let companyId: string;
  let companySlug: string;
  let eventSlug: string;
  let png: Buffer;

  beforeAll(async () => {
    const tenant = await buildTenant(ctx.db);
    companyId = tenant.company.id;
    companySlug = tenant.company.slug;
    admin = await tokenFor(ctx.app, tenant.staff.ROLE_ADMIN.email);
    eventSlug = (await buildEvent(ctx.db, { company: tenant.company })).slug;
    png = await qrPng('an upload');
  });

  /** Every file under the storage folder. */
  async function storedFiles(): Promise<string[]> {
    const root = path.join(ctx.config.dataDir, 'files');
    const found: string[] = [];
    let shards: string[];
    try {
      shards = await readdir(root);
    } catch {
      return found; // nothing stored yet
    }
    for (const shard of shards) found.push(...(await readdir(path.join(root, shard))));
    return found;
  }

  async function refuseFileRows() {
    await ctx.db.execute(sql`
      create or replace function test_refuse_file_row() returns trigger language plpgsql as $$
      begin raise exception 'test: the files row is refused'; end $$`);
    await ctx.db.execute(sql`
      create trigger test_refuse_file_row before insert on files
      for each row execute function test_refuse_file_row()`);
  }

  afterEach(async () => {
    await ctx.db.execute(sql`drop trigger if exists test_refuse_file_row on files`);
  });

  const image = (): Upload => ({ filename: 'a.png', contentType: 'image/png', bytes: png });

  const companyFields = (name: string) =>
    companyFormFields({ name, email: 'contact@upload.example' });
  const visitorFields = () => visitorFormFields({ language: 'fr' });

  /** Each upload: a valid request, and the same one with a field that fails validation. */
  const uploads: Record<string, (valid: boolean) => Promise<InjectOptions> | InjectOptions> = {
    'company creation': (valid) => ({
      method: 'POST',
      url: '/api/company',
      ...multipart(
        { ...companyFields(`Upload ${Math.random()}`), email: valid ? 'a@b.example' : 'nope' },
        { logo: image() },
      ),
    }),
    'company update (edit form)': async (valid) => {
      const company = await buildCompany(ctx.db);
      return {
        method: 'POST',
        url: `/api/company/${company.id}`,
        ...multipart(
          { ...companyFields(company.name), phone_number: valid ? '0102030405' : 'x' },
          { logo: image() },
        ),
      };
    },
    'company update (inline form)': async (valid) => {
      const company = await buildCompany(ctx.db);
      return {
        method: 'PUT',
        url: `/api/company/${company.id}`,
        ...multipart({ name: valid ? 'Renamed' : '', description: 'Nouvelle' }, { logo: image() }),
      };
    },
    'permanent QR code': (valid) => ({
      method: 'POST',
      url: '/api/create-qr',
      ...multipart(
        { company_id: companyId, email: valid ? 'qr@example.com' : 'nope' },
        { user_document: image() },
      ),
    }),
    'member card': (valid) => ({
      method: 'POST',
      url: '/api/create-member',
      ...multipart(
        {
          firstname: 'Awa',
          lastname: valid ? 'Membre' : '',
          email: 'member@example.com',
          contact: '0102030405',
          title: 'Membre',
          company_id: companyId,
        },
        { user_document: image() },
      ),
    }),
    'visitor form': (valid) => ({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          ...visitorFields(),
          company_id: companySlug,
          address: 'Rue 12',
          city: 'Abidjan',
          country: 'CI',
          state: 'Lagunes',
          zipcode: '01',
          host: 'M. Diallo',
          reason: 'Réunion',
          request_date: '24/11/2030',
          request_time: '10:30',
          ...(valid ? {} : { lastname: '' }),
        },
        { request_image: image() },
      ),
    }),
    'event registration': (valid) => ({
      method: 'POST',
      url: `/api/evenement/${companySlug}/${eventSlug}/register`,
      ...multipart(
        { ...visitorFields(), ...(valid ? {} : { email: 'nope' }) },
        {
          request_image: image(),
        },
      ),
    }),
  };

  for (const [kind, build] of Object.entries(uploads)) {
    it(`${kind}: refused by validation (400), nothing stored`, async () => {
      const before = await storedFiles();
      const res = await as(ctx.app, admin)(await build(false));
      expect(res.statusCode, res.body).toBe(400);
      expect(await storedFiles()).toEqual(before);
    });

    it(`${kind}: the transaction fails after the bytes were written, no file is left`, async () => {
      const before = await storedFiles();
      // The same request stores a file when nothing fails (the route does write one).
      const options = await build(true);
      await refuseFileRows();
      const res = await as(ctx.app, admin)(options);
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
      expect(await storedFiles()).toEqual(before);
    });

    it(`${kind}: succeeds and keeps its file when nothing fails`, async () => {
      const before = await storedFiles();
      const res = await as(ctx.app, admin)(await build(true));
      expect(res.statusCode, res.body).toBeLessThan(300);
      expect((await storedFiles()).length).toBeGreaterThan(before.length);
    });
  }
});
