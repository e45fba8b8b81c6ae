/**
 * Permanent QR codes and member cards: one table (qr_users), two kinds.
 * Every function that reads by id returns the row with its company, and the
 * caller authorises against that company before using it.
 */
import { and, asc, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { formatUidn, isUidnShaped, type ListQuery, type QrUserKind } from '@sesame/shared';
import type { Db } from '../db/client';
import { newId, newUidn } from '../db/ids';
import { countRows, fullNames, likeAny } from '../db/pagination';
import { mainSiteZone } from '../sites/service';
import { companies, files, qrUsers, userChecks } from '../db/schema';
import { badRequest, conflict, notFound } from '../errors';
import type { CheckedFile } from '../files/uploads';
import { storeFile } from '../files/uploads';
import type { FileStorage } from '../files/storage';
import { endOfDay } from './dates';
import { found } from '../db/rows';
import { audit } from '../audit/service';

export interface QrUserCompany {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  logoStoredName: string | null;
}

export type QrUserRow = typeof qrUsers.$inferSelect & {
  kind: QrUserKind;
  company: QrUserCompany;
  documentMediaType: string | null;
};

const logo = alias(files, 'logo');
const doc = alias(files, 'doc');

function selectQrUsers(db: Db) {
  return db
    .select({
      qrUser: qrUsers,
      company: {
        id: companies.id,
        name: companies.name,
        slug: companies.slug,
        // Cards serve every site: their expiry is a day in the main site's zone.
        timezone: mainSiteZone(companies.id),
        logoStoredName: logo.storedName,
      },
      documentMediaType: doc.mediaType,
    })
    .from(qrUsers)
    .innerJoin(companies, eq(companies.id, qrUsers.companyId))
    .leftJoin(logo, eq(logo.id, companies.logoFileId))
    .leftJoin(doc, eq(doc.id, qrUsers.documentId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectQrUsers>['execute']>>[number];

function toRow(r: Selected): QrUserRow {
  return {
    ...r.qrUser,
    // text column: written only from the QR user schema's kinds.
    kind: r.qrUser.kind as QrUserKind,
    company: r.company,
    documentMediaType: r.documentMediaType,
  };
}

/** One QR user or member card by id, of the given kinds; null when there is none. */
export async function findQrUser(
  db: Db,
  id: string,
  kinds: readonly QrUserKind[],
): Promise<QrUserRow | null> {
  const rows = await selectQrUsers(db).where(eq(qrUsers.id, id)).limit(1);
  const row = rows[0] ? toRow(rows[0]) : null;
  return row && kinds.includes(row.kind) ? row : null;
}

/** A live company a new card may belong to. */
export async function findLiveCompany(db: Db, companyId: string): Promise<QrUserCompany | null> {
  const [row] = await db
    .select({
      id: companies.id,
      name: companies.name,
      slug: companies.slug,
      timezone: mainSiteZone(companies.id),
      logoStoredName: logo.storedName,
      archivedAt: companies.archivedAt,
    })
    .from(companies)
    .leftJoin(logo, eq(logo.id, companies.logoFileId))
    .where(eq(companies.id, companyId))
    .limit(1);
  if (!row || row.archivedAt) return null;
  const { archivedAt: _archived, ...company } = row;
  return company;
}

export interface NewQrUser {
  kind: QrUserKind;
  companyId: string;
  type: string;
  firstname?: string;
  lastname?: string;
  email?: string;
  contact?: string;
  title?: string;
  /** YYYY-MM-DD: the last valid day, in the company's time zone. */
  dateExp?: string;
  createdBy: string;
}

/**
 * Stores the document (a member's photo) and creates the card with a fresh
 * uidn, in the caller's transaction.
 */
export async function createQrUser(
  tx: Db,
  storage: FileStorage,
  input: NewQrUser,
  document: CheckedFile,
): Promise<QrUserRow> {
  const company = await findLiveCompany(tx, input.companyId);
  if (!company) throw notFound();
  // A code born expired would be refused at the door on its first scan.
  const dateExp = input.dateExp ? endOfDay(input.dateExp, company.timezone) : null;
  if (dateExp && dateExp.getTime() < Date.now()) {
    throw badRequest((m) => m.qrUser.dateExpPast, { dateExp: (m) => m.qrUser.dateExpPast });
  }
  const id = newId();
  const file = await storeFile(tx, storage, document, {
    companyId: company.id,
    ownerType: input.kind === 'member' ? 'member_photo' : 'qr_user_document',
    ownerId: id,
  });
  await tx.insert(qrUsers).values({
    id,
    companyId: company.id,
    kind: input.kind,
    uidn: newUidn(),
    firstname: input.firstname ?? null,
    lastname: input.lastname ?? null,
    email: input.email ?? null,
    contact: input.contact ?? null,
    title: input.title ?? null,
    type: input.type,
    dateExp,
    documentId: file.id,
    createdBy: input.createdBy,
  });
  return found(await findQrUser(tx, id, [input.kind]), 'the card just created');
}

export interface QrUserChanges {
  firstname?: string;
  lastname?: string;
  email?: string;
  contact?: string;
  title?: string;
  /** YYYY-MM-DD, or null to remove the expiry. */
  dateExp?: string | null;
}

/**
 * A card's fields or expiry changed, audited in the same transaction in the card's company
 * with the names of the fields sent (never their values): a platform role's edit shows in
 * that company's log (issue 26 §9).
 */
export async function updateQrUser(
  db: Db,
  row: QrUserRow,
  changes: QrUserChanges,
  actorUserId: string,
): Promise<QrUserRow> {
  const { dateExp, ...fields } = changes;
  const values: Partial<typeof qrUsers.$inferInsert> = { ...fields };
  if (dateExp !== undefined) {
    values.dateExp = dateExp === null ? null : endOfDay(dateExp, row.company.timezone);
  }
  return db.transaction(async (tx) => {
    await tx.update(qrUsers).set(values).where(eq(qrUsers.id, row.id));
    await audit(tx, {
      companyId: row.companyId,
      actorUserId,
      action: 'qr_user.updated',
      subjectType: 'qr_user',
      subjectId: row.id,
      detail: {
        kind: row.kind,
        fields: Object.keys(changes).filter(
          // Object.keys gives string[]; `changes` has only QrUserChanges' keys.
          (field) => changes[field as keyof QrUserChanges] !== undefined,
        ),
      },
    });
    return found(await findQrUser(tx, row.id, [row.kind]), 'the card just updated');
  });
}

/**
 * A lost card: a new row with a new uidn and the same person, document and
 * expiry; the old row is revoked and points at the new one, so its code is
 * refused from then on. A person inside stays inside: the open check moves
 * to the new card.
 */
export async function reissueQrUser(tx: Db, row: QrUserRow, by: string): Promise<QrUserRow> {
  // Lock the old row: two re-issues at once produce one new card.
  const [current] = await tx
    .select({ revokedAt: qrUsers.revokedAt })
    .from(qrUsers)
    .where(eq(qrUsers.id, row.id))
    .for('update');
  if (!current || current.revokedAt) throw conflict((m) => m.qrUser.alreadyReplaced);
  const id = newId();
  await tx.insert(qrUsers).values({
    id,
    companyId: row.companyId,
    kind: row.kind,
    uidn: newUidn(),
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    contact: row.contact,
    title: row.title,
    type: row.type,
    dateExp: row.dateExp,
    documentId: row.documentId,
    createdBy: by,
  });
  await tx
    .update(qrUsers)
    .set({ revokedAt: new Date(), replacedBy: id })
    .where(eq(qrUsers.id, row.id));
  await tx
    .update(userChecks)
    .set({ qrUserId: id })
    .where(and(eq(userChecks.qrUserId, row.id), isNull(userChecks.checkOutAt)));
  return found(await findQrUser(tx, id, [row.kind]), 'the card just issued');
}

/** A QR user or member found by name (either order), e-mail, phone, a piece of the code or the whole code typed without dashes. */
export function qrUserSearch(q: string): SQL {
  const byText = likeAny(q, [
    ...fullNames(qrUsers.firstname, qrUsers.lastname),
    qrUsers.email,
    qrUsers.contact,
    qrUsers.uidn,
  ]);
  return isUidnShaped(q) ? sql`(${byText} or ${eq(qrUsers.uidn, formatUidn(q))})` : byText;
}

/**
 * Live (not re-issued) cards of one kind, newest first or by name, limited to
 * one company unless `companyId` is undefined.
 */
export async function listQrUsers(
  db: Db,
  query: ListQuery,
  options: { kind: QrUserKind; companyId: string | undefined; order: 'newest' | 'name' },
): Promise<{ rows: QrUserRow[]; total: number }> {
  const conditions: SQL[] = [eq(qrUsers.kind, options.kind), isNull(qrUsers.revokedAt)];
  if (options.companyId) conditions.push(eq(qrUsers.companyId, options.companyId));
  if (query.q) conditions.push(qrUserSearch(query.q));
  const where = and(...conditions);
  const order =
    options.order === 'name'
      ? [
          asc(sql`lower(${qrUsers.lastname})`),
          asc(sql`lower(${qrUsers.firstname})`),
          asc(qrUsers.id),
        ]
      : [desc(qrUsers.createdAt), desc(qrUsers.id)];
  const rows = await selectQrUsers(db)
    .where(where)
    .orderBy(...order)
    .limit(query.per_page)
    .offset((query.page - 1) * query.per_page);
  const total = await countRows(db, qrUsers, where);
  return { rows: rows.map(toRow), total };
}
