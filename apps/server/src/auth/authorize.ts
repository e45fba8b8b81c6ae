import {
  actsOnAllCompanies,
  apiKeyActions,
  mayChooseCompany,
  mayPerform,
  type Action,
} from '@sesame/shared';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { forbidden, notFound, unauthenticated } from '../errors';
import type { Principal } from './principal';

/** Narrows an optional principal; throws 401 when nobody is signed in. */
export function requirePrincipal(principal: Principal | null | undefined): Principal {
  if (!principal) throw unauthenticated();
  return principal;
}

/**
 * Whether `who` may perform `action`: their role's right and, for an API key (issue 34), one
 * of its scopes' actions too. The one rule the route guard (app.ts), `authorize` and
 * `loadAuthorized` read, so they never disagree.
 */
export function mayAct(who: Principal, action: Action): boolean {
  if (!mayPerform(who.role, action)) return false;
  return !who.apiKey || apiKeyActions(who.apiKey.scopes).has(action);
}

/**
 * Throws 403 when the role may not perform the action, and 404 when the record
 * belongs to another company the role may not reach (another tenant's record
 * looks exactly like a missing one). Only for a caller that does not come from the
 * request (a document link carries its viewer's session, files/routes.ts): a route
 * says its right in `config.action`, and the guard and `loadAuthorized` read it there.
 */
export function authorize(
  principal: Principal | null | undefined,
  action: Action,
  record?: { companyId: string } | null,
): Principal {
  const who = requirePrincipal(principal);
  if (!mayAct(who, action)) throw forbidden();
  if (record !== undefined) {
    if (record === null) throw notFound();
    if (record.companyId !== who.companyId && !actsOnAllCompanies(who.role, action)) {
      throw notFound();
    }
  }
  return who;
}

/**
 * Who may call a protected route, as its `config.action` says: one action of the
 * matrix, or a list of them (any one will do: a card's page serves whoever lists,
 * creates or re-dates cards).
 */
export type RouteRight = Action | readonly Action[];

/**
 * `config.action` itself: a right, or a right named from the raw request when it
 * depends on what is asked (a list of meetings or of an event's guests). It is read
 * before the input is validated, so such a function must accept anything.
 */
export type RouteAction = RouteRight | ((request: FastifyRequest) => RouteRight);

/** The actions a route allows for this request (any one of them will do); none: any signed-in user. */
export function routeActions(
  action: RouteAction | undefined,
  request: FastifyRequest,
): readonly Action[] {
  if (action === undefined) return [];
  const right = typeof action === 'function' ? action(request) : action;
  return typeof right === 'string' ? [right] : right;
}

/** Which of `actions` the principal may perform (an API key: within its scopes). */
function grantedTo(who: Principal, actions: readonly Action[]): Action[] {
  return actions.filter((action) => mayAct(who, action));
}

/**
 * The signed-in caller of a protected route. The route's guard (app.ts) has already
 * answered 401 and 403, so this only narrows the type.
 */
export function signedIn(request: { principal: Principal | null }): Principal {
  return requirePrincipal(request.principal);
}

export interface LoadOptions<T> {
  /** Whose record it is: its `companyId` by default, `companyItself` for a company. */
  companyOf?: (record: T) => string;
  /**
   * When the record itself narrows the route's right (an event guest's mails need
   * `events.list`, a meeting visitor's `requests.list`; a member card the member
   * actions): the action, or any of the actions, this record calls for.
   */
  recordRight?: (record: T) => RouteRight;
}

/**
 * Finds a record by `key` for the route's own right (`config.action`, checked by the
 * guard before the input was read): 404 when the record is missing or beyond the
 * caller's reach (another company's, unless one of the caller's granted actions acts
 * on every company). With `recordRight`, a role holding none of the record's actions
 * gets 403 on its own company's record and 404 on another's. What comes back is the
 * checked record, never null.
 */
export async function loadAuthorized<K, T>(
  request: FastifyRequest,
  find: (db: Db, key: K) => Promise<T | null | undefined>,
  key: K,
  {
    // The default reads a record's companyId; finders of records without one pass a companyOf.
    companyOf = (record) => (record as { companyId: string }).companyId,
    recordRight,
  }: LoadOptions<T> = {},
): Promise<{ who: Principal; record: T }> {
  const who = signedIn(request);
  const allowed = grantedTo(who, routeActions(request.routeOptions.config.action, request));
  // A route that names no right reaches no record (the guard refused the rest already).
  if (allowed.length === 0) throw forbidden();
  const record = await find(request.server.db, key);
  if (record === null || record === undefined) throw notFound();
  const own = companyOf(record) === who.companyId;
  const needed = recordRight ? routeActions(recordRight(record), request) : allowed;
  const granted = allowed.filter((action) => needed.includes(action));
  if (granted.length === 0) throw own ? forbidden() : notFound();
  if (!own && !granted.some((action) => actsOnAllCompanies(who.role, action))) throw notFound();
  return { who, record };
}

/** `companyOf` for a company record itself: it belongs to itself. */
export const companyItself = (company: { id: string }) => company.id;

/** The company a list is limited to: undefined means every company. */
export function companyScope(principal: Principal, action: Action): string | undefined {
  return actsOnAllCompanies(principal.role, action) ? undefined : principal.companyId;
}

/**
 * The company a new record belongs to: the one asked for when the role may
 * choose (spec §6 "Company choice"), otherwise the creator's own.
 */
export function companyForNewRecord(
  principal: Principal,
  action: Action,
  requested: string | undefined | null,
): string {
  if (requested && mayChooseCompany(principal.role, action)) return requested;
  return principal.companyId;
}
