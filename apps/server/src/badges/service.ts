/**
 * Badge prints (issue 29): every badge printed is recorded apart from the check-in — who
 * (a staff member or a kiosk), when, on which printer ('browser' for a print dialog, else the
 * IPP address), the label, and whether the visit had a badge already (a reprint) — with its
 * audit entry, in one transaction. Only prints that happened are recorded: a printer that did
 * not take the job leaves no row.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { BadgePrint, BadgeSize } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { badgePrints, kiosks } from '../db/schema';
import { isBadgeSize } from './render';

export type BadgePrintRow = typeof badgePrints.$inferSelect;

export function presentBadgePrint(row: BadgePrintRow): BadgePrint {
  return {
    id: row.id,
    printer: row.printer,
    badge_size: isBadgeSize(row.badgeSize) ? row.badgeSize : '62x100',
    reprint: row.reprint,
    at: row.createdAt.toISOString(),
  };
}

export interface PrintRecord {
  companyId: string;
  requestId: string;
  /** The staff member who printed, or the kiosk (exactly one). */
  by: { userId: string } | { kioskId: string };
  /** 'browser', or the IPP printer's address. */
  printer: string;
  badgeSize: BadgeSize;
}

/**
 * Records one print and its audit entry. `reprint` is whether the request had a print
 * before, read by the insert itself.
 */
export async function recordBadgePrint(db: Db, print: PrintRecord): Promise<BadgePrintRow> {
  return db.transaction(async (tx) => {
    const userId = 'userId' in print.by ? print.by.userId : null;
    const kioskId = 'kioskId' in print.by ? print.by.kioskId : null;
    const [row] = await tx
      .insert(badgePrints)
      .values({
        companyId: print.companyId,
        requestId: print.requestId,
        printedBy: userId,
        kioskId,
        printer: print.printer,
        badgeSize: print.badgeSize,
        reprint: sql`exists (select 1 from ${badgePrints} where ${badgePrints.requestId} = ${print.requestId})`,
      })
      .returning();
    await audit(tx, {
      companyId: print.companyId,
      actorUserId: userId,
      action: 'badge.printed',
      subjectType: 'request',
      subjectId: print.requestId,
      detail: {
        via: print.printer === 'browser' ? 'browser' : 'ipp',
        badgeSize: print.badgeSize,
        reprint: row!.reprint,
        ...(kioskId ? { kioskId } : {}),
      },
    });
    return row!;
  });
}

/** A request's prints, newest first. */
export async function listBadgePrints(db: Db, requestId: string): Promise<BadgePrintRow[]> {
  return db
    .select()
    .from(badgePrints)
    .where(eq(badgePrints.requestId, requestId))
    .orderBy(desc(badgePrints.createdAt), desc(badgePrints.id));
}

/** A kiosk's printer and label (the device token carries its id only). */
export async function kioskPrinting(
  db: Db,
  kioskId: string,
): Promise<{ printerUrl: string | null; badgeSize: BadgeSize }> {
  const [row] = await db
    .select({ printerUrl: kiosks.printerUrl, badgeSize: kiosks.badgeSize })
    .from(kiosks)
    .where(eq(kiosks.id, kioskId))
    .limit(1);
  return {
    printerUrl: row?.printerUrl ?? null,
    badgeSize: row && isBadgeSize(row.badgeSize) ? row.badgeSize : '62x100',
  };
}
