/**
 * Throttled sign-in attempts in the audit log (issue 27): the throttle's refusals (429) left no
 * trace, so an attack read as one failed sign-in among dozens of refusals. Each refusal of a
 * known account adds one to its (account, client, minute) count, in one statement whichever
 * instance answered; each closed minute then becomes one `auth.sign_in_throttled` entry of the
 * account's company, with the count. The audit log stays append-only, and one attack is a few
 * lines, not one per attempt.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { idRow, rowsOf } from '../db/rows';
import { signInRefusals, users } from '../db/schema';

/**
 * The client as the audit log names it: a short keyed hash of its address, enough to tell two
 * clients apart in one company's log, not the address itself.
 */
export function clientTag(client: string, secret: string): string {
  return createHmac('sha256', secret).update(client).digest('hex').slice(0, 12);
}

/**
 * Counts one refused attempt at `email` from the client `tag` (`clientTag`); an unknown
 * e-mail is no account's and is not counted.
 */
export async function recordRefusal(
  db: Db,
  email: string,
  tag: string,
  now: Date = new Date(),
): Promise<void> {
  await db.execute(sql`
    insert into ${signInRefusals} (user_id, client, minute, attempts)
    select ${users.id}, ${tag}, date_trunc('minute', ${now.toISOString()}::timestamptz), 1
    from ${users} where lower(${users.email}) = ${email.toLowerCase()}
    on conflict (user_id, client, minute)
    do update set attempts = ${signInRefusals.attempts} + 1`);
}

/**
 * Writes every closed minute's counts as audit entries and forgets them, in one statement: an
 * instance running it at the same time as another finds the rows already taken.
 */
export async function flushRefusals(db: Db, now: Date = new Date()): Promise<number> {
  const written = await rowsOf(
    db,
    idRow,
    sql`
    with taken as (
      delete from ${signInRefusals}
      where minute < date_trunc('minute', ${now.toISOString()}::timestamptz)
      returning user_id, client, minute, attempts
    )
    insert into audit_events (id, company_id, actor_user_id, action, subject_type, subject_id, detail, at)
    select gen_random_uuid(), u.company_id, null, 'auth.sign_in_throttled', 'user', u.id,
           jsonb_build_object('attempts', t.attempts, 'client', t.client, 'minute', t.minute),
           t.minute + interval '1 minute'
    from taken t join ${users} u on u.id = t.user_id
    returning id`,
  );
  return written.length;
}
