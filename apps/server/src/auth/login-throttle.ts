/**
 * Failed sign-ins slow down, they never lock anyone out (issue 11 §3, issue 26 §1).
 *
 * Three counts of failures, each a row changed by one statement, so that concurrent
 * attempts on any number of server instances are counted one by one in PostgreSQL. An
 * attempt is counted as a failure of all three before its password is read; a right
 * password gives each count back (the pair's starts over), so successes never count.
 * A count starts over after a day without failures: `updated_at` is the last failure
 * (`failed`), which a success leaves alone, so an office signing in every day still
 * forgets a typo of last week.
 *
 * - **The account from this client** (the pair): after `accountFreeAttempts` failures,
 *   each next attempt waits 1 s, 2 s, 4 s… up to 15 minutes, and is refused (429) until
 *   then. Only people at that address make it wait: nobody slows the platform admin
 *   down from elsewhere.
 * - **The client address**, all accounts together (spraying from one address): after
 *   `clientFreeAttempts` failures it waits the same way, but it only refuses an attempt
 *   whose pair has failed before. An office behind one NAT, or a visitor on the lobby's
 *   guest Wi-Fi burning wrong passwords, shares the address with staff; what a staff
 *   member has there that the visitor cannot take away is their own pair without
 *   failures, so their right password is verified while the address waits. Once it
 *   waits, a sprayer there still gets one guess at each account not yet tried from it;
 *   every further guess waits with the address.
 * - **The account, every client together** (guessing from many addresses): after
 *   `accountWideFreeAttempts` failures its verifications are spaced. Each attempt takes
 *   the account's next turn, the turns growing apart 1 s, 2 s, 4 s… up to 15 minutes, and
 *   waits for it here, at most `holdSeconds`. A pair without failures of its own is
 *   never refused by this count: past the hold it is verified anyway, delayed, never
 *   locked out. A pair that has failed is refused rather than held longer, so while the
 *   account is under attack each address gets one guess at it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginThrottle } from '../db/schema';

export interface LoginThrottleRules {
  /** Failures of one account from one client before each next attempt waits. */
  accountFreeAttempts: number;
  /** Failures from one client, all accounts together, before it waits. */
  clientFreeAttempts: number;
  /** Failures of one account, every client together, before its verifications are spaced. */
  accountWideFreeAttempts: number;
  /** The first wait, doubled at every further failure, up to MAX_DELAY_SECONDS. */
  firstDelaySeconds: number;
  /** The longest an attempt waits here for its account's turn. */
  holdSeconds: number;
}

const MAX_DELAY_SECONDS = 15 * 60;
/** A key's count starts over after a day without failures. */
const FORGET_AFTER = sql`interval '1 day'`;

/**
 * One count: its row, its free failures, and whether it gives turns (the account, every
 * client together) rather than making attempts wait (the pair, the address).
 */
interface Count {
  key: string;
  free: number;
  turns: boolean;
}

const forgotten = sql`${loginThrottle.updatedAt} < now() - ${FORGET_AFTER}`;
/** The key's failures with this attempt's. */
const counted = sql`case when ${forgotten} then 1 else ${loginThrottle.failures} + 1 end`;
/** A count starting over starts its day now; otherwise the last failure stays the mark. */
const touched = sql`case when ${forgotten} then now() else ${loginThrottle.updatedAt} end`;
/** The wait after failure `count`, once past `free`: firstDelay, doubled, up to 15 minutes. */
const delayAfter = (count: SQL, free: number | SQL, firstDelay: number) =>
  sql`make_interval(secs => least(${MAX_DELAY_SECONDS}, ${firstDelay} * power(2, ${count} - ${free})))`;

/**
 * Counts one attempt for `count`: its failures with this one, or null (nothing counted)
 * when the key must still wait — unless `regardless`, when the attempt is counted and
 * goes ahead. The wait after failure n is none up to `free`, then 1 s, 2 s, 4 s…
 */
async function claimTurn(
  db: Db,
  { key, free }: Count,
  firstDelay: number,
  regardless: boolean,
): Promise<number | null> {
  // No wait is '-infinity', not "now": concurrent statements each read their own now(),
  // and one must not make another's look early. An attempt counted while the key waits
  // ('regardless') never shortens the wait.
  const nextAllowed = (count: SQL, previous: SQL) =>
    sql`case when ${count} < ${free} then '-infinity'::timestamptz else greatest(${previous}, now() + ${delayAfter(count, free, firstDelay)}) end`;
  const rows = await db
    .insert(loginThrottle)
    .values({
      key,
      failures: 1,
      nextAllowedAt: nextAllowed(sql`1`, sql`'-infinity'::timestamptz`),
      updatedAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: {
        failures: counted,
        nextAllowedAt: nextAllowed(counted, sql`${loginThrottle.nextAllowedAt}`),
        updatedAt: touched,
      },
      setWhere: regardless ? undefined : sql`${loginThrottle.nextAllowedAt} <= now()`,
    })
    .returning({ failures: loginThrottle.failures });
  return rows[0]?.failures ?? null;
}

/**
 * Takes the account's next turn for one attempt: how many milliseconds to wait for it
 * (at most `hold` seconds), or null (nothing counted) when the turn is further than the
 * hold and the attempt is not `regardless`. Free attempts take no turn (0); past `free`,
 * each attempt's turn is the later of now and the account's next turn (but no later than
 * the hold), and the next turn comes the grown delay after it.
 */
async function claimAccountTurn(
  db: Db,
  { key, free }: Count,
  firstDelay: number,
  hold: number,
  regardless: boolean,
): Promise<number | null> {
  const holdEnds = sql`now() + make_interval(secs => ${hold})`;
  const turn = sql`case when ${forgotten} then now() else greatest(now(), least(${loginThrottle.nextAllowedAt}, ${holdEnds})) end`;
  const nextTurn = (count: SQL, turnOf: SQL) =>
    sql`case when ${count} < ${free} then '-infinity'::timestamptz else ${turnOf} + ${delayAfter(count, free, firstDelay)} end`;
  const rows = await db
    .insert(loginThrottle)
    .values({
      key,
      failures: 1,
      nextAllowedAt: nextTurn(sql`1`, sql`now()`),
      updatedAt: sql`now()`,
    })
    .onConflictDoUpdate({
      target: loginThrottle.key,
      set: { failures: counted, nextAllowedAt: nextTurn(counted, turn), updatedAt: touched },
      setWhere: regardless ? undefined : sql`${loginThrottle.nextAllowedAt} <= ${holdEnds}`,
    })
    .returning({
      // This attempt's turn is the new next turn less its delay (both known from the row).
      waitMs: sql<number>`case when ${loginThrottle.failures} < ${free} then 0 else greatest(0, extract(epoch from ${loginThrottle.nextAllowedAt} - ${delayAfter(sql`${loginThrottle.failures}`, free, firstDelay)} - now()) * 1000)::float8 end`,
    });
  const row = rows[0];
  return row ? Number(row.waitMs) : null;
}

/** Counts as a table `k(key, free, turns)`, to settle several rows in one statement. */
const countsTable = (counts: Count[]) =>
  sql`(values ${sql.join(
    counts.map(({ key, free, turns }) => sql`(${key}::text, ${free}::int, ${turns}::boolean)`),
    sql`, `,
  )}) as k(key, free, turns)`;

/**
 * Gives back one attempt's count on each key (it was right, or refused by a later key),
 * so that it neither counts nor waits: a count back under its free failures waits no
 * more, and one past them waits only what its last failure set. A turn taken stays taken
 * (the verification happened). One statement.
 */
async function giveBack(db: Db, counts: Count[], firstDelay: number): Promise<void> {
  const failuresLeft = sql`t.failures - 1`;
  await db.execute(sql`
    update ${loginThrottle} as t set
      failures = greatest(${failuresLeft}, 0),
      next_allowed_at = case
        when ${failuresLeft} < k.free then '-infinity'::timestamptz
        when k.turns then t.next_allowed_at
        else least(t.next_allowed_at, t.updated_at + ${delayAfter(failuresLeft, sql`k.free`, firstDelay)})
      end
    from ${countsTable(counts)}
    where t.key = k.key`);
}

/**
 * Marks a failure on each key: it is remembered a day from now, and a key past its free
 * failures waits from now (a success given back in the meantime may have shortened the
 * wait this attempt's claim set). One statement.
 */
async function markFailure(db: Db, counts: Count[], firstDelay: number): Promise<void> {
  await db.execute(sql`
    update ${loginThrottle} as t set
      updated_at = now(),
      next_allowed_at = case
        when k.turns or t.failures < k.free then t.next_allowed_at
        else greatest(t.next_allowed_at, now() + ${delayAfter(sql`t.failures`, sql`k.free`, firstDelay)})
      end
    from ${countsTable(counts)}
    where t.key = k.key`);
}

export class LoginThrottle {
  constructor(private readonly rules: LoginThrottleRules) {}

  private counts(email: string, client: string) {
    const { accountFreeAttempts, clientFreeAttempts, accountWideFreeAttempts } = this.rules;
    return {
      pair: { key: `account:${email}|client:${client}`, free: accountFreeAttempts, turns: false },
      address: { key: `client:${client}`, free: clientFreeAttempts, turns: false },
      account: { key: `account-wide:${email}`, free: accountWideFreeAttempts, turns: true },
    } satisfies Record<string, Count>;
  }

  /**
   * Whether this attempt may be verified: false (429) when it must wait; true once its
   * turn has come (it may have waited here for it, at most `holdSeconds`). It is counted
   * as a failure until `succeeded` says otherwise.
   */
  async claim(db: Db, email: string, client: string): Promise<boolean> {
    const { pair, address, account } = this.counts(email, client);
    const { firstDelaySeconds, holdSeconds } = this.rules;
    const pairFailures = await claimTurn(db, pair, firstDelaySeconds, false);
    if (pairFailures === null) return false;
    // This attempt is the pair's first since its last success (or for a day): nothing
    // the pair did holds it back, only what others at its address or elsewhere did.
    const clean = pairFailures === 1;
    if ((await claimTurn(db, address, firstDelaySeconds, clean)) === null) {
      await giveBack(db, [pair], firstDelaySeconds);
      return false;
    }
    const waitMs = await claimAccountTurn(db, account, firstDelaySeconds, holdSeconds, clean);
    if (waitMs === null) {
      await giveBack(db, [pair, address], firstDelaySeconds);
      return false;
    }
    if (waitMs > 0) await sleep(Math.min(waitMs, holdSeconds * 1000));
    return true;
  }

  /** A wrong password (or a disabled account): its counts stay, remembered a day from now. */
  async failed(db: Db, email: string, client: string): Promise<void> {
    const { pair, address, account } = this.counts(email, client);
    await markFailure(db, [pair, address, account], this.rules.firstDelaySeconds);
  }

  /**
   * A right password: this account's count from this client starts over, and the
   * attempt's counts on its address and on the account are given back.
   */
  async succeeded(db: Db, email: string, client: string): Promise<void> {
    const { pair, address, account } = this.counts(email, client);
    await db.delete(loginThrottle).where(eq(loginThrottle.key, pair.key));
    await giveBack(db, [address, account], this.rules.firstDelaySeconds);
  }
}

/** Rows no failure touched for a day count nothing any more (the daily clean-up). */
export async function forgetOldLoginFailures(db: Db): Promise<void> {
  await db.delete(loginThrottle).where(sql`${loginThrottle.updatedAt} < now() - ${FORGET_AFTER}`);
}
