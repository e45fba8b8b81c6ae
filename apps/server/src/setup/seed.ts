/**
 * First start: the default company and a platform admin. Idempotent: a
 * database that already has them is left alone, and two instances starting together
 * on a new database seed it once (the second waits on the first's lock, then finds
 * the company and the admin).
 */
import { insertDefaultVisitorTypes } from '../visitor-types/defaults';
import { randomBytes } from 'node:crypto';
import { arrayContains, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../auth/passwords';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { companies, sites, users } from '../db/schema';
import { found } from '../db/rows';

/**
 * The default company's profile. 'Éditer l'Entreprise' requires every field but the logo
 * (spec §5, the shared companyUpdateSchema the server applies too), so a company seeded
 * with a name alone could not be saved until someone filled eleven fields to change one.
 * A demonstration company's values, which the operator replaces on that page; its contact
 * e-mail is the first admin's.
 */
export function defaultCompanyProfile(contactEmail: string) {
  return {
    name: 'Demo',
    description: 'Entreprise par défaut',
    title: 'Entreprise de démonstration',
    companyField: 'Démonstration',
    idNumber: 'DEMO-0001',
    pointContact: 'Administrateur Sésame',
    email: contactEmail,
    // Stored as every phone number is (E.164, issue 27), so the edit form saves it unchanged.
    phoneNumber: '+2250000000000',
    address: 'Adresse de démonstration',
    city: 'Abidjan',
    state: 'Abidjan',
    country: 'CI',
    zipcode: '00000',
  };
}

export interface SeedResult {
  companyCreated: boolean;
  /** Set only when an admin was created on this start. */
  admin?: { email: string; password: string; generated: boolean };
}

type SeedConfig = Pick<Config, 'defaultCompanySlug' | 'adminEmail' | 'adminPassword' | 'timezone'>;

export async function seedFirstRun(db: Db, config: SeedConfig): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sesame:first-start'))`);
    return seedUnderLock(tx, config);
  });
}

async function seedUnderLock(db: Db, config: SeedConfig): Promise<SeedResult> {
  const result: SeedResult = { companyCreated: false };
  const adminEmail = config.adminEmail ?? 'admin@sesame.local';
  let [company] = await db
    .select()
    .from(companies)
    .where(eq(sql`lower(${companies.slug})`, config.defaultCompanySlug))
    .limit(1);
  if (!company) {
    const profile = defaultCompanyProfile(adminEmail);
    [company] = await db
      .insert(companies)
      .values({ ...profile, slug: config.defaultCompanySlug })
      .returning();
    // Its first site (issue 28), in the zone the server runs in, with the default visitor
    // types every site starts with (issue 31).
    const [site] = await db
      .insert(sites)
      .values({
        companyId: found(company, 'the default company').id,
        name: profile.name,
        address: profile.address,
        city: profile.city,
        zipcode: profile.zipcode,
        country: profile.country,
        timezone: config.timezone,
        frontDeskEmail: profile.email,
      })
      .returning({ id: sites.id });
    await insertDefaultVisitorTypes(
      db,
      found(company, 'the default company').id,
      found(site, 'the default site').id,
    );
    result.companyCreated = true;
  }

  const [anyAdmin] = await db
    .select({ id: users.id })
    .from(users)
    .where(arrayContains(users.roles, ['ROLE_ADMIN']))
    .limit(1);
  if (!anyAdmin) {
    const email = adminEmail;
    const generated = !config.adminPassword;
    const password = config.adminPassword ?? randomBytes(12).toString('base64url');
    await db.insert(users).values({
      companyId: found(company, 'the default company').id,
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
