/**
 * A company's kiosks (issue 29), as its admin side manages them: created at one of the
 * company's active sites with a 6-digit pairing code (shown once, 10 minutes), edited,
 * given a new code, revoked (listed still, as 'revoked'). The code and the device token
 * are digests at rest (device.ts); nothing here ever answers either but the fresh code.
 */
import { activeSiteOf } from '../sites/service';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import type {
  DocumentToSign,
  Kiosk,
  KioskConfig,
  KioskPairing,
  PublicVisitorType,
  VisitorTypeField,
} from '@sesame/shared';
import type { kioskInputSchema, kioskUpdateSchema } from '@sesame/shared';
import type { z } from 'zod';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { companies, files, kiosks, sites, visitorTypes } from '../db/schema';
import { documentsOfType, type TypeDocumentToSign } from '../documents/signing';
import { issuePairingCode, revokeKiosk } from './device';

export type KioskRow = typeof kiosks.$inferSelect & { siteName: string };
type KioskInput = z.output<typeof kioskInputSchema>;
type KioskUpdate = z.output<typeof kioskUpdateSchema>;

const kioskColumns = { kiosk: kiosks, siteName: sites.name };

const toRow = (r: { kiosk: typeof kiosks.$inferSelect; siteName: string }): KioskRow => ({
  ...r.kiosk,
  siteName: r.siteName,
});

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** 'revoked', else 'paired' (a tablet holds its token), else 'waiting' (a live code), else 'unpaired'. */
export function kioskState(row: typeof kiosks.$inferSelect, now = new Date()): Kiosk['state'] {
  if (row.revokedAt) return 'revoked';
  if (row.tokenHash) return 'paired';
  if (row.pairingCodeHash && row.pairingExpiresAt && row.pairingExpiresAt > now) return 'waiting';
  return 'unpaired';
}

export function presentKiosk(row: KioskRow, now = new Date()): Kiosk {
  return {
    id: row.id,
    name: row.name,
    site: { id: row.siteId, name: row.siteName },
    // Columns written only from the kiosk schema: languages (jsonb) and badge size (text).
    languages: row.languages as Kiosk['languages'],
    ask_photo: row.askPhoto,
    print_badge: row.printBadge,
    idle_seconds: row.idleSeconds,
    host_wait_seconds: row.hostWaitSeconds,
    // text column: written only from the kiosk schema's badge sizes.
    badge_size: row.badgeSize as Kiosk['badge_size'],
    printer_url: row.printerUrl,
    state: kioskState(row, now),
    paired_at: iso(row.pairedAt),
    last_seen_at: iso(row.lastSeenAt),
    revoked_at: iso(row.revokedAt),
    created_at: row.createdAt.toISOString(),
  };
}

export const presentPairing = (pairing: { code: string; expiresAt: Date }): KioskPairing => ({
  code: pairing.code,
  expires_at: pairing.expiresAt.toISOString(),
});

export async function findKiosk(db: Db, id: string): Promise<KioskRow | null> {
  const [row] = await db
    .select(kioskColumns)
    .from(kiosks)
    .innerJoin(sites, eq(sites.id, kiosks.siteId))
    .where(eq(kiosks.id, id))
    .limit(1);
  return row ? toRow(row) : null;
}

/** A company's kiosks, revoked ones too, newest first; `siteIds` narrows them (site limits). */
export async function listKiosks(
  db: Db,
  companyId: string,
  siteIds?: readonly string[],
): Promise<KioskRow[]> {
  const rows = await db
    .select(kioskColumns)
    .from(kiosks)
    .innerJoin(sites, eq(sites.id, kiosks.siteId))
    .where(
      and(
        eq(kiosks.companyId, companyId),
        siteIds && siteIds.length > 0
          ? sql`${kiosks.siteId} in (${sql.join(
              siteIds.map((id) => sql`${id}::uuid`),
              sql`, `,
            )})`
          : undefined,
      ),
    )
    .orderBy(desc(kiosks.createdAt), desc(kiosks.id));
  return rows.map(toRow);
}

/** The site a kiosk stands at: an active site of the company (else 400 on `site_id`). */
/** The kiosk's site: an active one of the company (else a 400 on `site_id`). */
export const kioskSite = activeSiteOf;

function columnsOf(input: KioskUpdate): Partial<typeof kiosks.$inferInsert> {
  const values: Partial<typeof kiosks.$inferInsert> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.site_id !== undefined) values.siteId = input.site_id;
  if (input.languages !== undefined) values.languages = input.languages;
  if (input.ask_photo !== undefined) values.askPhoto = input.ask_photo;
  if (input.print_badge !== undefined) values.printBadge = input.print_badge;
  if (input.idle_seconds !== undefined) values.idleSeconds = input.idle_seconds;
  if (input.host_wait_seconds !== undefined) values.hostWaitSeconds = input.host_wait_seconds;
  if (input.badge_size !== undefined) values.badgeSize = input.badge_size;
  if (input.printer_url !== undefined) values.printerUrl = input.printer_url;
  return values;
}

export interface Actor {
  userId: string | null;
  secret: string;
  now?: Date;
}

/** Creates the kiosk and its first pairing code, audited, in one transaction. */
export async function createKiosk(
  db: Db,
  companyId: string,
  input: KioskInput,
  actor: Actor,
): Promise<{ kiosk: KioskRow; pairing: KioskPairing }> {
  return db.transaction(async (tx) => {
    const site = await kioskSite(tx, companyId, input.site_id);
    const [row] = await tx
      .insert(kiosks)
      .values({
        companyId,
        ...columnsOf(input),
        name: input.name,
        siteId: site.id,
        createdBy: actor.userId,
      })
      .returning();
    const pairing = await issuePairingCode(tx, actor.secret, row!.id, actor.now);
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'kiosk.created',
      subjectType: 'kiosk',
      subjectId: row!.id,
      detail: { siteId: site.id },
    });
    const kiosk = (await findKiosk(tx, row!.id))!;
    return { kiosk, pairing: presentPairing(pairing) };
  });
}

/** Edits a kiosk; a field left out is kept. A new site must be an active one of the company. */
export async function updateKiosk(
  db: Db,
  kiosk: KioskRow,
  input: KioskUpdate,
  actor: Actor,
): Promise<KioskRow> {
  return db.transaction(async (tx) => {
    if (input.site_id !== undefined && input.site_id !== kiosk.siteId) {
      await kioskSite(tx, kiosk.companyId, input.site_id);
    }
    const values = columnsOf(input);
    // Object.keys gives string[]; `values` has only columns of the kiosk row.
    const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
      (key) => JSON.stringify(values[key]) !== JSON.stringify(kiosk[key as keyof KioskRow]),
    );
    if (Object.keys(values).length > 0) {
      await tx.update(kiosks).set(values).where(eq(kiosks.id, kiosk.id));
    }
    if (changed.length > 0) {
      await audit(tx, {
        companyId: kiosk.companyId,
        actorUserId: actor.userId,
        action: 'kiosk.updated',
        subjectType: 'kiosk',
        subjectId: kiosk.id,
        detail: { fields: changed.map(String) },
      });
    }
    return (await findKiosk(tx, kiosk.id))!;
  });
}

/**
 * A new pairing code for the kiosk (a revoked one may be paired again): the tablet that
 * holds the current token keeps it until the code is used.
 */
export async function newPairingCode(
  db: Db,
  kiosk: KioskRow,
  actor: Actor,
): Promise<{ kiosk: KioskRow; pairing: KioskPairing }> {
  return db.transaction(async (tx) => {
    const pairing = await issuePairingCode(tx, actor.secret, kiosk.id, actor.now);
    await audit(tx, {
      companyId: kiosk.companyId,
      actorUserId: actor.userId,
      action: 'kiosk.code_issued',
      subjectType: 'kiosk',
      subjectId: kiosk.id,
    });
    return { kiosk: (await findKiosk(tx, kiosk.id))!, pairing: presentPairing(pairing) };
  });
}

/** Revokes the kiosk: its token and any code die at once; it stays listed. */
export async function revoke(db: Db, kiosk: KioskRow, actor: Actor): Promise<KioskRow> {
  return db.transaction(async (tx) => {
    if (!kiosk.revokedAt) {
      await revokeKiosk(tx, kiosk.id, actor.now);
      await audit(tx, {
        companyId: kiosk.companyId,
        actorUserId: actor.userId,
        action: 'kiosk.revoked',
        subjectType: 'kiosk',
        subjectId: kiosk.id,
      });
    }
    return (await findKiosk(tx, kiosk.id))!;
  });
}

/** A tablet just paired: audited as the kiosk's company's (no staff member acted). */
export async function auditPairing(db: Db, kioskId: string): Promise<void> {
  const [row] = await db
    .select({ companyId: kiosks.companyId, siteId: kiosks.siteId })
    .from(kiosks)
    .where(eq(kiosks.id, kioskId))
    .limit(1);
  if (!row) return;
  await audit(db, {
    companyId: row.companyId,
    actorUserId: null,
    action: 'kiosk.paired',
    subjectType: 'kiosk',
    subjectId: kioskId,
    detail: { siteId: row.siteId },
  });
}

/**
 * What the tablet knows of itself: its settings, its company's name and logo, its site's
 * name and zone. No printer address, no staff, no code.
 */
export async function kioskConfig(
  db: Db,
  kioskId: string,
  logoUrl: (stored: string | null) => string | null,
): Promise<KioskConfig | null> {
  const [row] = await db
    .select({
      kiosk: kiosks,
      companyName: companies.name,
      companySlug: companies.slug,
      logo: files.storedName,
      siteName: sites.name,
      timezone: sites.timezone,
      sitePrinter: sites.badgePrinterUrl,
    })
    .from(kiosks)
    .innerJoin(companies, eq(companies.id, kiosks.companyId))
    .innerJoin(sites, eq(sites.id, kiosks.siteId))
    .leftJoin(files, eq(files.id, companies.logoFileId))
    .where(eq(kiosks.id, kioskId))
    .limit(1);
  if (!row) return null;
  const k = row.kiosk;
  return {
    id: k.id,
    name: k.name,
    company: { name: row.companyName, slug: row.companySlug, logo: logoUrl(row.logo) },
    site: { name: row.siteName, timezone: row.timezone },
    // Columns written only from the kiosk schema: languages (jsonb) and badge size (text).
    languages: k.languages as KioskConfig['languages'],
    ask_photo: k.askPhoto,
    print_badge: k.printBadge,
    idle_seconds: k.idleSeconds,
    host_wait_seconds: k.hostWaitSeconds,
    // text column: written only from the kiosk schema's badge sizes.
    badge_size: k.badgeSize as KioskConfig['badge_size'],
    server_prints: Boolean(k.printerUrl ?? row.sitePrinter),
  };
}

/**
 * A site's active visitor types as a visitor's screen reads them (issue 31: the kiosk's
 * type step, an invitation's link): names, band, required fields, host approval, and every
 * document of each at its current version, in both languages. Position order.
 */
export async function publicVisitorTypes(db: Db, siteId: string): Promise<PublicVisitorType[]> {
  const types = await db
    .select()
    .from(visitorTypes)
    .where(and(eq(visitorTypes.siteId, siteId), isNull(visitorTypes.archivedAt)))
    .orderBy(asc(visitorTypes.position), asc(visitorTypes.createdAt));
  return Promise.all(
    types.map(async (type) => presentPublicType(type, await documentsOfType(db, type.id))),
  );
}

/** One type, with its documents (`documentsOfType`), as a visitor's screen reads it. */
export function presentPublicType(
  type: typeof visitorTypes.$inferSelect,
  documents: readonly TypeDocumentToSign[],
): PublicVisitorType {
  return {
    id: type.id,
    name_fr: type.nameFr,
    name_en: type.nameEn,
    color: type.color,
    // jsonb column: written only from the visitor type schema's fields.
    required_fields: type.requiredFields as VisitorTypeField[],
    host_approval: type.hostApproval,
    documents: documents.map((d) => ({
      document_id: d.documentId,
      version: d.version,
      title_fr: d.titleFr,
      title_en: d.titleEn,
      body_fr: d.bodyFr,
      body_en: d.bodyEn,
    })),
  };
}

/** The documents still to sign, in the visitor's language (what a signing step shows). */
export function presentToSign(
  documents: readonly TypeDocumentToSign[],
  language: string,
): DocumentToSign[] {
  const lang = language === 'en' ? 'en' : 'fr';
  return documents.map((d) => ({
    document_id: d.documentId,
    version: d.version,
    language: lang,
    title: lang === 'en' ? d.titleEn : d.titleFr,
    body: lang === 'en' ? d.bodyEn : d.bodyFr,
  }));
}
