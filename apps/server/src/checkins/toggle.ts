/**
 * The code check (ARCHITECTURE §7): a code toggles its holder between inside and
 * outside. The reading, the decision and the guarded write are one SQL statement
 * (check-statement.ts); this module turns its answer into the response or the error.
 *
 * A second scan inside the repeat window changes nothing and reports the check
 * just made, so a badge held twice in front of the camera does not check its
 * holder straight back out.
 */
import {
  DEFAULT_LANGUAGE,
  formatPerZone,
  sayIn,
  formatUidn,
  normalizeUidn,
  type CheckMethod,
  type CheckResult,
  type KioskCheckResult,
  type KioskVisitCheck,
  type Language,
  type Say,
} from '@sesame/shared';
import type { Principal } from '../auth/principal';
import type { TokenClaims } from '../auth/tokens';
import type { Database } from '../db/client';
import { newId } from '../db/ids';
import { badRequest, forbidden, HttpError, notFound, unauthenticated } from '../errors';
import { dayOf } from '../time-zones';
import {
  checkKioskEmailStatement,
  checkQrUserCodeStatement,
  checkVisitorCodeAtKiosk,
  checkVisitorCodeStatement,
  type CallerKind,
  type CheckOutcome,
  type CheckValues,
  type RecordAction,
} from './check-statement';
import { found } from '../db/rows';
import { screenVisit } from '../watchlist/match';
import { requestOfVisitor } from '../watchlist/held';

export interface CheckContext {
  /** The verified token: the statement itself checks that its session (or API key) is live. */
  caller: TokenClaims;
  /** Whether the token is a session's or an API key's (issue 34): a session's when not said. */
  callerKind?: CallerKind;
  method: CheckMethod;
  /**
   * The right the route's `config.action` names (checkins/routes.ts): the statement
   * checks the caller's role against it, with the session. The scanners' when not said.
   */
  action?: RecordAction;
  repeatWindowMs: number;
  now?: Date;
  /** Check-out only, by a role of the on-site list (issue 14): see CheckValues.closeOnly. */
  closeOnly?: boolean;
  /** The request's language, the answer's message's (French, the default, when not said). */
  lang?: Language;
  /**
   * The desk's site the request named (`?site=`, issue 28): a QR user's or member's check
   * is recorded there, a visitor of another site is refused. Not said: the scanner's home
   * site, else the company's main site, for QR users; the visitor's own site for visitors.
   */
  site?: string;
}

/**
 * Whose token the request carries: the guard loaded an API key's principal (issue 34); a
 * session's, on the scanners' routes, is read by the statement itself.
 */
export const callerKindOf = (principal: Principal | null): CallerKind =>
  principal?.apiKey ? 'apiKey' : 'session';

type Toggled = Omit<CheckResult, 'redirectUrl'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkValues(ctx: CheckContext): CheckValues {
  // Our own tokens carry UUIDs; anything else cannot name a session (and must not reach a ::uuid cast).
  if (!UUID.test(ctx.caller.sid) || !UUID.test(ctx.caller.sub)) throw unauthenticated();
  const now = ctx.now ?? new Date();
  return {
    sessionId: ctx.caller.sid,
    userId: ctx.caller.sub,
    callerKind: ctx.callerKind ?? 'session',
    now,
    since: new Date(now.getTime() - ctx.repeatWindowMs),
    method: ctx.method,
    newCheckId: newId(),
    site: ctx.site ?? null,
    ...(ctx.action ? { action: ctx.action } : {}),
    ...(ctx.closeOnly ? { closeOnly: true, action: 'onSite.checkOut' as const } : {}),
  };
}

const clockFormat = formatPerZone('fr-FR', { hour: '2-digit', minute: '2-digit' });
const timeOfDay = (at: Date, timeZone: string) => clockFormat(timeZone).format(at);

/** A refusal a person can act on: the code is known but may not be checked in (or out) now. */
function refusalMessage(outcome: CheckOutcome): Say {
  const refusal = outcome.refusal;
  switch (refusal) {
    case 'expired': {
      const [year, month, day] = dayOf(
        found(outcome.dateExp, "an expired code's end"),
        found(outcome.expiryZone ?? outcome.timezone, "the holder's time zone"),
      ).split('-');
      return (m) => m.check.expired(`${day}/${month}/${year}`);
    }
    case 'meetingNotYet':
    case 'eventNotYet':
      return (m) => m.check[refusal](outcome.day!);
    case 'otherSite': {
      const site = found(outcome.siteName, "the visitor's site");
      return (m) => m.site.otherSite(site);
    }
    case 'watchlist':
      return (m) => m.watchlist.scanHeld;
    case 'notConfirmed':
    case 'eventOver':
    case 'meetingDayOver':
    case 'replaced':
      return (m) => m.check[refusal];
    default:
      throw new Error(`refused without a reason: ${String(outcome.refusal)}`);
  }
}

/**
 * Who may not call (401, 403), and the desk's site the request named: unknown or another
 * company's 404, beyond the caller's site limits 403, archived 400 (nothing was looked
 * for nor written then).
 */
function assertCaller(outcome: CheckOutcome): void {
  if (!outcome.authenticated) throw unauthenticated();
  if (!outcome.mayRecord) throw forbidden();
  if (outcome.desk === 'unknown') throw notFound();
  if (outcome.desk === 'notYours') throw forbidden((m) => m.site.notYours);
  if (outcome.desk === 'archived')
    throw badRequest((m) => m.site.archivedSite, { site: (m) => m.site.archivedSite });
}

/**
 * The statement's answer as the response: who may not call (assertCaller), an unknown
 * code or another company's (404, alike), a refusal (409), or what was done.
 */
function toResult(outcome: CheckOutcome, lang: Language, now: Date, unknown: Say): Toggled {
  assertCaller(outcome);
  if (!outcome.holderId || !outcome.decision) throw notFound(unknown);
  const timezone = found(outcome.timezone, "the holder's time zone");
  const firstname = outcome.firstname ?? '';
  const lastname = outcome.lastname ?? '';
  const name = `${firstname} ${lastname}`.trim();
  const person = { firstname, lastname };
  const repeat = (action: Toggled['action'], at: Date): Toggled => ({
    status: 'repeat',
    action,
    at: at.toISOString(),
    message: sayIn(lang, (m) =>
      action === 'check_in'
        ? m.check.alreadyIn(name, timeOfDay(at, timezone))
        : m.check.alreadyOut(name, timeOfDay(at, timezone)),
    ),
    person,
  });
  const success = (action: Toggled['action']): Toggled => ({
    status: 'success',
    action,
    at: now.toISOString(),
    message: sayIn(lang, (m) =>
      action === 'check_in' ? m.check.checkedIn(name) : m.check.checkedOut(name),
    ),
    person,
  });

  switch (outcome.decision) {
    case 'repeatIn':
      return repeat('check_in', outcome.latestIn!);
    case 'repeatOut':
      return repeat('check_out', outcome.latestOut!);
    case 'refuse':
      throw new HttpError(409, refusalMessage(outcome));
    // The guarded write found nothing to do: another scan made this change a moment ago.
    case 'close':
      return outcome.wrote ? success('check_out') : repeat('check_out', now);
    case 'open':
      return outcome.wrote ? success('check_in') : repeat('check_in', now);
  }
}

/** The uidn as stored ('ABCD-EFGH-JKMN'), whatever case and dashes were typed. */
export function storedUidn(input: string): string {
  return formatUidn(normalizeUidn(input));
}

/** Where a successful check of a QR user's or member's code sends the scanner. */
const USER_PAGES: [string, string] = ['success-user-checkin', 'success-user-checkout'];

function withRedirect(result: Toggled, pages: [string, string], uidn: string): CheckResult {
  if (result.status !== 'success') return result;
  const page = result.action === 'check_in' ? pages[0] : pages[1];
  return { ...result, redirectUrl: `/${page}/${uidn}` };
}

type CodeStatement = typeof checkVisitorCodeStatement;

/**
 * Issue 31: a visitor's code the watchlist stops (the statement wrote nothing). The visit
 * is held for review (once: a pending hold stays the one) and the agent — not the
 * visitor's screen — hears "Contrôle requis", and why to keep them out. A denied visit
 * answers the same.
 */
async function holdScannedVisit(db: Database, outcome: CheckOutcome, now: Date): Promise<never> {
  const visitorId = found(outcome.holderId, 'the held visitor');
  await db.transaction(async (tx) => {
    await screenVisit(tx, {
      visitorId,
      requestId: await requestOfVisitor(tx, visitorId),
      source: 'scan',
      now,
    });
  });
  throw new HttpError(409, (m) => m.watchlist.scanHeld, {
    uidn: (m) => m.watchlist.scanHeldDetail,
  });
}

async function checkCode(
  statement: CodeStatement,
  pages: [string, string],
  db: Database,
  uidn: string,
  ctx: CheckContext,
): Promise<CheckResult> {
  const code = storedUidn(uidn);
  const values = checkValues(ctx);
  const outcome = await statement(db, { ...values, code });
  if (outcome.decision === 'refuse' && outcome.refusal === 'watchlist' && outcome.holderId) {
    assertCaller(outcome);
    await holdScannedVisit(db, outcome, values.now);
  }
  const result = toResult(
    outcome,
    ctx.lang ?? DEFAULT_LANGUAGE,
    values.now,
    (m) => m.check.unknownCode,
  );
  return withRedirect(result, pages, code);
}

/**
 * A visitor's code (`get-qr-data`). To come in, their request must be confirmed
 * and it must be their day (the event's, or the meeting's, in their site's zone;
 * from the site's early-arrival minutes before). Going out is never refused, but a
 * visitor is checked at their own site only: another site's desk refuses them (409).
 */
export const checkVisitorCode = (db: Database, uidn: string, ctx: CheckContext) =>
  checkCode(checkVisitorCodeStatement, ['success-checkin', 'success-checkout'], db, uidn, ctx);

/** A QR user's or member's code (`get-qr-user-data`). An expired code may not come in. */
export const checkQrUserCode = (db: Database, uidn: string, ctx: CheckContext) =>
  checkCode(checkQrUserCodeStatement, USER_PAGES, db, uidn, ctx);

/**
 * The kiosk presence session (ARCHITECTURE §6): an e-mail-shaped code of a QR
 * user or member of the scanning staff's company toggles that person, like their
 * QR code would. It never signs anyone into the application. An e-mail is no
 * secret: only where the company turned e-mail presence on (409 otherwise, nothing
 * recorded), and the answer carries the person's photo (`photoUrl` signs it for
 * the caller's session) for the agent to compare the face.
 */
export async function checkByEmail(
  db: Database,
  email: string,
  ctx: CheckContext,
  photoUrl: (fileId: string | null) => string | null,
): Promise<KioskCheckResult> {
  const values = checkValues(ctx);
  const outcome = await checkKioskEmailStatement(db, {
    ...values,
    email: email.trim().toLowerCase(),
  });
  assertCaller(outcome);
  if (!outcome.kioskEmailEnabled) throw new HttpError(409, (m) => m.check.kioskEmailOff);
  const result = toResult(
    outcome,
    ctx.lang ?? DEFAULT_LANGUAGE,
    values.now,
    (m) => m.check.unknownEmail,
  );
  const uidn = found(outcome.uidn, "the member's code");
  return {
    ...withRedirect(result, USER_PAGES, uidn),
    uidn,
    photo: photoUrl(outcome.photoId ?? null),
  };
}

/**
 * Checks a person out from the on-site list (issue 14): the code check's own statement
 * and write, closing only (never a check-in, whatever the repeat window), recorded as
 * a manual check-out by the caller. `table` says whose code `uidn` is.
 */
export async function checkOutFromList(
  db: Database,
  table: 'visitor' | 'user',
  uidn: string,
  ctx: Omit<CheckContext, 'method' | 'closeOnly'>,
): Promise<CheckResult> {
  const statement = table === 'visitor' ? checkVisitorCodeStatement : checkQrUserCodeStatement;
  const context: CheckContext = { ...ctx, method: 'manual', closeOnly: true };
  const values = checkValues(context);
  const outcome = await statement(db, { ...values, code: uidn });
  return toResult(
    outcome,
    context.lang ?? DEFAULT_LANGUAGE,
    values.now,
    (m) => m.check.unknownCode,
  );
}

export interface KioskCheckContext {
  kioskId: string;
  /** The kiosk's site: the only site it checks visitors at. */
  siteId: string;
  /** 'in': "Je suis attendu(e)", never a check-out; 'out': "Je pars", never a check-in. */
  direction: 'in' | 'out';
  repeatWindowMs: number;
  now?: Date;
  lang?: Language;
}

const KIOSK_SAYS = {
  in: 'checkedIn',
  out: 'checkedOut',
  alreadyIn: 'alreadyIn',
  alreadyOut: 'alreadyOut',
} as const;

/** The day refusals a visitor at a kiosk hears as one sentence: not expected here today. */
const NOT_HERE: readonly (string | null)[] = [
  'otherSite',
  'meetingDayOver',
  'meetingNotYet',
  'eventOver',
  'eventNotYet',
];

/**
 * A visitor's code at a kiosk (issue 29): the desk's own statement with the kiosk as
 * caller (check-statement.ts). Same rules as the desk — confirmed, today, this site —
 * and a direction: the check-in never closes an open check, the check-out never opens
 * one (someone never checked in: 409 `kiosk.notInside`). Messages in the visitor's
 * language; refusals 409, an unknown code 404.
 */
export async function checkAtKiosk(
  db: Database,
  uidn: string,
  ctx: KioskCheckContext,
): Promise<Omit<KioskVisitCheck, 'request_id'> & { visitorId: string }> {
  const now = ctx.now ?? new Date();
  const lang = ctx.lang ?? DEFAULT_LANGUAGE;
  const outcome = await checkVisitorCodeAtKiosk(db, {
    kioskId: ctx.kioskId,
    site: ctx.siteId,
    code: storedUidn(uidn),
    now,
    since: new Date(now.getTime() - ctx.repeatWindowMs),
    method: 'kiosk',
    newCheckId: newId(),
    ...(ctx.direction === 'in' ? { openOnly: true } : { closeOnly: true }),
  });
  if (!outcome.authenticated) throw unauthenticated((m) => m.kiosk.deviceRefused);
  if (outcome.desk !== 'ok') throw new HttpError(409, (m) => m.kiosk.notHere);
  if (!outcome.holderId || !outcome.decision) throw notFound((m) => m.check.unknownCode);
  const firstname = outcome.firstname ?? '';
  const answer = (status: KioskVisitCheck['status']) => ({
    status,
    firstname,
    visitorId: outcome.holderId!,
    message: sayIn(lang, (m) => m.kiosk[KIOSK_SAYS[status]](firstname)),
  });
  switch (outcome.decision) {
    case 'refuse':
      if (NOT_HERE.includes(outcome.refusal)) throw new HttpError(409, (m) => m.kiosk.notHere);
      throw new HttpError(409, refusalMessage(outcome));
    case 'repeatIn':
      return answer('alreadyIn');
    case 'repeatOut':
      if (!outcome.latestOut) throw new HttpError(409, (m) => m.kiosk.notInside);
      return answer('alreadyOut');
    case 'close':
      return answer(outcome.wrote ? 'out' : 'alreadyOut');
    case 'open':
      return answer(outcome.wrote ? 'in' : 'alreadyIn');
  }
}
