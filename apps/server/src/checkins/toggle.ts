/**
 * The code check (ARCHITECTURE §7): a code toggles its holder between inside and
 * outside. One query reads the holder with their latest check; one guarded
 * statement then writes: the check-out closes only a check still open, the
 * check-in inserts only if the partial unique index (one open check per person)
 * lets it. Two scans racing on one code therefore make one change — the loser's
 * write finds nothing to do and it reports the winner's check — without holding
 * a transaction or a row lock across round trips (the front desk's throughput).
 *
 * A second scan inside the repeat window changes nothing and reports the check
 * just made, so a badge held twice in front of the camera does not check its
 * holder straight back out.
 */
import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import {
  CHECK_MESSAGES,
  actsOnAllCompanies,
  formatUidn,
  normalizeUidn,
  type CheckMethod,
  type CheckResult,
} from '@sesame/shared';
import { authorize } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import type { Db } from '../db/client';
import { newId } from '../db/ids';
import { prepared } from '../db/prepared';
import {
  companies,
  events,
  qrUsers,
  userChecks,
  visitorChecks,
  visitRequests,
  visitors,
} from '../db/schema';
import { HttpError, notFound } from '../errors';
import { isEventDayOver } from '../events/time';
import { dayOf } from '../qr-users/dates';

export interface CheckContext {
  principal: Principal | null;
  method: CheckMethod;
  repeatWindowMs: number;
  now?: Date;
}

/** A refusal a person can act on: the code is known but may not be checked in now. */
const refused = (message: string) => new HttpError(409, message);

interface Holder {
  id: string;
  companyId: string;
  firstname: string;
  lastname: string;
  timezone: string;
}

interface Check {
  id: string;
  checkInAt: Date;
  checkOutAt: Date | null;
}

/** The two guarded writes of a toggle, for visitors or for QR users. Each says whether it wrote. */
interface CheckStore {
  close(db: Db, checkId: string, values: CloseValues): Promise<boolean>;
  open(db: Db, holder: Holder, values: OpenValues): Promise<boolean>;
}
interface CloseValues {
  checkOutAt: Date;
  checkOutMethod: CheckMethod;
  checkOutBy: string | null;
}
interface OpenValues {
  checkInAt: Date;
  checkInMethod: CheckMethod;
  checkInBy: string | null;
}

/**
 * Both writes are prepared statements (built and planned once per connection, like
 * the holder query): the front desk's throughput is in these few statements.
 */
function checkStore(table: typeof visitorChecks | typeof userChecks, name: string): CheckStore {
  const holderColumn = 'visitorId' in table ? 'visitorId' : 'qrUserId';
  const closeQuery = (db: Db) =>
    db
      .update(table as typeof visitorChecks)
      .set({
        // (set() takes placeholders only wrapped in SQL)
        checkOutAt: sql`${sql.placeholder('checkOutAt')}`,
        checkOutMethod: sql`${sql.placeholder('checkOutMethod')}`,
        checkOutBy: sql`${sql.placeholder('checkOutBy')}`,
      })
      .where(and(eq(table.id, sql.placeholder('checkId')), isNull(table.checkOutAt)))
      .returning({ id: table.id })
      .prepare(`${name}_close`);
  const openQuery = (db: Db) =>
    db
      .insert(table as typeof visitorChecks)
      .values({
        // The id is a placeholder too: a default would be computed once, when prepared.
        id: sql.placeholder('id'),
        companyId: sql.placeholder('companyId'),
        [holderColumn as 'visitorId']: sql.placeholder('holderId'),
        checkInAt: sql.placeholder('checkInAt'),
        checkInMethod: sql.placeholder('checkInMethod'),
        checkInBy: sql.placeholder('checkInBy'),
      })
      .onConflictDoNothing()
      .returning({ id: table.id })
      .prepare(`${name}_open`);
  return {
    async close(db, checkId, values) {
      const rows = await prepared(db, `${name}_close`, closeQuery).execute({ checkId, ...values });
      return rows.length > 0;
    },
    async open(db, holder, values) {
      const rows = await prepared(db, `${name}_open`, openQuery).execute({
        id: newId(),
        companyId: holder.companyId,
        holderId: holder.id,
        ...values,
      });
      return rows.length > 0;
    },
  };
}

const visitorStore = checkStore(visitorChecks, 'visitor_check');
const userStore = checkStore(userChecks, 'user_check');

/**
 * The holder's latest check, read in the same query as the holder: three
 * correlated look-ups on the (holder, check_in_at) index.
 */
function latestCheckColumns(table: typeof visitorChecks | typeof userChecks, holderId: SQL) {
  const holderColumn = 'visitorId' in table ? table.visitorId : table.qrUserId;
  const latest = (column: SQL) =>
    sql`(select ${column} from ${table} where ${holderColumn} = ${holderId} order by ${table.checkInAt} desc limit 1)`;
  return {
    latestId: latest(sql`${table.id}`).mapWith(String),
    latestIn: latest(sql`${table.checkInAt}`).mapWith(table.checkInAt),
    latestOut: latest(sql`${table.checkOutAt}`).mapWith(table.checkOutAt),
  };
}

interface LatestCheck {
  latestId: string | null;
  latestIn: Date | null;
  latestOut: Date | null;
}

type Toggled = Omit<CheckResult, 'redirectUrl'>;

/**
 * Closes the holder's open check, or opens one. `refusalToEnter` is asked only
 * before a check-in: a person already inside may always leave.
 */
async function toggle(
  db: Db,
  store: CheckStore,
  holder: Holder & LatestCheck,
  ctx: CheckContext & { now: Date },
  refusalToEnter: () => string | null,
): Promise<Toggled> {
  const latest: Check | undefined =
    holder.latestId && holder.latestIn
      ? { id: holder.latestId, checkInAt: holder.latestIn, checkOutAt: holder.latestOut }
      : undefined;
  const name = `${holder.firstname} ${holder.lastname}`.trim();
  const person = { firstname: holder.firstname, lastname: holder.lastname };
  const recent = (at: Date) => ctx.now.getTime() - at.getTime() < ctx.repeatWindowMs;
  const by = ctx.principal?.userId ?? null;
  const repeatNow = (action: Toggled['action']): Toggled => {
    const time = timeOfDay(ctx.now, holder.timezone);
    return {
      status: 'repeat',
      action,
      at: ctx.now.toISOString(),
      message:
        action === 'check_in'
          ? CHECK_MESSAGES.alreadyIn(name, time)
          : CHECK_MESSAGES.alreadyOut(name, time),
      person,
    };
  };

  if (latest && !latest.checkOutAt) {
    if (recent(latest.checkInAt)) {
      return {
        status: 'repeat',
        action: 'check_in',
        at: latest.checkInAt.toISOString(),
        message: CHECK_MESSAGES.alreadyIn(name, timeOfDay(latest.checkInAt, holder.timezone)),
        person,
      };
    }
    const closed = await store.close(db, latest.id, {
      checkOutAt: ctx.now,
      checkOutMethod: ctx.method,
      checkOutBy: by,
    });
    // Another scan closed it a moment ago: report that departure.
    if (!closed) return repeatNow('check_out');
    return {
      status: 'success',
      action: 'check_out',
      at: ctx.now.toISOString(),
      message: CHECK_MESSAGES.checkedOut(name),
      person,
    };
  }
  if (latest?.checkOutAt && recent(latest.checkOutAt)) {
    return {
      status: 'repeat',
      action: 'check_out',
      at: latest.checkOutAt.toISOString(),
      message: CHECK_MESSAGES.alreadyOut(name, timeOfDay(latest.checkOutAt, holder.timezone)),
      person,
    };
  }
  const refusal = refusalToEnter();
  if (refusal) throw refused(refusal);
  const opened = await store.open(db, holder, {
    checkInAt: ctx.now,
    checkInMethod: ctx.method,
    checkInBy: by,
  });
  // Another scan let them in a moment ago: report that arrival.
  if (!opened) return repeatNow('check_in');
  return {
    status: 'success',
    action: 'check_in',
    at: ctx.now.toISOString(),
    message: CHECK_MESSAGES.checkedIn(name),
    person,
  };
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();
function timeOfDay(at: Date, timeZone: string): string {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('fr-FR', { timeZone, hour: '2-digit', minute: '2-digit' });
    clockFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** The uidn as stored ('ABCD-EFGH-JKMN'), whatever case and dashes were typed. */
export function storedUidn(input: string): string {
  return formatUidn(normalizeUidn(input));
}

/**
 * The staff member may record checks, and the code is one of their company's
 * (or they act on every company). Another company's code answers exactly like
 * an unknown one.
 */
function reachableHolder<T extends { companyId: string }>(
  principal: Principal | null,
  row: T | undefined,
): T {
  const who = authorize(principal, 'checks.record');
  const reaches =
    row && (row.companyId === who.companyId || actsOnAllCompanies(who.role, 'checks.record'));
  if (!reaches) throw notFound(CHECK_MESSAGES.unknownCode);
  return row;
}

function withRedirect(result: Toggled, pages: [string, string], uidn: string): CheckResult {
  if (result.status !== 'success') return result;
  const page = result.action === 'check_in' ? pages[0] : pages[1];
  return { ...result, redirectUrl: `/${page}/${uidn}` };
}

const visitorHolderQuery = (db: Db) =>
  db
    .select({
      id: visitors.id,
      companyId: visitors.companyId,
      firstname: visitors.firstname,
      lastname: visitors.lastname,
      requestDate: visitors.requestDate,
      timezone: companies.timezone,
      eventDate: events.dateEvent,
      confirmed: sql<boolean>`exists (select 1 from ${visitRequests} where ${visitRequests.visitorId} = ${visitors.id} and ${visitRequests.confirmed})`,
      ...latestCheckColumns(visitorChecks, sql`${visitors.id}`),
    })
    .from(visitors)
    .innerJoin(companies, eq(companies.id, visitors.companyId))
    .leftJoin(events, eq(events.id, visitors.eventId))
    .where(eq(visitors.uidn, sql.placeholder('code')))
    .limit(1)
    .prepare('visitor_holder');

/**
 * A visitor's code (`get-qr-data`). To come in, their request must be confirmed
 * and their day (the event's, or the meeting's) not over.
 */
export async function checkVisitorCode(
  db: Db,
  uidn: string,
  ctx: CheckContext,
): Promise<CheckResult> {
  const code = storedUidn(uidn);
  const [row] = await prepared(db, 'visitor_holder', visitorHolderQuery).execute({ code });
  const now = ctx.now ?? new Date();
  const holder = reachableHolder(ctx.principal, row);

  const result = await toggle(db, visitorStore, holder, { ...ctx, now }, () => {
    if (!holder.confirmed) return CHECK_MESSAGES.notConfirmed;
    if (holder.eventDate) {
      return isEventDayOver(holder.eventDate, holder.timezone, now)
        ? CHECK_MESSAGES.eventOver
        : null;
    }
    if (holder.requestDate && isMeetingDate(holder.requestDate)) {
      return isEventDayOver(holder.requestDate, holder.timezone, now)
        ? CHECK_MESSAGES.meetingDayOver
        : null;
    }
    return null;
  });
  return withRedirect(result, ['success-checkin', 'success-checkout'], code);
}

const isMeetingDate = (value: string) => /^\d{2}\/\d{2}\/\d{4}$/.test(value);

const qrHolderColumns = {
  id: qrUsers.id,
  companyId: qrUsers.companyId,
  firstname: sql<string>`coalesce(${qrUsers.firstname}, '')`,
  lastname: sql<string>`coalesce(${qrUsers.lastname}, '')`,
  dateExp: qrUsers.dateExp,
  revokedAt: qrUsers.revokedAt,
  timezone: companies.timezone,
  ...latestCheckColumns(userChecks, sql`${qrUsers.id}`),
};
type QrHolder = Holder & LatestCheck & { dateExp: Date | null; revokedAt: Date | null };

async function toggleQrHolder(
  db: Db,
  row: QrHolder,
  ctx: CheckContext & { now: Date },
): Promise<CheckResult> {
  // A re-issued card's old code is refused from then on, in and out.
  if (row.revokedAt) throw refused(CHECK_MESSAGES.replaced);
  return toggle(db, userStore, row, ctx, () => {
    if (row.dateExp && row.dateExp.getTime() < ctx.now.getTime()) {
      const [y, m, d] = dayOf(row.dateExp, row.timezone).split('-');
      return CHECK_MESSAGES.expired(`${d}/${m}/${y}`);
    }
    return null;
  });
}

/** A QR user's or member's code (`get-qr-user-data`). An expired code may not come in. */
export async function checkQrUserCode(
  db: Db,
  uidn: string,
  ctx: CheckContext,
): Promise<CheckResult> {
  const code = storedUidn(uidn);
  const [row] = await db
    .select(qrHolderColumns)
    .from(qrUsers)
    .innerJoin(companies, eq(companies.id, qrUsers.companyId))
    .where(eq(qrUsers.uidn, code))
    .limit(1);
  const now = ctx.now ?? new Date();
  const holder = reachableHolder(ctx.principal, row);
  const result = await toggleQrHolder(db, holder, { ...ctx, now });
  return withRedirect(result, ['success-user-checkin', 'success-user-checkout'], code);
}

/**
 * The kiosk presence session (ARCHITECTURE §6): an e-mail-shaped code of a QR
 * user or member of the scanning staff's company toggles that person, like their
 * QR code would. It never signs anyone into the application.
 */
export async function checkByEmail(
  db: Db,
  email: string,
  ctx: CheckContext,
): Promise<CheckResult & { uidn: string }> {
  const who = authorize(ctx.principal, 'checks.record');
  const [row] = await db
    .select({ ...qrHolderColumns, uidn: qrUsers.uidn })
    .from(qrUsers)
    .innerJoin(companies, eq(companies.id, qrUsers.companyId))
    .where(
      and(
        eq(qrUsers.companyId, who.companyId),
        eq(sql`lower(${qrUsers.email})`, email.trim().toLowerCase()),
        isNull(qrUsers.revokedAt),
      ),
    )
    // A member card before a permanent QR, then the newest.
    .orderBy(sql`${qrUsers.kind} = 'member' desc`, desc(qrUsers.createdAt))
    .limit(1);
  const now = ctx.now ?? new Date();
  if (!row) throw notFound(CHECK_MESSAGES.unknownEmail);
  const result = await toggleQrHolder(db, row, { ...ctx, now });
  return {
    ...withRedirect(result, ['success-user-checkin', 'success-user-checkout'], row.uidn),
    uidn: row.uidn,
  };
}
