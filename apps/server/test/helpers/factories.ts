/**
 * Factories that build a consistent tenant graph: a company, its staff of
 * every role, visitors and requests, events, QR users. Each returns the row.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Role } from '@sesame/shared';
import { hashPassword } from '../../src/auth/passwords';
import type { Db } from '../../src/db/client';
import { newUidn } from '../../src/db/ids';
import {
  companies,
  events,
  qrUsers,
  sites,
  users,
  visitRequests,
  visitors,
} from '../../src/db/schema';
import { dayBounds } from '../../src/events/time';
import { enqueueVisitorCodeMail } from '../../src/mail/outbox';

export const TEST_PASSWORD = 'Test-Password-123';
let passwordHash: Promise<string> | undefined;
const unique = () => randomBytes(4).toString('hex');

/** A main site's settings a test may give its company (issue 28: they belong to sites). */
type PlaceSettings = Partial<
  Pick<typeof sites.$inferInsert, 'timezone' | 'dayEnd' | 'arrivalEarlyMinutes'>
>;

/**
 * A company and its main site (every company has one), in `timezone` (UTC by default),
 * with the site's `dayEnd` and `arrivalEarlyMinutes` if given. `siteId` is the main site.
 */
export async function buildCompany(
  db: Db,
  values: Partial<typeof companies.$inferInsert> & PlaceSettings = {},
) {
  const suffix = unique();
  const { timezone = 'UTC', dayEnd, arrivalEarlyMinutes, ...own } = values;
  const [row] = await db
    .insert(companies)
    .values({ name: `Company ${suffix}`, slug: `company-${suffix}`, ...own })
    .returning();
  const site = await buildSite(db, {
    company: row!,
    name: row!.name,
    timezone,
    ...(dayEnd !== undefined ? { dayEnd } : {}),
    ...(arrivalEarlyMinutes !== undefined ? { arrivalEarlyMinutes } : {}),
  });
  return { ...row!, siteId: site.id, timezone: site.timezone };
}

/** Another site of `company` (its own zone, UTC by default). */
export async function buildSite(
  db: Db,
  options: { company: { id: string } } & Partial<typeof sites.$inferInsert>,
) {
  const { company, ...values } = options;
  const [row] = await db
    .insert(sites)
    .values({ companyId: company.id, name: `Site ${unique()}`, timezone: 'UTC', ...values })
    .returning();
  return row!;
}

/** The company's main site (its oldest active one), as the server picks it. */
async function mainSiteOf(db: Db, companyId: string) {
  const [site] = await db
    .select()
    .from(sites)
    .where(eq(sites.companyId, companyId))
    .orderBy(sites.createdAt, sites.id)
    .limit(1);
  return site!;
}

export async function buildUser(
  db: Db,
  options: { company: { id: string }; role?: Role } & Partial<typeof users.$inferInsert>,
) {
  const { company, role = 'ROLE_EMPLOYEE', ...values } = options;
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const suffix = unique();
  const [row] = await db
    .insert(users)
    .values({
      companyId: company.id,
      name: `User ${suffix}`,
      firstname: 'Test',
      email: `${role.toLowerCase().replace('role_', '')}-${suffix}@example.com`,
      passwordHash: await passwordHash,
      roles: [role],
      ...values,
    })
    .returning();
  return row!;
}

/**
 * The site a record goes to (`siteId` given, else the company's main site) and the day's
 * instants in its zone, as the services write them with an event or a visitor.
 */
async function placeOf(
  db: Db,
  companyId: string,
  siteId: string | undefined,
  date: string | null | undefined,
) {
  const site = siteId
    ? (await db.select().from(sites).where(eq(sites.id, siteId)))[0]!
    : await mainSiteOf(db, companyId);
  return { siteId: site.id, day: dayBounds(date, site.timezone) };
}

export async function buildVisitor(
  db: Db,
  options: { company: { id: string } } & Partial<typeof visitors.$inferInsert>,
) {
  const { company, ...values } = options;
  // Today (UTC, the default company zone): a code checks in only on its meeting's day.
  const requestDate =
    'requestDate' in values
      ? values.requestDate
      : new Date().toISOString().slice(0, 10).split('-').reverse().join('/');
  const [row] = await db
    .insert(visitors)
    .values({
      companyId: company.id,
      uidn: newUidn(),
      firstname: 'Awa',
      lastname: 'Koné',
      email: `visitor-${unique()}@example.com`,
      contact: '0701020304',
      idNumber: 'CI-123456',
      organisationName: 'Acme',
      requestDate,
      requestTime: '10:30',
      // The site and the day's instants, as createVisitor writes them.
      ...(await placeOf(db, company.id, values.siteId, requestDate).then(({ siteId, day }) => ({
        siteId,
        ...day,
      }))),
      ...values,
    })
    .returning();
  return row!;
}

export async function buildRequest(
  db: Db,
  options: { company: { id: string }; visitor: { id: string } } & Partial<
    typeof visitRequests.$inferInsert
  >,
) {
  const { company, visitor, ...values } = options;
  const [row] = await db
    .insert(visitRequests)
    .values({
      companyId: company.id,
      visitorId: visitor.id,
      host: 'M. Diallo',
      reason: 'Réunion',
      ...values,
    })
    .returning();
  return row!;
}

/** A visitor of `company` at `email`, their request confirmed, and their code mail queued. */
export async function queueCodeMail(db: Db, company: { id: string }, email: string) {
  const visitor = await buildVisitor(db, { company, email });
  await buildRequest(db, { company, visitor, status: 1, confirmed: true });
  const id = await enqueueVisitorCodeMail(db, { companyId: company.id, visitorId: visitor.id });
  return { visitor, id };
}

export async function buildEvent(
  db: Db,
  options: { company: { id: string } } & Partial<typeof events.$inferInsert>,
) {
  const { company, ...values } = options;
  const suffix = unique();
  const dateEvent = values.dateEvent ?? '24/12/2030';
  const [row] = await db
    .insert(events)
    .values({
      companyId: company.id,
      name: `Event ${suffix}`,
      slug: `event-${suffix}`,
      location: 'Salle A',
      addressName: 'Plateau',
      dateEvent,
      timeEvent: '10:00',
      // The site and the day's instants, as insertEvent writes them.
      ...(await placeOf(db, company.id, values.siteId, dateEvent).then(({ siteId, day }) => ({
        siteId,
        ...day!,
      }))),
      ...values,
    })
    .returning();
  return row!;
}

export async function buildQrUser(
  db: Db,
  options: { company: { id: string }; kind?: 'permanent' | 'member' } & Partial<
    typeof qrUsers.$inferInsert
  >,
) {
  const { company, kind = 'permanent', ...values } = options;
  const [row] = await db
    .insert(qrUsers)
    .values({
      companyId: company.id,
      kind,
      uidn: newUidn(),
      firstname: 'Yao',
      lastname: 'Kouassi',
      email: `qr-${unique()}@example.com`,
      contact: '0102030405',
      title: 'Technicien',
      dateExp: kind === 'permanent' ? new Date(Date.now() + 30 * 86400_000) : null,
      ...values,
    })
    .returning();
  return row!;
}

/** A company with one user of each role, and their tokens fetched lazily by tests. */
export async function buildTenant(db: Db) {
  const company = await buildCompany(db);
  const roles: Role[] = [
    'ROLE_USER',
    'ROLE_EMPLOYEE',
    'ROLE_SUPERVISOR',
    'ROLE_SESAME',
    'ROLE_MANAGER',
    'ROLE_ADMIN',
    'ROLE_SUPER_ADMIN',
  ];
  const staff = {} as Record<Role, typeof users.$inferSelect>;
  for (const role of roles) staff[role] = await buildUser(db, { company, role });
  return { company, staff };
}

/** The company form's fields, valid (its logo apart); `overrides` name it or change a field. */
export function companyFormFields(
  overrides: { name: string } & Record<string, string>,
): Record<string, string> {
  return {
    id_number: 'RC-1',
    address: '1 rue',
    city: 'Abidjan',
    state: 'Lagunes',
    country: 'CI',
    zipcode: '00225',
    company_field: 'Services',
    point_contact: 'Awa',
    title: 'DG',
    email: 'contact@company.example',
    phone_number: '0102030405',
    ...overrides,
  };
}

/**
 * The visitor form's fields about the person, valid, with a fresh e-mail and the
 * privacy notice accepted: what every test that sends the form starts from.
 * `overrides` add the rest (company, day, language) or change a field.
 */
export function visitorFormFields(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    firstname: 'Awa',
    lastname: 'Koné',
    id_number: 'CI-0042',
    organisation_name: 'Acme',
    email: `guest-${Math.random().toString(16).slice(2)}@example.com`,
    contact: '0701020304',
    privacy_accepted: '1',
    ...overrides,
  };
}
