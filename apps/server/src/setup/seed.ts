/**
 * First start: the default company and a platform admin. Idempotent: a
 * database that already has them is left alone.
 */
import { randomBytes } from 'node:crypto';
import { arrayContains, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies, users } from '../db/schema';

export interface SeedResult {
  companyCreated: boolean;
  /** Set only when an admin was created on this start. */
  admin?: { email: string; password: string; generated: boolean };
}

export async function seedFirstRun(
  db: Db,
  config: Pick<Config, 'defaultCompanySlug' | 'adminEmail' | 'adminPassword' | 'timezone'>,
): Promise<SeedResult> {
  const result: SeedResult = { companyCreated: false };
  let [company] = await db
    .select()
    .from(companies)
    .where(eq(sql`lower(${companies.slug})`, config.defaultCompanySlug))
    .limit(1);
  if (!company) {
    [company] = await db
      .insert(companies)
      .values({
        name: 'Demo',
        slug: config.defaultCompanySlug,
        description: 'Entreprise par défaut',
        timezone: config.timezone,
      })
      .returning();
    result.companyCreated = true;
  }

  const [anyAdmin] = await db
    .select({ id: users.id })
    .from(users)
    .where(arrayContains(users.roles, ['ROLE_ADMIN']))
    .limit(1);
  if (!anyAdmin) {
    const email = config.adminEmail ?? 'admin@sesame.local';
    const generated = !config.adminPassword;
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    await db.insert(users).values({
      companyId: company!.id,
      name: 'Admin',
      firstname: 'Sésame',
      email,
      passwordHash: await hashPassword(password),
      roles: ['ROLE_ADMIN'],
      status: true,
    });
    result.admin = { email, password, generated };
  }
  return result;
}
