/**
 * A site's visitor types (issue 31), as its managers set them up: created (last in the
 * site's order), edited, archived and restored — never deleted, since past visits name
 * them. A type's name is its site's own (409 `nameTaken`), a site has at most
 * VISITOR_TYPE_LIMITS.maxTypesPerSite active types (409 `tooManyTypes`), and the documents
 * a type asks to sign are active documents of the same site (400 `documentOtherSite`).
 * Each change is one transaction with its audit entry.
 */
import { and, asc, count, eq, inArray, isNull, max, sql } from 'drizzle-orm';
import {
  VISITOR_TYPE_LIMITS,
  visitorTypeInputSchema,
  type SignatureValidity,
  type TypeDocument,
} from '@sesame/shared';
import type { z } from 'zod';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { siteDocuments, sites, visitorTypeDocuments, visitorTypes } from '../db/schema';
import { badRequest, conflict, isUniqueViolation, notFound } from '../errors';
import { activeSiteOf, inSites, type SiteRow } from '../sites/service';
import { documentsOfTypes as currentDocumentsOfTypes } from '../documents/signing';
import type { VisitorTypeRow } from './steps';

export type VisitorTypeValues = z.output<typeof visitorTypeInputSchema>;

export async function findVisitorType(db: Db, id: string): Promise<VisitorTypeRow | null> {
  const [row] = await db.select().from(visitorTypes).where(eq(visitorTypes.id, id)).limit(1);
  return row ?? null;
}

/**
 * A company's types, site by site (the main site first) in each site's order; `siteIds`
 * narrows them (undefined: every site), archived ones only when asked.
 */
export async function listVisitorTypes(
  db: Db,
  companyId: string,
  siteIds: string[] | undefined,
  { archived = false }: { archived?: boolean } = {},
): Promise<VisitorTypeRow[]> {
  return db
    .select({ type: visitorTypes })
    .from(visitorTypes)
    .innerJoin(sites, eq(sites.id, visitorTypes.siteId))
    .where(
      and(
        eq(visitorTypes.companyId, companyId),
        archived ? undefined : isNull(visitorTypes.archivedAt),
        sql`true ${inSites(sql`${visitorTypes.siteId}`, siteIds)}`,
      ),
    )
    .orderBy(
      asc(sites.createdAt),
      asc(sites.id),
      asc(visitorTypes.position),
      asc(visitorTypes.createdAt),
    )
    .then((rows) => rows.map((row) => row.type));
}

/**
 * The documents each of `typeIds` asks to sign, as the staff read them: active documents
 * only, their current version and title, in the type's order.
 */
export async function documentsOfTypes(
  db: Db,
  typeIds: string[],
): Promise<Map<string, TypeDocument[]>> {
  const byType = new Map<string, TypeDocument[]>(typeIds.map((id) => [id, []]));
  const rows = await currentDocumentsOfTypes(db, typeIds);
  for (const row of rows) {
    byType.get(row.typeId)?.push({
      document_id: row.documentId,
      version: row.version,
      title_fr: row.titleFr,
      title_en: row.titleEn,
      // text column: written only from the document schema's validities.
      validity: row.validity as SignatureValidity,
      validity_days: row.validity === 'days' ? row.validityDays : null,
    });
  }
  return byType;
}

/** Locks the site's row: two types made at once cannot pass the site's limit together. */
async function lockSite(tx: Db, siteId: string): Promise<void> {
  await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId)).for('update');
}

/** Refuses a site already holding its most types (409 `tooManyTypes`). */
async function assertRoomFor(tx: Db, siteId: string): Promise<void> {
  const [row] = await tx
    .select({ n: count() })
    .from(visitorTypes)
    .where(and(eq(visitorTypes.siteId, siteId), isNull(visitorTypes.archivedAt)));
  if ((row?.n ?? 0) >= VISITOR_TYPE_LIMITS.maxTypesPerSite) {
    throw conflict((m) => m.visitorType.tooManyTypes(VISITOR_TYPE_LIMITS.maxTypesPerSite));
  }
}

/** The documents of an input, each once (the first mention kept). */
function distinctDocuments(input: VisitorTypeValues) {
  const seen = new Set<string>();
  return input.documents.filter((doc) => {
    if (seen.has(doc.document_id)) return false;
    seen.add(doc.document_id);
    return true;
  });
}

/**
 * Writes the type's documents again, in the input's order; every one must be an active
 * document of the type's site (else 400 `documentOtherSite` on `documents`).
 */
async function writeDocuments(
  tx: Db,
  type: Pick<VisitorTypeRow, 'id' | 'companyId' | 'siteId'>,
  input: VisitorTypeValues,
): Promise<number> {
  const documents = distinctDocuments(input);
  if (documents.length > 0) {
    const found = await tx
      .select({ id: siteDocuments.id })
      .from(siteDocuments)
      .where(
        and(
          inArray(
            siteDocuments.id,
            documents.map((doc) => doc.document_id),
          ),
          eq(siteDocuments.siteId, type.siteId),
          isNull(siteDocuments.archivedAt),
        ),
      );
    if (found.length !== documents.length) {
      throw badRequest((m) => m.visitorType.documentOtherSite, {
        documents: (m) => m.visitorType.documentOtherSite,
      });
    }
  }
  await tx.delete(visitorTypeDocuments).where(eq(visitorTypeDocuments.visitorTypeId, type.id));
  if (documents.length > 0) {
    await tx.insert(visitorTypeDocuments).values(
      documents.map((doc, position) => ({
        companyId: type.companyId,
        visitorTypeId: type.id,
        documentId: doc.document_id,
        validity: doc.validity,
        validityDays: doc.validity === 'days' ? (doc.validity_days ?? null) : null,
        position,
      })),
    );
  }
  return documents.length;
}

/** The columns an input sets. */
const columnsOf = (input: VisitorTypeValues) => ({
  nameFr: input.name_fr,
  nameEn: input.name_en,
  color: input.color,
  requiredFields: [...input.required_fields],
  hostApproval: input.host_approval,
  autoCheckOutAt: input.auto_check_out_at ?? null,
});

/** A name another type of the site bears: 409 `nameTaken`. */
function nameConflict(error: unknown): never {
  if (isUniqueViolation(error, 'visitor_types_site_name_key')) {
    throw conflict((m) => m.visitorType.nameTaken);
  }
  throw error;
}

/** The site a new type goes to: an active one of the company (else 400 on `site_id`). */
export const typeSite = (db: Db, companyId: string, input: VisitorTypeValues) =>
  activeSiteOf(db, companyId, input.site_id);

/** A new type at `site` (`typeSite`), last in the site's order. */
export async function createVisitorType(
  db: Db,
  site: Pick<SiteRow, 'id' | 'companyId'>,
  input: VisitorTypeValues,
  actorUserId: string | null,
): Promise<VisitorTypeRow> {
  const companyId = site.companyId;
  try {
    return await db.transaction(async (tx) => {
      await lockSite(tx, site.id);
      await assertRoomFor(tx, site.id);
      const [last] = await tx
        .select({ position: max(visitorTypes.position) })
        .from(visitorTypes)
        .where(eq(visitorTypes.siteId, site.id));
      const position = last?.position === null || last === undefined ? 0 : last.position + 1;
      const [row] = await tx
        .insert(visitorTypes)
        .values({ companyId, siteId: site.id, position, ...columnsOf(input) })
        .returning();
      const documents = await writeDocuments(tx, row!, input);
      await audit(tx, {
        companyId,
        actorUserId,
        action: 'visitor_type.created',
        subjectType: 'visitor_type',
        subjectId: row!.id,
        detail: { siteId: site.id, documents },
      });
      return row!;
    });
  } catch (error) {
    nameConflict(error);
  }
}

/**
 * Edits a type: every field of the input. A type stays at its site (another `site_id`:
 * 400 `site.choose`), which must be active; its documents are written again.
 */
export async function updateVisitorType(
  db: Db,
  type: VisitorTypeRow,
  input: VisitorTypeValues,
  actorUserId: string | null,
): Promise<VisitorTypeRow> {
  if (input.site_id !== type.siteId) {
    throw badRequest((m) => m.site.choose, { site_id: (m) => m.site.choose });
  }
  await activeSiteOf(db, type.companyId, type.siteId);
  const values = columnsOf(input);
  // Object.keys gives string[]; `values` has only columns of the visitor type row.
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
    (key) => JSON.stringify(values[key]) !== JSON.stringify(type[key]),
  );
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .update(visitorTypes)
        .set(values)
        .where(eq(visitorTypes.id, type.id))
        .returning();
      if (!row) throw notFound();
      const documents = await writeDocuments(tx, row, input);
      await audit(tx, {
        companyId: type.companyId,
        actorUserId,
        action: 'visitor_type.updated',
        subjectType: 'visitor_type',
        subjectId: type.id,
        detail: { siteId: type.siteId, fields: changed.map(String), documents },
      });
      return row;
    });
  } catch (error) {
    nameConflict(error);
  }
}

/** Archives a type: it leaves the forms, the visits that named it keep it. */
export async function archiveVisitorType(
  db: Db,
  type: VisitorTypeRow,
  actorUserId: string | null,
): Promise<VisitorTypeRow> {
  if (type.archivedAt) return type;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(visitorTypes)
      .set({ archivedAt: new Date() })
      .where(eq(visitorTypes.id, type.id))
      .returning();
    await audit(tx, {
      companyId: type.companyId,
      actorUserId,
      action: 'visitor_type.archived',
      subjectType: 'visitor_type',
      subjectId: type.id,
      detail: { siteId: type.siteId },
    });
    return row!;
  });
}

/** Makes an archived type active again, within the site's limit (409 `tooManyTypes`). */
export async function restoreVisitorType(
  db: Db,
  type: VisitorTypeRow,
  actorUserId: string | null,
): Promise<VisitorTypeRow> {
  if (!type.archivedAt) return type;
  return db.transaction(async (tx) => {
    await lockSite(tx, type.siteId);
    await assertRoomFor(tx, type.siteId);
    const [row] = await tx
      .update(visitorTypes)
      .set({ archivedAt: null })
      .where(eq(visitorTypes.id, type.id))
      .returning();
    await audit(tx, {
      companyId: type.companyId,
      actorUserId,
      action: 'visitor_type.restored',
      subjectType: 'visitor_type',
      subjectId: type.id,
      detail: { siteId: type.siteId },
    });
    return row!;
  });
}
