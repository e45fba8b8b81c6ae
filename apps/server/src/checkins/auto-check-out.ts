/**
 * Automatic check-out (issue 14): each site's 'fin de journée' (`sites.day_end`,
 * HH:MM in the site's time zone, issue 28; a check's site is where it was made) closes every check still open, with the method 'automatic'
 * and no recorder, at that day end. A visitor whose type has its own check-out time
 * (`visitor_types.auto_check_out_at`, issue 31) is checked out at that time instead.
 *
 * A check's day end is the first one after its own arrival: the day end of the local
 * day it was opened, or the next day's when it was opened after that hour (someone who
 * arrives at 19:00 with an 18:00 day end is not sent out at once, but the next evening).
 *
 * One UPDATE per table, guarded by `check_out_at is null`: any number of runs, on any
 * number of server instances, close each check once (a concurrent run waits for the row
 * and then finds it closed). The presence triggers (migration 0008) tell the live screens.
 */
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { column, rowsOf } from '../db/rows';

/**
 * The instant check `k` made at site `s` is closed at: the first `end` (an HH:MM column
 * or expression, in the site's zone) after its arrival.
 */
const dayEndOf = (k: string, end: SQL): SQL => {
  const arrival = sql.raw(`${k}.check_in_at`);
  const localDay = sql`(${arrival} at time zone s.timezone)::date`;
  const endOn = (day: SQL) => sql`((${day} + (${end})::time) at time zone s.timezone)`;
  return sql`case when ${endOn(localDay)} > ${arrival} then ${endOn(localDay)}
                  else ${endOn(sql`(${localDay} + 1)`)} end`;
};

/**
 * When a check ends: a visitor's type's own `auto_check_out_at` (issue 31), else the site's
 * day end; a member's or permanent QR holder's, the site's day end.
 */
const endOf = (table: 'visitor_checks' | 'user_checks'): SQL =>
  table === 'visitor_checks'
    ? sql`coalesce((select t.auto_check_out_at from visitors v
                      join visitor_types t on t.id = v.visitor_type_id
                     where v.id = k.visitor_id), s.day_end)`
    : sql`s.day_end`;

function closeIn(table: 'visitor_checks' | 'user_checks', now: SQL): SQL {
  const end = dayEndOf('k', endOf(table));
  return sql`
    update ${sql.raw(table)} k
       set check_out_at = ${end}, check_out_method = 'automatic', check_out_by = null
      from sites s
     where s.id = k.site_id
       and k.check_out_at is null and k.undone_at is null
       and ${end} <= ${now}
    returning k.id`;
}

/** Closes every open check whose day end has passed at `now`; answers how many it closed. */
export async function autoCheckOut(db: Db, now: Date = new Date()): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = await rowsOf(
    db,
    z.object({ n: column.count }),
    sql`
    with v as (${closeIn('visitor_checks', at)}),
         u as (${closeIn('user_checks', at)})
    select (select count(*) from v) + (select count(*) from u) as n`,
  );
  return row?.n ?? 0;
}
