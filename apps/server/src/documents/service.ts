/**
 * A site's documents to sign (issue 31), as its managers write them: a title and a Markdown
 * text in French and English, kept version by version. A new document is version 1; an
 * edit that changes a title or a text writes the next version (the one visitors sign from
 * then on), an edit that changes nothing writes nothing. A version is never changed, so
 * every signature points at exactly the text it signed. Documents are archived, never
 * deleted. Each change is one transaction with its audit entry.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { documentInputSchema } from '@sesame/shared';
import type { z } from 'zod';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { documentVersions, siteDocuments, sites } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { activeSiteOf, inSites, type SiteRow } from '../sites/service';

export type DocumentValues = z.output<typeof documentInputSchema>;
export type SiteDocumentRow = typeof siteDocuments.$inferSelect;
export type DocumentVersionRow = typeof documentVersions.$inferSelect;

/** A document with its current version and every version's number and date. */
export interface DocumentWithVersions {
  document: SiteDocumentRow;
  current: DocumentVersionRow;
  versions: { version: number; createdAt: Date }[];
}

export async function findDocument(db: Db, id: string): Promise<SiteDocumentRow | null> {
  const [row] = await db.select().from(siteDocuments).where(eq(siteDocuments.id, id)).limit(1);
  return row ?? null;
}

/** The versions of `documents`, each document's current text and its list of versions. */
async function withVersions(db: Db, documents: SiteDocumentRow[]): Promise<DocumentWithVersions[]> {
  if (documents.length === 0) return [];
  const versions = await db
    .select()
    .from(documentVersions)
    .where(
      inArray(
        documentVersions.documentId,
        documents.map((doc) => doc.id),
      ),
    )
    .orderBy(asc(documentVersions.version));
  return documents.flatMap((document) => {
    const own = versions.filter((v) => v.documentId === document.id);
    const current = own.find((v) => v.version === document.currentVersion);
    if (!current) return [];
    return [
      {
        document,
        current,
        versions: own.map((v) => ({ version: v.version, createdAt: v.createdAt })),
      },
    ];
  });
}

/** One document with its versions. */
export async function documentWithVersions(
  db: Db,
  document: SiteDocumentRow,
): Promise<DocumentWithVersions> {
  const [found] = await withVersions(db, [document]);
  if (!found) throw notFound();
  return found;
}

/**
 * A company's documents, archived ones too, site by site (the main site first), oldest
 * first; `siteIds` narrows them (undefined: every site).
 */
export async function listDocuments(
  db: Db,
  companyId: string,
  siteIds: string[] | undefined,
): Promise<DocumentWithVersions[]> {
  const rows = await db
    .select({ document: siteDocuments })
    .from(siteDocuments)
    .innerJoin(sites, eq(sites.id, siteDocuments.siteId))
    .where(
      and(
        eq(siteDocuments.companyId, companyId),
        sql`true ${inSites(sql`${siteDocuments.siteId}`, siteIds)}`,
      ),
    )
    .orderBy(
      asc(sites.createdAt),
      asc(sites.id),
      asc(siteDocuments.createdAt),
      asc(siteDocuments.id),
    );
  return withVersions(
    db,
    rows.map((row) => row.document),
  );
}

/** One version of a document (404 when it has none of that number). */
export async function documentVersion(
  db: Db,
  documentId: string,
  version: number,
): Promise<DocumentVersionRow> {
  const [row] = await db
    .select()
    .from(documentVersions)
    .where(and(eq(documentVersions.documentId, documentId), eq(documentVersions.version, version)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** The site a new document goes to: an active one of the company (else 400 on `site_id`). */
export const documentSite = (db: Db, companyId: string, input: DocumentValues) =>
  activeSiteOf(db, companyId, input.site_id);

const textOf = (input: DocumentValues) => ({
  titleFr: input.title_fr,
  titleEn: input.title_en,
  bodyFr: input.body_fr,
  bodyEn: input.body_en,
});

/** A new document at `site` (`documentSite`): its version 1. */
export async function createDocument(
  db: Db,
  site: Pick<SiteRow, 'id' | 'companyId'>,
  input: DocumentValues,
  actorUserId: string | null,
): Promise<SiteDocumentRow> {
  return db.transaction(async (tx) => {
    const [document] = await tx
      .insert(siteDocuments)
      .values({ companyId: site.companyId, siteId: site.id, currentVersion: 1 })
      .returning();
    await tx.insert(documentVersions).values({
      companyId: site.companyId,
      documentId: document!.id,
      version: 1,
      ...textOf(input),
      createdBy: actorUserId,
    });
    await audit(tx, {
      companyId: site.companyId,
      actorUserId,
      action: 'document.created',
      subjectType: 'document',
      subjectId: document!.id,
      detail: { siteId: site.id, version: 1 },
    });
    return document!;
  });
}

/**
 * Edits a document: when a title or a text differs from its current version, writes the
 * next version and makes it current; otherwise changes nothing. A document stays at its
 * site (another `site_id`: 400 `site.choose`). Answers the document and whether it moved on.
 */
export async function updateDocument(
  db: Db,
  document: SiteDocumentRow,
  input: DocumentValues,
  actorUserId: string | null,
): Promise<{ document: SiteDocumentRow; versioned: boolean }> {
  if (input.site_id !== document.siteId) {
    throw badRequest((m) => m.site.choose, { site_id: (m) => m.site.choose });
  }
  return db.transaction(async (tx) => {
    // The row locked: two edits at once write two versions one after the other.
    const [locked] = await tx
      .select()
      .from(siteDocuments)
      .where(eq(siteDocuments.id, document.id))
      .for('update');
    if (!locked) throw notFound();
    const current = await documentVersion(tx, locked.id, locked.currentVersion);
    const text = textOf(input);
    // Object.keys gives string[]; `text` has only its own fields.
    const same = (Object.keys(text) as (keyof typeof text)[]).every(
      (key) => text[key] === current[key],
    );
    if (same) return { document: locked, versioned: false };
    const version = locked.currentVersion + 1;
    await tx.insert(documentVersions).values({
      companyId: locked.companyId,
      documentId: locked.id,
      version,
      ...text,
      createdBy: actorUserId,
    });
    const [row] = await tx
      .update(siteDocuments)
      .set({ currentVersion: version })
      .where(eq(siteDocuments.id, locked.id))
      .returning();
    await audit(tx, {
      companyId: locked.companyId,
      actorUserId,
      action: 'document.versioned',
      subjectType: 'document',
      subjectId: locked.id,
      detail: { siteId: locked.siteId, version },
    });
    return { document: row!, versioned: true };
  });
}

/**
 * Archives a document: no type asks it any more (the types keep it listed, unasked); its
 * versions and the signatures of them stay.
 */
export async function archiveDocument(
  db: Db,
  document: SiteDocumentRow,
  actorUserId: string | null,
): Promise<SiteDocumentRow> {
  if (document.archivedAt) return document;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(siteDocuments)
      .set({ archivedAt: new Date() })
      .where(eq(siteDocuments.id, document.id))
      .returning();
    await audit(tx, {
      companyId: document.companyId,
      actorUserId,
      action: 'document.archived',
      subjectType: 'document',
      subjectId: document.id,
      detail: { siteId: document.siteId, version: document.currentVersion },
    });
    return row!;
  });
}
