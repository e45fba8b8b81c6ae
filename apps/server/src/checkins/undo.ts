/**
 * Undo a check (issue 14): the front desk takes back a person's last arrival or
 * departure within UNDO_WINDOW_MINUTES, with a reason. Nothing is deleted:
 *   - an arrival undone keeps its row, marked undone_at / undone_by / undo_reason; it no
 *     longer counts for presence (on-site/presence.ts) nor for the one-open-check index;
 *   - a departure undone clears check_out_* (the person is inside again) and keeps the
 *     departure in undone_out_* with who undid it, when and why (out_undone_*).
 * Each write is guarded by what was read (still the same state), so a scan racing the
 * undo makes one of them fail with a 409 rather than both half-apply; one audit entry.
 */
import { sql } from 'drizzle-orm';
import { UNDO_WINDOW_MINUTES, sayIn, type CheckUndoResult, type Language } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { conflict, isUniqueViolation } from '../errors';
import { z } from 'zod';
import { checkTable, type CheckTable } from '../on-site/presence';
import { column, idRow, rowsOf } from '../db/rows';

export interface UndoTarget extends Record<string, unknown> {
  id: string;
  companyId: string;
  table: CheckTable;
  personId: string;
  name: string;
  checkInAt: Date;
  checkOutAt: Date | null;
  undoneAt: Date | null;
}

const tables = {
  visitor: { checks: sql.raw('visitor_checks'), person: sql.raw('visitor_id') },
  user: { checks: sql.raw('user_checks'), person: sql.raw('qr_user_id') },
} as const;

const undoTargetRow = z.object({
  id: z.string(),
  company_id: z.string(),
  tbl: checkTable,
  person_id: z.string(),
  name: z.string(),
  check_in_at: column.time,
  check_out_at: column.time.nullable(),
  undone_at: column.time.nullable(),
});

/** A check of either table by id, with its person's name; null when unknown. */
export async function findCheckForUndo(db: Db, checkId: string): Promise<UndoTarget | null> {
  const [row] = await rowsOf(
    db,
    undoTargetRow,
    sql`select k.id, k.company_id, 'visitor' as tbl, k.visitor_id as person_id,
               trim(v.firstname || ' ' || v.lastname) as name,
               k.check_in_at, k.check_out_at, k.undone_at
          from visitor_checks k join visitors v on v.id = k.visitor_id where k.id = ${checkId}
        union all
        select k.id, k.company_id, 'user', k.qr_user_id,
               trim(coalesce(q.firstname, '') || ' ' || coalesce(q.lastname, '')),
               k.check_in_at, k.check_out_at, k.undone_at
          from user_checks k join qr_users q on q.id = k.qr_user_id where k.id = ${checkId}`,
  );
  if (!row) return null;
  return {
    id: row.id,
    companyId: row.company_id,
    table: row.tbl,
    personId: row.person_id,
    name: row.name,
    checkInAt: row.check_in_at,
    checkOutAt: row.check_out_at,
    undoneAt: row.undone_at,
  };
}

const windowMs = UNDO_WINDOW_MINUTES * 60_000;

/** Undoes `target`'s arrival (open check) or departure (closed check), as `userId`, at `now`. */
export async function undoCheck(
  db: Db,
  target: UndoTarget,
  userId: string,
  reason: string,
  lang: Language,
  now: Date = new Date(),
): Promise<CheckUndoResult> {
  if (target.undoneAt) throw conflict((m) => m.undo.alreadyUndone);
  const { checks, person } = tables[target.table];
  const undone = target.checkOutAt ? 'departure' : 'arrival';
  const madeAt = target.checkOutAt ?? target.checkInAt;
  if (now.getTime() - madeAt.getTime() > windowMs) throw conflict((m) => m.undo.tooLate);
  const at = now.toISOString();
  try {
    return await db.transaction(async (tx) => {
      // The person's last check still counting: only it may be undone.
      const [latest] = await rowsOf(
        tx,
        idRow,
        sql`select id from ${checks} where ${person} = ${target.personId} and undone_at is null
             order by check_in_at desc, id desc limit 1`,
      );
      if (latest?.id !== target.id) throw conflict((m) => m.undo.notLatest);
      const written = await rowsOf(
        tx,
        idRow,
        undone === 'arrival'
          ? sql`update ${checks}
                   set undone_at = ${at}::timestamptz, undone_by = ${userId}, undo_reason = ${reason}
                 where id = ${target.id} and check_out_at is null and undone_at is null
                returning id`
          : sql`update ${checks}
                   set undone_out_at = check_out_at, undone_out_method = check_out_method,
                       undone_out_by = check_out_by, out_undone_at = ${at}::timestamptz,
                       out_undone_by = ${userId}, out_undo_reason = ${reason},
                       check_out_at = null, check_out_method = null, check_out_by = null
                 where id = ${target.id} and undone_at is null and check_out_at is not null
                returning id`,
      );
      // Changed since it was read (a scan closed or reopened it): nothing undone.
      if (written.length === 0) throw conflict((m) => m.undo.notLatest);
      await audit(tx, {
        companyId: target.companyId,
        actorUserId: userId,
        action: 'check.undone',
        subjectType: target.table === 'visitor' ? 'visitor' : 'qr_user',
        subjectId: target.personId,
        detail: { check_id: target.id, undone },
      });
      return {
        undone,
        message: sayIn(lang, (m) =>
          undone === 'arrival'
            ? m.undo.arrivalUndone(target.name)
            : m.undo.departureUndone(target.name),
        ),
      };
    });
  } catch (error) {
    // A departure undone while the person already holds another open check.
    if (isUniqueViolation(error)) throw conflict((m) => m.undo.notLatest);
    throw error;
  }
}
