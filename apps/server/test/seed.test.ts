/**
 * The first start's seed: the default company can be saved as it is on 'Éditer
 * l'Entreprise' (every field but the logo is required there, spec §5), a second
 * start changes nothing, and two instances starting together on a new database
 * migrate and seed it once.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { arrayContains, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { companyUpdateSchema, type Company } from '@sesame/shared';
import { companies, users } from '../src/db/schema';
import { seedFirstRun } from '../src/setup/seed';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { MIGRATIONS_FOLDER, openPostgres } from '../src/db/client';
import { withDatabase } from './global-setup';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { TEST_PASSWORD } from './helpers/factories';

/** The edit form's text fields: what the page sends back of a company it loaded. */
const EDIT_FIELDS = Object.keys(companyUpdateSchema.shape) as (keyof Company)[];

describe(`first start seed (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const seedConfig = () => ({
    ...ctx.config,
    adminEmail: 'owner@demo.test',
    adminPassword: TEST_PASSWORD,
  });

  it('seeds a default company the edit form and the server accept unchanged', async () => {
    const first = await seedFirstRun(ctx.db, seedConfig());
    expect(first.companyCreated).toBe(true);
    expect(first.admin).toMatchObject({ email: 'owner@demo.test', generated: false });

    const token = await tokenFor(ctx.app, 'owner@demo.test');
    const read = await as(ctx.app, token)({ method: 'GET', url: '/api/company/demo' });
    expect(read.statusCode).toBe(200);
    const company = read.json().data as Company;
    expect(company).toMatchObject({ name: 'Demo', slug: 'demo', email: 'owner@demo.test' });

    const fields = Object.fromEntries(
      EDIT_FIELDS.map((key) => [key, company[key] == null ? undefined : String(company[key])]),
    );
    // The browser's check (the shared schema) passes...
    expect(companyUpdateSchema.safeParse(fields).success).toBe(true);
    // ...and so does the server's save of the same fields.
    const saved = await as(
      ctx.app,
      token,
    )({
      method: 'POST',
      url: `/api/company/${company.id}`,
      ...multipart(fields),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe('Entreprise mise à jour avec succès.');
  });

  it('leaves an existing default company and admin alone on the next start', async () => {
    const [before] = await ctx.db.select().from(companies).where(eq(companies.slug, 'demo'));
    const again = await seedFirstRun(ctx.db, seedConfig());
    expect(again).toEqual({ companyCreated: false });
    const [after] = await ctx.db.select().from(companies).where(eq(companies.slug, 'demo'));
    expect(after).toEqual(before);
    const admins = await ctx.db.select().from(users).where(eq(users.email, 'owner@demo.test'));
    expect(admins).toHaveLength(1);
  });
});

describe(`two instances starting together (${testDatabaseKind})`, () => {
  it('seed a new database once: one default company, one admin, neither start fails', async () => {
    const database = await createTestDatabase();
    try {
      const config = {
        defaultCompanySlug: 'demo',
        adminEmail: 'owner@twins.test',
        adminPassword: TEST_PASSWORD,
        timezone: 'Africa/Abidjan',
      };
      const starts = await Promise.all([
        seedFirstRun(database.db, config),
        seedFirstRun(database.db, config),
      ]);
      expect(starts.filter((s) => s.companyCreated)).toHaveLength(1);
      expect(starts.filter((s) => s.admin)).toHaveLength(1);
      const demo = await database.db.select().from(companies).where(eq(companies.slug, 'demo'));
      expect(demo).toHaveLength(1);
      const admins = await database.db
        .select()
        .from(users)
        .where(arrayContains(users.roles, ['ROLE_ADMIN']));
      expect(admins.map((a) => a.email)).toEqual(['owner@twins.test']);
    } finally {
      await database.close();
    }
  });

  it.runIf(testDatabaseKind === 'postgres')(
    'migrate an empty PostgreSQL database once, the second waiting for the first',
    async () => {
      const url = process.env.TEST_DATABASE_URL ?? '';
      const name = `sesame_twins_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      try {
        const handles = await Promise.all([
          openPostgres(withDatabase(url, name), 2),
          openPostgres(withDatabase(url, name), 2),
        ]);
        const applied = await handles[0].db.execute<{ count: number }>(
          sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
        );
        const folder = await readdir(MIGRATIONS_FOLDER);
        expect(applied.rows[0]?.count).toBe(folder.filter((f) => f.endsWith('.sql')).length);
        await Promise.all(handles.map((h) => h.close()));
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
  );
});
