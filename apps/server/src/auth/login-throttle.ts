/**
 * Failed sign-ins slow down, they never lock anyone out (issue 11 §3).
 *
 * Each attempt first *claims* a turn for two keys: the account from this client
 * address, and the client address alone (password spraying across accounts). The
 * claim is one statement: it counts the attempt as a failure in advance and pushes
 * the key's next allowed instant back by a delay that grows with the failures, or
 * claims nothing when that instant has not come. Sixty concurrent attempts, on any
 * number of server instances, are therefore counted one by one in PostgreSQL. A
 * sign-in that succeeds clears its account-and-client key.
 *
 * Since the account key includes the client, nobody can lock the platform admin out
 * from elsewhere: they only slow their own attempts down.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginThrottle } from '../db/schema';

export interface LoginThrottleRules {
  /** Failures of one account from one client before each next attempt waits. */
  accountFreeAttempts: number;
  /** Failures from one client, all accounts together, before each next attempt waits. */
  clientFreeAttempts: number;
  /** The first wait, doubled at every further failure, up to MAX_DELAY_SECONDS. */
  firstDelaySeconds: number;
}

const MAX_DELAY_SECONDS = 15 * 60;
/** A key's count starts over after a day without failures. */
const FORGET_AFTER = sql`interval '1 day'`;

/**
 * Claims one attempt for `key`: false when the key must still wait. The delay after
 * failure n (counting this one) is 0 up to `free`, then 1 s, 2 s, 4 s… up to 15 min.
 */
async function claim(db: Db, key: string, free: number, firstDelay: number): Promise<boolean> {
  const failures = sql`case when ${loginThrottle.updatedAt} < now() - ${FORGET_AFTER} then 1 else ${loginThrottle.failures} + 1 end`;
  // A free attempt leaves no wait at all ('-infinity'), not "now": concurrent statements
  // each read their own now(), and one must not make another's look early.
  const nextAllowed = (count: typeof failures) =>
    sql`case when ${count} < ${free} then '-infinity'::timestamptz else now() + make_interval(secs => least(${MAX_DELAY_SECONDS}, ${firstDelay} * power(2, ${count} - ${free}))) end`;
  const rows = await db
    .insert(loginThrottle)
    .values({
      key,
      failures: 1,
      nextAllowedAt: nextAllowed(sql`1`),
      updatedAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures,
        nextAllowedAt: nextAllowed(failures),
        updatedAt: sql`now()`,
      },
      setWhere: sql`${loginThrottle.nextAllowedAt} <= now()`,
    })
    .returning({ failures: loginThrottle.failures });
  return rows.length > 0;
}

export class LoginThrottle {
  constructor(private readonly rules: LoginThrottleRules) {}

  private keys(email: string, client: string) {
    return { account: `account:${email}|client:${client}`, client: `client:${client}` };
  }

  /**
   * Whether this attempt may be evaluated now. It is counted as a failure until
   * `succeeded` says otherwise.
   */
  async claim(db: Db, email: string, client: string): Promise<boolean> {
    const keys = this.keys(email, client);
    const { accountFreeAttempts, clientFreeAttempts, firstDelaySeconds } = this.rules;
    if (!(await claim(db, keys.account, accountFreeAttempts, firstDelaySeconds))) return false;
    return claim(db, keys.client, clientFreeAttempts, firstDelaySeconds);
  }

  /** A right password: this account's count from this client starts over. */
  async succeeded(db: Db, email: string, client: string): Promise<void> {
    await db.delete(loginThrottle).where(eq(loginThrottle.key, this.keys(email, client).account));
  }
}

/** Rows no failure touched for a day count nothing any more (the daily clean-up). */
export async function forgetOldLoginFailures(db: Db): Promise<void> {
  await db.delete(loginThrottle).where(sql`${loginThrottle.updatedAt} < now() - ${FORGET_AFTER}`);
}
