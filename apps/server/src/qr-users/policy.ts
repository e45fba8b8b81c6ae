/**
 * Who may read, change and re-issue one QR user or member card. Each right is
 * the union of actions of the shared matrix (packages/shared permissions):
 * reading a permanent QR is for those who list it (spec §6 QR user list), create
 * it (spec §6 company choice) or change its expiry (attendance's Edit link).
 */
import { actsOnAllCompanies, mayPerform, type Action, type QrUserKind } from '@sesame/shared';
import { requirePrincipal } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { forbidden, notFound } from '../errors';

export type Rights = Record<QrUserKind, readonly Action[]>;

export const VIEW: Rights = {
  permanent: ['qrUsers.list', 'qrUsers.create', 'qrUsers.updateExpiry'],
  member: ['members.list', 'members.create', 'qrUsers.updateExpiry'],
};

export const UPDATE: Rights = {
  permanent: ['qrUsers.updateExpiry', 'qrUsers.create'],
  member: ['qrUsers.updateExpiry', 'members.create'],
};

export const REISSUE: Rights = {
  permanent: ['qrUsers.create'],
  member: ['members.create'],
};

/** Every action of `rights` for the kinds a route serves. */
export function actionsOf(rights: Rights, kinds: readonly QrUserKind[]): Action[] {
  return [...new Set(kinds.flatMap((kind) => rights[kind]))];
}

/**
 * Like `authorize`, for a right made of several actions: 403 when the role has
 * none of them; with a record, 404 when none of the role's actions reaches the
 * record's company (another tenant's record looks like a missing one).
 */
export function authorizeAny(
  principal: Principal | null | undefined,
  actions: readonly Action[],
  record?: { companyId: string } | null,
): Principal {
  const who = requirePrincipal(principal);
  const granted = actions.filter((action) => mayPerform(who.role, action));
  if (granted.length === 0) throw forbidden();
  if (record !== undefined) {
    if (record === null) throw notFound();
    const reaches =
      record.companyId === who.companyId ||
      granted.some((action) => actsOnAllCompanies(who.role, action));
    if (!reaches) throw notFound();
  }
  return who;
}
