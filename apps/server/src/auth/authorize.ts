import { actsOnAllCompanies, mayChooseCompany, mayPerform, type Action } from '@sesame/shared';
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
 * Throws 403 when the role may not perform the action, and 404 when the record
 * belongs to another company the role may not reach (another tenant's record
 * looks exactly like a missing one).
 */
export function authorize(
  principal: Principal | null | undefined,
  action: Action,
  record?: { companyId: string } | null,
): Principal {
  const who = requirePrincipal(principal);
  if (!mayPerform(who.role, action)) throw forbidden();
  if (record !== undefined) {
    if (record === null) throw notFound();
    if (record.companyId !== who.companyId && !actsOnAllCompanies(who.role, action)) {
      throw notFound();
    }
  }
  return who;
}

/**
 * The signed-in caller of a protected route. The route's guard (app.ts) has already
 * answered 401 and 403, so this only narrows the type.
 */
export function signedIn(request: { principal: Principal | null }): Principal {
  return requirePrincipal(request.principal);
}

/**
 * Finds a record by `key` and authorizes `action` on it, in one step: 403 before any
 * query when the role lacks the action, 404 when the record is missing or another
 * company's. What comes back is the checked record, never null.
 * `action` may depend on the record (a visitor's mails: a meeting's or an event's);
 * the 403 then comes after the find. `companyOf` says whose record it is (its
 * `companyId`, or a company's own id).
 */
export async function loadAuthorized<K, T>(
  request: FastifyRequest,
  find: (db: Db, key: K) => Promise<T | null | undefined>,
  action: Action | ((record: T) => Action),
  key: K,
  companyOf: (record: T) => string = (record) => (record as { companyId: string }).companyId,
): Promise<{ who: Principal; record: T }> {
  const who =
    typeof action === 'function'
      ? requirePrincipal(request.principal)
      : authorize(request.principal, action);
  const record = await find(request.server.db, key);
  if (record === null || record === undefined) throw notFound();
  const right = typeof action === 'function' ? action(record) : action;
  authorize(who, right, { companyId: companyOf(record) });
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
