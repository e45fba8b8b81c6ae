/**
 * Who may give which role to whom (spec §6 "Creating users: roles assignable by
 * creator"), read from the shared matrix, applied on creation and on every update.
 */
import { activeRole, canAssignRole, isRole, type Role } from '@sesame/shared';
import type { Principal } from '../auth/principal';
import { forbidden } from '../errors';

/** 403 unless the signed-in role may give `role` (spec §6). */
export function assertMayAssign(who: Principal, role: Role): void {
  if (!canAssignRole(who.role, role)) throw forbidden((m) => m.user.roleNotAssignable);
}

/**
 * A user may be edited by someone who could have created them: every role they hold
 * must be one the editor may assign. So nobody takes over an account above their own
 * (an admin's password stays out of reach of everyone but admins). One's own account
 * is always editable; its role is guarded by assertRoleChange.
 */
export function assertMayEdit(who: Principal, target: { id: string; roles: string[] }): void {
  if (target.id === who.userId) return;
  const held = target.roles.filter(isRole);
  if (!held.every((role) => canAssignRole(who.role, role))) {
    throw forbidden((m) => m.user.userProtected);
  }
}

/**
 * A role change needs the right to assign both the old role and the new one. On one's
 * own account the old role is the editor's own, which only an admin may assign: so
 * nobody raises their own role, and only an admin may step down (the last one may not).
 */
export function assertRoleChange(
  who: Principal,
  target: { roles: string[] },
  newRole: Role,
): boolean {
  const current = activeRole(target.roles);
  if (current === newRole) return false;
  if (!canAssignRole(who.role, current) || !canAssignRole(who.role, newRole)) {
    throw forbidden((m) => m.user.roleNotAssignable);
  }
  return true;
}
