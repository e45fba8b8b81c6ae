/**
 * A company's sites (issue 28). Every company has at least one active site; its oldest
 * active site is its main site, which a call that names no site means (the spec's calls,
 * made for a company of one place, keep working unchanged). A site with history is
 * archived, never deleted.
 */
import { insertDefaultVisitorTypes } from '../visitor-types/defaults';
import {
  and,
  asc,
  Column,
  eq,
  getTableName,
  inArray,
  is,
  isNull,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { BadgeSize, Site, SiteInput, SiteRef, SiteUpdate } from '@sesame/shared';
import { actsOnAllCompanies, type Action } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Principal } from '../auth/principal';
import { z } from 'zod';
import type { Db } from '../db/client';
import { idRow, rowsOf } from '../db/rows';
import { sites } from '../db/schema';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../errors';

export type SiteRow = typeof sites.$inferSelect;

export function presentSite(row: SiteRow): Site {
  return {
    id: row.id,
    company_id: row.companyId,
    name: row.name,
    address: row.address,
    city: row.city,
    zipcode: row.zipcode,
    country: row.country,
    timezone: row.timezone,
    front_desk_email: row.frontDeskEmail,
    opens_at: row.opensAt,
    day_end: row.dayEnd,
    arrival_early_minutes: row.arrivalEarlyMinutes,
    short_code: row.shortCode,
    badge_printer_url: row.badgePrinterUrl,
    // text column: written only from the site schema's badge sizes.
    badge_size: row.badgeSize as BadgeSize,
    security_emails: row.securityEmails,
    archived_at: row.archivedAt ? row.archivedAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
  };
}

export const siteRef = (row: Pick<SiteRow, 'id' | 'name' | 'timezone'>): SiteRef => ({
  id: row.id,
  name: row.name,
  timezone: row.timezone,
});

export async function findSite(db: Db, id: string): Promise<SiteRow | null> {
  const [row] = await db.select().from(sites).where(eq(sites.id, id)).limit(1);
  return row ?? null;
}

/** A company's sites, oldest first (the main site first); archived ones only when asked. */
export async function listSites(
  db: Db,
  companyId: string,
  { archived = false }: { archived?: boolean } = {},
): Promise<SiteRow[]> {
  return db
    .select()
    .from(sites)
    .where(and(eq(sites.companyId, companyId), archived ? undefined : isNull(sites.archivedAt)))
    .orderBy(asc(sites.createdAt), asc(sites.id));
}

/**
 * A company's main site: its oldest active site (every company keeps one, `archiveSite`
 * refuses the last). What a call naming no site means, and whose zone company-wide dates
 * (a member card's expiry) are read in.
 */
export async function mainSite(db: Db, companyId: string): Promise<SiteRow> {
  const [row] = await listSites(db, companyId);
  if (!row) throw new Error(`Company ${companyId} has no active site`);
  return row;
}

/**
 * A column with its table's name: drizzle writes a bare `"id"` in a select of one table,
 * which inside mainSiteZone's subquery would name the site's own id.
 */
const qualified = (column: AnyPgColumn | SQL): SQL =>
  is(column, Column)
    ? sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`
    : column;

/**
 * The zone of a company's main site, as a column (`company` is the company id's column):
 * company-wide dates (a member card's expiry, an export's day) are read in it.
 */
export const mainSiteZone = (company: AnyPgColumn | SQL) =>
  sql<string>`(select s.timezone from sites s where s.company_id = ${qualified(company)} and s.archived_at is null
     order by s.created_at, s.id limit 1)`;

/** Several companies' main sites at once (the company list). */
export async function mainSites(db: Db, companyIds: string[]): Promise<Map<string, SiteRow>> {
  if (companyIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([sites.companyId])
    .from(sites)
    .where(and(inArray(sites.companyId, companyIds), isNull(sites.archivedAt)))
    .orderBy(sites.companyId, asc(sites.createdAt), asc(sites.id));
  return new Map(rows.map((row) => [row.companyId, row]));
}

/** Whether `who` may act on site `siteId` of their own company (their site limits). */
export function withinSites(who: Pick<Principal, 'siteIds'>, siteId: string): boolean {
  return who.siteIds.length === 0 || who.siteIds.includes(siteId);
}

/**
 * The sites a list of company `companyId` covers for `who`: the one `requested` (404 when
 * it is not that company's, or beyond the caller's site limits), else every site the caller
 * may see (`undefined`: all of them, no filter). `companyId` undefined: a list of every
 * company (roles acting on all), where only a requested site narrows it.
 */
export async function siteScope(
  db: Db,
  who: Principal,
  action: Action,
  companyId: string | undefined,
  requested: string | undefined,
): Promise<string[] | undefined> {
  const limited = who.siteIds.length > 0;
  if (requested) {
    const site = await findSite(db, requested);
    if (!site) throw notFound();
    if (companyId !== undefined && site.companyId !== companyId) throw notFound();
    if (site.companyId !== who.companyId && !actsOnAllCompanies(who.role, action)) throw notFound();
    if (limited && site.companyId === who.companyId && !withinSites(who, site.id)) throw notFound();
    return [site.id];
  }
  // Limits apply within the person's own company (a platform role's lists of every
  // company are not narrowed by them).
  if (limited && companyId === who.companyId) return who.siteIds;
  return undefined;
}

/** `and <column> in (…)` for a site scope; nothing for every site. */
export function inSites(column: SQL | string, siteIds: string[] | undefined): SQL {
  if (siteIds === undefined) return sql``;
  if (siteIds.length === 0) return sql`and false`;
  const col = typeof column === 'string' ? sql.raw(column) : column;
  return sql`and ${col} in (${sql.join(
    siteIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

/**
 * The site a record is filed at when its caller names one or none: the named site (400
 * when it is not an active site of the company), else the company's only active site, else
 * `fallback` (a staff member's home site), else — several sites and no choice — 400 with
 * `whenAmbiguous` (the public form: "Veuillez choisir le site de votre visite").
 */
export async function siteForNewRecord(
  db: Db,
  companyId: string,
  requested: string | null | undefined,
  fallback?: string | null,
): Promise<SiteRow> {
  if (requested) {
    const site = await findSite(db, requested);
    if (!site || site.companyId !== companyId) {
      throw badRequest((m) => m.site.choose, { site_id: (m) => m.site.choose });
    }
    if (site.archivedAt) {
      throw badRequest((m) => m.site.archivedSite, { site_id: (m) => m.site.archivedSite });
    }
    return site;
  }
  const active = await listSites(db, companyId);
  if (active.length === 1) return active[0]!;
  const home = fallback ? active.find((site) => site.id === fallback) : undefined;
  if (home) return home;
  throw badRequest((m) => m.site.choose, { site_id: (m) => m.site.choose });
}

/** A staff member acting at a site beyond their limits: 403 (their own company's site). */
export function assertWithinSites(who: Principal, site: Pick<SiteRow, 'id' | 'companyId'>): void {
  if (site.companyId === who.companyId && !withinSites(who, site.id)) {
    throw forbidden((m) => m.site.notYours);
  }
}

/** The columns a form's fields set: left out (undefined) keeps a value, null clears it. */
function columnsOf(input: SiteUpdate): Partial<typeof sites.$inferInsert> {
  const values: Partial<typeof sites.$inferInsert> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.address !== undefined) values.address = input.address;
  if (input.city !== undefined) values.city = input.city;
  if (input.zipcode !== undefined) values.zipcode = input.zipcode;
  if (input.country !== undefined) values.country = input.country;
  if (input.timezone !== undefined) values.timezone = input.timezone;
  if (input.front_desk_email !== undefined) values.frontDeskEmail = input.front_desk_email;
  if (input.opens_at !== undefined) values.opensAt = input.opens_at;
  if (input.day_end !== undefined) values.dayEnd = input.day_end;
  if (input.arrival_early_minutes !== undefined) {
    values.arrivalEarlyMinutes = input.arrival_early_minutes;
  }
  if (input.short_code !== undefined) values.shortCode = input.short_code;
  if (input.badge_printer_url !== undefined) values.badgePrinterUrl = input.badge_printer_url;
  if (input.badge_size !== undefined) values.badgeSize = input.badge_size;
  if (input.security_emails !== undefined) values.securityEmails = input.security_emails;
  return values;
}

/** A unique index broken by a site's name or short code: the field's own message. */
function siteConflict(error: unknown): never {
  if (isUniqueViolation(error, 'sites_company_name_key')) {
    throw badRequest((m) => m.site.nameTaken, { name: (m) => m.site.nameTaken });
  }
  if (isUniqueViolation(error, 'sites_company_short_code_key')) {
    throw badRequest((m) => m.site.shortCodeTaken, { short_code: (m) => m.site.shortCodeTaken });
  }
  throw error;
}

export async function createSite(
  db: Db,
  companyId: string,
  input: SiteInput,
  actorUserId: string | null,
): Promise<SiteRow> {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(sites)
        .values({ companyId, ...columnsOf(input), name: input.name, timezone: input.timezone })
        .returning();
      await audit(tx, {
        companyId,
        actorUserId,
        action: 'site.created',
        subjectType: 'site',
        subjectId: row!.id,
      });
      await insertDefaultVisitorTypes(tx, companyId, row!.id);
      return row!;
    });
  } catch (error) {
    siteConflict(error);
  }
}

/** The settings an audit entry keeps before → after (never an address nor an e-mail). */
const AUDITED = ['timezone', 'dayEnd', 'opensAt', 'arrivalEarlyMinutes'] as const;

export async function updateSite(
  db: Db,
  site: SiteRow,
  input: SiteUpdate,
  actorUserId: string | null,
): Promise<SiteRow> {
  const values = columnsOf(input);
  // Object.keys gives string[]; `values` has only columns of the site row.
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (key) => JSON.stringify(values[key]) !== JSON.stringify(site[key as keyof SiteRow]),
  );
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx.update(sites).set(values).where(eq(sites.id, site.id)).returning();
      if (changed.length > 0) {
        const detail: Record<string, string | string[]> = { fields: changed.map(String) };
        for (const key of AUDITED) {
          if (changed.includes(key)) detail[key] = `${String(site[key])}→${String(values[key])}`;
        }
        await audit(tx, {
          companyId: site.companyId,
          actorUserId,
          action: 'site.updated',
          subjectType: 'site',
          subjectId: site.id,
          detail,
        });
      }
      return row!;
    });
  } catch (error) {
    siteConflict(error);
  }
}

/**
 * Whether anything happened at the site: a visitor, an event, a check, a roll call, a kiosk,
 * a signed document or a visit held by the watchlist (issue 31).
 */
export async function siteHasHistory(db: Db, siteId: string): Promise<boolean> {
  const [row] = await rowsOf(
    db,
    z.object({ used: z.boolean() }),
    sql`
    select exists (select 1 from visitors where site_id = ${siteId})
        or exists (select 1 from events where site_id = ${siteId})
        or exists (select 1 from visitor_checks where site_id = ${siteId})
        or exists (select 1 from user_checks where site_id = ${siteId})
        or exists (select 1 from roll_calls where site_id = ${siteId})
        or exists (select 1 from kiosks where site_id = ${siteId})
        or exists (select 1 from signatures where site_id = ${siteId})
        or exists (select 1 from watchlist_holds where site_id = ${siteId}) as used`,
  );
  return row?.used === true;
}

/**
 * Deletes the visitor types and documents of the sites `where` names (a site without
 * history, an empty company's), in their order: the types' documents, the types (an
 * invitation or a visitor naming one forgets it), the versions, the documents.
 */
export async function deleteSiteSetup(tx: Db, where: SQL): Promise<void> {
  await tx.execute(sql`delete from visitor_type_documents
     where visitor_type_id in (select id from visitor_types where ${where})`);
  await tx.execute(sql`delete from visitor_types where ${where}`);
  await tx.execute(sql`delete from document_versions
     where document_id in (select id from site_documents where ${where})`);
  await tx.execute(sql`delete from site_documents where ${where}`);
}

/**
 * Locks the company's sites for a change of which ones are active: two archives at the
 * same moment cannot leave the company with none.
 */
async function lockSites(tx: Db, companyId: string): Promise<SiteRow[]> {
  return tx
    .select()
    .from(sites)
    .where(eq(sites.companyId, companyId))
    .orderBy(asc(sites.createdAt))
    .for('update');
}

export async function archiveSite(
  db: Db,
  site: SiteRow,
  actorUserId: string | null,
): Promise<SiteRow> {
  return db.transaction(async (tx) => {
    const all = await lockSites(tx, site.companyId);
    const current = all.find((row) => row.id === site.id);
    if (!current) throw notFound();
    if (current.archivedAt) return current;
    if (all.filter((row) => !row.archivedAt).length <= 1) throw conflict((m) => m.site.lastSite);
    const [row] = await tx
      .update(sites)
      .set({ archivedAt: new Date() })
      .where(eq(sites.id, site.id))
      .returning();
    await audit(tx, {
      companyId: site.companyId,
      actorUserId,
      action: 'site.archived',
      subjectType: 'site',
      subjectId: site.id,
    });
    return row!;
  });
}

export async function restoreSite(
  db: Db,
  site: SiteRow,
  actorUserId: string | null,
): Promise<SiteRow> {
  if (!site.archivedAt) return site;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sites)
      .set({ archivedAt: null })
      .where(eq(sites.id, site.id))
      .returning();
    await audit(tx, {
      companyId: site.companyId,
      actorUserId,
      action: 'site.restored',
      subjectType: 'site',
      subjectId: site.id,
    });
    return row!;
  });
}

/** Deletes a site nothing ever happened at; one with history is archived instead (409). */
export async function deleteSite(db: Db, site: SiteRow, actorUserId: string | null): Promise<void> {
  await db.transaction(async (tx) => {
    const all = await lockSites(tx, site.companyId);
    if (!all.some((row) => row.id === site.id)) throw notFound();
    if (await siteHasHistory(tx, site.id)) throw conflict((m) => m.site.hasHistory);
    const othersActive = all.filter((row) => row.id !== site.id && !row.archivedAt).length;
    if (othersActive === 0) throw conflict((m) => m.site.lastSite);
    // Staff limited to it alone would be left with no limits, that is every site: 409.
    const stranded = await rowsOf(
      tx,
      idRow,
      sql`select id from users where company_id = ${site.companyId}
           and cardinality(site_ids) > 0 and site_ids <@ array[${site.id}::uuid] limit 1`,
    );
    if (stranded.length > 0) {
      throw conflict((m) => m.site.onlySiteOfStaff);
    }
    // Staff whose limits named it keep the others; their home site falls back (set null).
    await tx.execute(
      sql`update users set site_ids = array_remove(site_ids, ${site.id}::uuid)
           where company_id = ${site.companyId} and ${site.id}::uuid = any(site_ids)`,
    );
    // Its visitor types and documents (issue 31) go with it: nothing signed or named them.
    await deleteSiteSetup(tx, sql`site_id = ${site.id}`);
    await tx.delete(sites).where(eq(sites.id, site.id));
    await audit(tx, {
      companyId: site.companyId,
      actorUserId,
      action: 'site.deleted',
      subjectType: 'site',
      subjectId: site.id,
    });
  });
}

/**
 * A site a record is written at: an active one of the company (another company's, or none:
 * a 400 on `site_id` that names no other company's site; archived: a 400 too).
 */
export async function activeSiteOf(db: Db, companyId: string, siteId: string): Promise<SiteRow> {
  const [site] = await db.select().from(sites).where(eq(sites.id, siteId)).limit(1);
  if (!site || site.companyId !== companyId) {
    throw badRequest((m) => m.site.choose, { site_id: (m) => m.site.choose });
  }
  if (site.archivedAt) {
    throw badRequest((m) => m.site.archivedSite, { site_id: (m) => m.site.archivedSite });
  }
  return site;
}
