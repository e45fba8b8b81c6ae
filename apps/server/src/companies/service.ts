import { insertDefaultVisitorTypes } from '../visitor-types/defaults';
import { and, asc, eq, isNull, like, not, or, sql, type SQL } from 'drizzle-orm';
import {
  isReservedSlug,
  slugify,
  type CompanyCreate,
  type CompanyUpdate,
  type ListQuery,
  type Say,
} from '@sesame/shared';
import { audit } from '../audit/service';
import type { Database, Db } from '../db/client';
import { countRows, likeAny } from '../db/pagination';
import { alias } from 'drizzle-orm/pg-core';
import {
  companies,
  events,
  files,
  invitations,
  kiosks,
  mailOutbox,
  qrUsers,
  rollCalls,
  sites,
  users,
  visitors,
} from '../db/schema';
import { conflict, isUniqueViolation, notFound } from '../errors';
import { deleteSiteSetup } from '../sites/service';
import { isPerson } from '../users/person';
import type { FileStorage } from '../files/storage';
import { storeFile, withStoredFileCleanup, type CheckedFile } from '../files/uploads';

/**
 * A company, its logo and member count, and its main site's place settings (issue 28:
 * the time zone, 'Fin de journée' and early arrivals belong to each site; the company's
 * own form and API show and edit its main site's, so a company of one site works as before).
 */
export type CompanyRow = typeof companies.$inferSelect & {
  logoStoredName: string | null;
  memberCount: number;
  mainSiteId: string;
  timezone: string;
  dayEnd: string;
  arrivalEarlyMinutes: number;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const memberCount = sql<number>`(select count(*)::int from ${qrUsers} where ${qrUsers.companyId} = ${companies.id} and ${qrUsers.kind} = 'member' and ${qrUsers.revokedAt} is null)`;

/** The company's main site (sites/service.ts `mainSite`): its oldest active one. */
const mainSiteOf = alias(sites, 'main_site');

function selectCompanies(db: Db) {
  return db
    .select({
      company: companies,
      logoStoredName: files.storedName,
      memberCount,
      mainSiteId: mainSiteOf.id,
      timezone: mainSiteOf.timezone,
      dayEnd: mainSiteOf.dayEnd,
      arrivalEarlyMinutes: mainSiteOf.arrivalEarlyMinutes,
    })
    .from(companies)
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .leftJoin(
      mainSiteOf,
      eq(
        mainSiteOf.id,
        sql`(select s.id from ${sites} s where s.company_id = ${companies.id} and s.archived_at is null
              order by s.created_at, s.id limit 1)`,
      ),
    );
}

function toRow(r: {
  company: typeof companies.$inferSelect;
  logoStoredName: string | null;
  memberCount: number;
  mainSiteId: string | null;
  timezone: string | null;
  dayEnd: string | null;
  arrivalEarlyMinutes: number | null;
}): CompanyRow {
  return {
    ...r.company,
    logoStoredName: r.logoStoredName,
    memberCount: Number(r.memberCount),
    // Every company keeps an active site (sites/service.ts refuses to archive the last).
    mainSiteId: r.mainSiteId ?? '',
    timezone: r.timezone ?? 'UTC',
    dayEnd: r.dayEnd ?? '23:59',
    arrivalEarlyMinutes: r.arrivalEarlyMinutes ?? 0,
  };
}

/** A live company by slug (case-insensitive) or by id. */
export async function findCompany(db: Db, slugOrId: string): Promise<CompanyRow | null> {
  const bySlug = eq(sql`lower(${companies.slug})`, slugOrId.toLowerCase());
  const where = UUID.test(slugOrId) ? or(eq(companies.id, slugOrId), bySlug) : bySlug;
  const rows = await selectCompanies(db)
    .where(and(where, isNull(companies.archivedAt)))
    .limit(1);
  return rows[0] ? toRow(rows[0]) : null;
}

export async function listCompanies(
  db: Db,
  query: ListQuery,
  onlyCompanyId?: string,
): Promise<{ rows: CompanyRow[]; total: number }> {
  const conditions: SQL[] = [isNull(companies.archivedAt)];
  if (onlyCompanyId) conditions.push(eq(companies.id, onlyCompanyId));
  if (query.q) {
    conditions.push(likeAny(query.q, [companies.name, companies.slug]));
  }
  const where = and(...conditions);
  const [rows, total] = await Promise.all([
    selectCompanies(db)
      .where(where)
      .orderBy(asc(companies.name))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    countRows(db, companies, where),
  ]);
  return { rows: rows.map(toRow), total };
}

/**
 * A free slug for a new company: the name slugified, never a top-level route name
 * (ARCHITECTURE §6), suffixed -2, -3… while taken. Archived companies keep theirs,
 * so an old printed link never lands on a newcomer.
 */
export async function freeSlug(db: Db, name: string): Promise<string> {
  let base = slugify(name) || 'entreprise';
  // A 'success-…' name stays reserved whatever the suffix: give it a prefix instead.
  if (isReservedSlug(`${base}-2`)) base = `entreprise-${base}`;
  const taken = new Set(
    (
      await db
        .select({ slug: companies.slug })
        .from(companies)
        .where(
          or(
            eq(sql`lower(${companies.slug})`, base),
            like(sql`lower(${companies.slug})`, `${base}-%`),
          ),
        )
    ).map((r) => r.slug.toLowerCase()),
  );
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!taken.has(candidate) && !isReservedSlug(candidate)) return candidate;
  }
}

type CompanyValues = Omit<typeof companies.$inferInsert, 'id' | 'name' | 'slug' | 'createdAt'>;

export function companyValues(input: CompanyUpdate): CompanyValues {
  return {
    idNumber: input.id_number,
    address: input.address,
    city: input.city,
    state: input.state,
    country: input.country,
    zipcode: input.zipcode,
    companyField: input.company_field,
    pointContact: input.point_contact,
    title: input.title,
    email: input.email,
    phoneNumber: input.phone_number,
    description: input.description ?? null,
    numberOfEmployee: input.number_of_employee ?? null,
    // The kiosk's e-mail presence: absent keeps the value (off by default).
    kioskEmailEnabled: input.kiosk_email_enabled,
  };
}

/**
 * The main site's settings a company form sends (issue 28): 'Fin de journée' and early
 * arrivals; absent keeps the value (23:59 and 0 for a new company).
 */
export function mainSiteValues(input: CompanyUpdate): {
  dayEnd?: string;
  arrivalEarlyMinutes?: number;
} {
  return {
    ...(input.day_end !== undefined ? { dayEnd: input.day_end } : {}),
    ...(input.arrival_early_minutes !== undefined
      ? { arrivalEarlyMinutes: input.arrival_early_minutes }
      : {}),
  };
}

/** Inserts the company under a free slug; the caller retries on a slug race. */
/**
 * Inserts the company under a free slug, with its first site (issue 28): its own address,
 * in `timezone` (the server's APP_TIMEZONE), the front desk at its e-mail. The caller
 * retries on a slug race.
 */
export async function insertCompany(
  db: Db,
  input: CompanyCreate,
  timezone: string,
): Promise<typeof companies.$inferSelect> {
  const slug = await freeSlug(db, input.name);
  const [row] = await db
    .insert(companies)
    .values({ name: input.name, slug, ...companyValues(input) })
    .returning();
  if (!row) throw new Error('the company just inserted was not returned');
  const [site] = await db
    .insert(sites)
    .values({
      companyId: row.id,
      name: input.name,
      address: input.address ?? null,
      city: input.city ?? null,
      zipcode: input.zipcode ?? null,
      country: input.country ?? null,
      timezone,
      frontDeskEmail: input.email ?? null,
      ...mainSiteValues(input),
    })
    .returning({ id: sites.id });
  if (!site) throw new Error('the main site just inserted was not returned');
  await insertDefaultVisitorTypes(db, row.id, site.id);
  return row;
}

/**
 * Points the company at its new logo row and removes the old row. Returns the old
 * stored name, for the caller to delete the bytes once the transaction is committed.
 */
export async function replaceLogo(
  db: Db,
  company: { id: string; logoFileId: string | null },
  newFileId: string,
): Promise<string | null> {
  await db.update(companies).set({ logoFileId: newFileId }).where(eq(companies.id, company.id));
  if (!company.logoFileId) return null;
  const [old] = await db
    .delete(files)
    .where(and(eq(files.id, company.logoFileId), eq(files.companyId, company.id)))
    .returning({ storedName: files.storedName });
  return old?.storedName ?? null;
}

/** What a company still holds that a delete would lose, counted, in the reader's words. */
export async function companyHoldings(db: Db, companyId: string): Promise<Say[]> {
  const counted = [
    [users, 'users'],
    [visitors, 'visitors'],
    [events, 'events'],
    [qrUsers, 'qrUsers'],
  ] as const;
  const holdings: Say[] = [];
  for (const [table, kind] of counted) {
    // People only: its API keys' service accounts (issue 34) go with the company.
    const own = eq(table.companyId, companyId);
    const n = await countRows(db, table, table === users ? and(own, isPerson) : own);
    if (n > 0) holdings.push((m) => m.company.holdings[kind](n));
  }
  return holdings;
}

/**
 * Deletes an empty company with what only it refers to (its logo, the mails of
 * visitors already deleted). Returns the stored file names to remove after commit.
 */
export async function deleteEmptyCompany(db: Db, companyId: string): Promise<string[]> {
  await db.update(companies).set({ logoFileId: null }).where(eq(companies.id, companyId));
  const removed = await db
    .delete(files)
    .where(eq(files.companyId, companyId))
    .returning({ storedName: files.storedName });
  await db.delete(mailOutbox).where(eq(mailOutbox.companyId, companyId));
  // Its sites go with it (nothing else refers to them once it is empty), its roll calls and
  // its lobby kiosks first (issue 29: a kiosk is a tablet's settings, its scan keys cascade).
  await db.delete(rollCalls).where(eq(rollCalls.companyId, companyId));
  await db.delete(kiosks).where(eq(kiosks.companyId, companyId));
  // Invitations whose visitors are all gone (issue 30): their days go with them.
  await db.delete(invitations).where(eq(invitations.companyId, companyId));
  // Issue 31: what its visitors left (signatures kept past them, holds) and its watchlist,
  // then its sites' visitor types and documents (deleteSiteSetup's order).
  await db.execute(sql`delete from signatures where company_id = ${companyId}`);
  await db.execute(sql`delete from watchlist_holds where company_id = ${companyId}`);
  await db.execute(sql`delete from watchlist_entries where company_id = ${companyId}`);
  await deleteSiteSetup(db, sql`company_id = ${companyId}`);
  // Issue 33: its directory's groups and SCIM tokens (its SSO settings and domains cascade).
  await db.execute(sql`delete from scim_groups where company_id = ${companyId}`);
  await db.execute(sql`delete from scim_tokens where company_id = ${companyId}`);
  // Issue 34: its API keys' service accounts, and their keys with them (cascade).
  await db.delete(users).where(and(eq(users.companyId, companyId), not(isPerson)));
  await db.delete(sites).where(eq(sites.companyId, companyId));
  await db.delete(companies).where(eq(companies.id, companyId));
  return removed.map((r) => r.storedName);
}

/** Where a company's work is done: the database, its file storage, who acts. */
export interface CompanyWork {
  db: Database;
  storage: FileStorage;
  actorUserId: string;
}

/**
 * 'Créer une Entreprise': the company under a free slug, its logo, one audit entry,
 * in one transaction (a failure removes the stored logo). Two companies of the same
 * name at the same moment: the loser takes the next suffix. Answers the new id.
 */
export async function createCompany(
  work: CompanyWork,
  input: CompanyCreate,
  logo: CheckedFile,
  timezone: string,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await withStoredFileCleanup(work.storage, (storage) =>
        work.db.transaction(async (tx) => {
          const company = await insertCompany(tx, input, timezone);
          const file = await storeFile(tx, storage, logo, {
            companyId: company.id,
            ownerType: 'company_logo',
            ownerId: company.id,
          });
          await tx
            .update(companies)
            .set({ logoFileId: file.id })
            .where(eq(companies.id, company.id));
          await audit(tx, {
            companyId: company.id,
            actorUserId: work.actorUserId,
            action: 'company.created',
            subjectType: 'company',
            subjectId: company.id,
          });
          return company.id;
        }),
      );
    } catch (error) {
      if (attempt < 5 && isUniqueViolation(error, 'companies_slug_key')) continue;
      throw error;
    }
  }
}

/**
 * The columns an update form may change (never the slug), and its main site's settings
 * ('Fin de journée', early arrivals: `mainSiteValues`).
 */
export type CompanyChanges = Partial<Omit<typeof companies.$inferInsert, 'id' | 'slug'>> &
  ReturnType<typeof mainSiteValues>;

/**
 * The settings whose values an audit entry keeps, before → after (issue 27): how the company
 * works, never who it is nor whom to reach (a contact's name, an e-mail, a phone number).
 */
const AUDITED_SETTINGS = ['arrivalEarlyMinutes', 'dayEnd', 'kioskEmailEnabled'] as const;
type Audited = Pick<CompanyRow, (typeof AUDITED_SETTINGS)[number]>;

/**
 * What an update changed, for its audit entry: the names of the fields whose value changed
 * (and 'logo' for a new one), and each changed setting as 'before→after'.
 */
export function changeDetail(
  current: typeof companies.$inferSelect & Audited,
  changes: CompanyChanges,
  newLogo: boolean,
): Record<string, string | string[]> {
  // Object.keys gives string[]; `changes` holds only CompanyChanges' keys, `current` is its row.
  const changed = (Object.keys(changes) as (keyof CompanyChanges)[]).filter(
    (field) =>
      changes[field] !== undefined && changes[field] !== (current as CompanyChanges)[field],
  );
  const detail: Record<string, string | string[]> = {
    fields: [...changed, ...(newLogo ? ['logo'] : [])],
  };
  for (const setting of AUDITED_SETTINGS) {
    if (changed.includes(setting)) {
      detail[setting] = `${String(current[setting])}→${String(changes[setting])}`;
    }
  }
  return detail;
}

/**
 * One company's update and its optional new logo, audited with the names of the fields it
 * changed (never their values, but a setting's before → after: `changeDetail`). The old
 * logo's row goes in the transaction and its bytes once it is committed; a failure removes
 * the new logo's bytes.
 */
export async function updateCompany(
  work: CompanyWork,
  companyId: string,
  changes: CompanyChanges,
  logo: CheckedFile | undefined,
): Promise<void> {
  const oldLogo = await withStoredFileCleanup(work.storage, (storage) =>
    work.db.transaction(async (tx) => {
      const [locked] = await tx
        .select()
        .from(companies)
        .where(eq(companies.id, companyId))
        .for('update');
      const main = locked ? await findCompany(tx, companyId) : null;
      if (!locked || !main) throw notFound();
      const current = {
        ...locked,
        dayEnd: main.dayEnd,
        arrivalEarlyMinutes: main.arrivalEarlyMinutes,
      };
      const { dayEnd, arrivalEarlyMinutes, ...own } = changes;
      if (Object.values(own).some((value) => value !== undefined)) {
        await tx.update(companies).set(own).where(eq(companies.id, companyId));
      }
      if (dayEnd !== undefined || arrivalEarlyMinutes !== undefined) {
        await tx
          .update(sites)
          .set({ dayEnd, arrivalEarlyMinutes })
          .where(eq(sites.id, main.mainSiteId));
      }
      await audit(tx, {
        companyId,
        actorUserId: work.actorUserId,
        action: 'company.updated',
        subjectType: 'company',
        subjectId: companyId,
        detail: changeDetail(current, changes, Boolean(logo)),
      });
      if (!logo) return null;
      const file = await storeFile(tx, storage, logo, {
        companyId,
        ownerType: 'company_logo',
        ownerId: companyId,
      });
      return replaceLogo(tx, current, file.id);
    }),
  );
  if (oldLogo) await work.storage.remove(oldLogo);
}

/**
 * Deletes an empty company (409 with what it still holds, or when something was
 * added meanwhile and the database refuses), audited; its files' bytes go after
 * the commit.
 */
export async function deleteCompany(
  work: CompanyWork,
  company: { id: string; name: string },
): Promise<void> {
  const removed = await work.db
    .transaction(async (tx) => {
      const holdings = await companyHoldings(tx, company.id);
      if (holdings.length)
        throw conflict((m) =>
          m.company.notEmpty(
            company.name,
            holdings.map((holding) => holding(m)),
          ),
        );
      const stored = await deleteEmptyCompany(tx, company.id);
      // The entry outlives the company (no foreign key); the deleting admin's company keeps it too.
      await audit(tx, {
        companyId: company.id,
        actorUserId: work.actorUserId,
        action: 'company.deleted',
        subjectType: 'company',
        subjectId: company.id,
      });
      return stored;
    })
    .catch((error: unknown) => {
      if (isForeignKeyViolation(error)) {
        throw conflict((m) => m.company.notEmpty(company.name, [m.company.holdings.some]));
      }
      throw error;
    });
  await Promise.all(removed.map((name) => work.storage.remove(name)));
}

/** PostgreSQL foreign_key_violation, whichever driver raised it. */
function isForeignKeyViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if ('code' in error && error.code === '23503') return true;
  return 'cause' in error ? isForeignKeyViolation(error.cause) : false;
}
