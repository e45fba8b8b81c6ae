import { actsOnAllCompanies, mayChooseCompany, mayPerform, type Action } from '@sesame/shared';
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
