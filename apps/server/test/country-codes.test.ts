/**
 * Countries are stored as ISO codes (issue 18). Migration 0019 converts the names stored
 * before; countryCode() (packages/shared) reads names sent since. These hold the two
 * readings equal on the database under test, and check what the API stores.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { countryCode } from '@sesame/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, type DatabaseHandle } from '../src/db/client';
import { companies, events, visitors } from '../src/db/schema';
import { createTestDatabase, testDatabaseKind } from './helpers/db';
import { buildCompany, buildEvent, buildVisitor } from './helpers/factories';

const MIGRATION = readFileSync(path.join(MIGRATIONS_FOLDER, '0019_country_codes.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim());

/** The migration's (name, code) rows, read from its INSERT. */
function migrationNames(): [string, string][] {
  const insert = MIGRATION.find((s) => s.startsWith('INSERT INTO sesame_country_names'));
  if (!insert) throw new Error('migration 0019 has no name list');
  return [...insert.matchAll(/\('((?:[^']|'')+)', '([A-Z]{2})'\)/g)].map((m) => [
    m[1]!.replace(/''/g, "'"),
    m[2]!,
  ]);
}

describe(`stored countries become ISO codes (${testDatabaseKind})`, () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it("every name of migration 0019's list is the code countryCode() gives it", () => {
    const names = migrationNames();
    // The former French list (195) and the names Intl gives in French and English.
    expect(names.length).toBeGreaterThan(195);
    const differing = names.filter(([name, code]) => countryCode(name) !== code);
    expect(differing).toEqual([]);
  });

  it('converts names however they were written in companies, events and visitors; leaves unknown values', async () => {
    const db = database.db;
    const written: [stored: string, expected: string][] = [
      ['Côte d’Ivoire', 'CI'],
      ["Côte d'ivoire", 'CI'],
      ['COTE D’IVOIRE', 'CI'],
      ['  Sénégal ', 'SN'],
      ['Germany', 'DE'],
      ['Saint-Vincent-et-les-Grenadines', 'VC'],
      ['République démocratique du Congo', 'CD'],
      ['Birmanie', 'MM'],
      ['Atlantide', 'Atlantide'],
      ['CI', 'CI'],
    ];
    const rows: { table: 'companies' | 'events' | 'visitors'; id: string; expected: string }[] = [];
    for (const [stored, expected] of written) {
      const company = await buildCompany(db, { country: stored });
      const event = await buildEvent(db, { company, country: stored });
      const visitor = await buildVisitor(db, { company, country: stored });
      rows.push(
        { table: 'companies', id: company.id, expected },
        { table: 'events', id: event.id, expected },
        { table: 'visitors', id: visitor.id, expected },
      );
    }
    const nullCountry = await buildCompany(db, { country: null });

    for (const statement of MIGRATION) await db.execute(sql.raw(statement));

    const tables = { companies, events, visitors };
    for (const row of rows) {
      const table = tables[row.table];
      const [found] = await db
        .select({ country: table.country })
        .from(table)
        .where(eq(table.id, row.id));
      expect({ ...row, country: found?.country }).toEqual({ ...row, country: row.expected });
    }
    const [untouched] = await db
      .select({ country: companies.country })
      .from(companies)
      .where(eq(companies.id, nullCountry.id));
    expect(untouched?.country).toBeNull();
    // Its helpers are gone once it has run.
    const left = await db.execute(
      sql`select to_regclass('sesame_country_names') as t, to_regproc('sesame_country_key') as f`,
    );
    expect(left.rows[0]).toEqual({ t: null, f: null });
  });
});
