/**
 * A provisioned account's role follows its groups (issue 33): the highest role, in the order
 * of SSO_MAPPABLE_ROLES, that `company_sso.role_mappings` gives one of the display names of
 * its SCIM groups (without regard to case); none mapped, the company's `default_role`
 * (ROLE_USER without SSO settings). Only accounts the directory or the provider manages
 * (provisioned_by 'scim' or 'sso') follow it; the platform's staff never. A change of
 * `users.roles` is heard by the live streams at once (migration 0023's trigger), and every
 * request reads the role afresh, so no session needs revoking.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  activeRole,
  highestMappedRole,
  SSO_MAPPABLE_ROLES,
  type SsoMappableRole,
} from '@sesame/shared';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { companySso, scimGroupMembers, scimGroups, users } from '../db/schema';

export interface RoleMapping {
  mappings: { group: string; role: string }[];
  defaultRole: SsoMappableRole;
}

export async function roleMappingOf(db: Db, companyId: string): Promise<RoleMapping> {
  const [row] = await db
    .select({ mappings: companySso.roleMappings, defaultRole: companySso.defaultRole })
    .from(companySso)
    .where(eq(companySso.companyId, companyId))
    .limit(1);
  const defaultRole = SSO_MAPPABLE_ROLES.find((r) => r === row?.defaultRole) ?? 'ROLE_USER';
  return { mappings: row?.mappings ?? [], defaultRole };
}

/** The role the groups named give (see above). */
export function roleOfGroups(mapping: RoleMapping, groupNames: string[]): SsoMappableRole {
  return highestMappedRole(mapping.mappings, groupNames) ?? mapping.defaultRole;
}

/** Accounts that are not the platform's staff (ROLE_ADMIN, ROLE_SESAME). */
export const notPlatformStaff = sql`not (${users.roles} && array['ROLE_ADMIN', 'ROLE_SESAME']::text[])`;

/**
 * Who changed what a role follows: the directory (its SCIM token) changing groups, or an
 * admin changing the mapping on the SSO screen.
 */
export type RoleChangeCause = { tokenId: string } | { adminUserId: string | null };

/**
 * Gives each of `userIds` (of `companyId`, managed by the directory or the provider) the role
 * its groups map to, in the caller's transaction; each change audited
 * ('scim.user_role_changed', the roles before and after, and its cause).
 */
export async function applyMappedRoles(
  tx: Db,
  companyId: string,
  userIds: string[],
  cause: RoleChangeCause,
): Promise<void> {
  if (userIds.length === 0) return;
  const accounts = await tx
    .select({ id: users.id, roles: users.roles })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        inArray(users.id, userIds),
        inArray(users.provisionedBy, ['scim', 'sso']),
        notPlatformStaff,
      ),
    )
    .for('update');
  if (accounts.length === 0) return;
  const mapping = await roleMappingOf(tx, companyId);
  const memberships = await tx
    .select({ userId: scimGroupMembers.userId, displayName: scimGroups.displayName })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(
      inArray(
        scimGroupMembers.userId,
        accounts.map((a) => a.id),
      ),
    );
  for (const account of accounts) {
    const names = memberships.filter((m) => m.userId === account.id).map((m) => m.displayName);
    const role = roleOfGroups(mapping, names);
    if (account.roles.length === 1 && account.roles[0] === role) continue;
    await tx
      .update(users)
      .set({ roles: [role] })
      .where(eq(users.id, account.id));
    await audit(tx, {
      companyId,
      actorUserId: 'adminUserId' in cause ? cause.adminUserId : null,
      action: 'scim.user_role_changed',
      subjectType: 'user',
      subjectId: account.id,
      detail: { ...cause, fromRole: activeRole(account.roles), toRole: role },
    });
  }
}

/**
 * After the SSO screen changed the mapping or the default role: every account of the company
 * that belongs to one of its directory's groups takes the role the new mapping gives (an
 * account the provider alone manages follows it at its next sign-in).
 */
export async function remapDirectoryMembers(
  tx: Db,
  companyId: string,
  adminUserId: string | null,
): Promise<void> {
  const members = await tx
    .selectDistinct({ userId: scimGroupMembers.userId })
    .from(scimGroupMembers)
    .innerJoin(scimGroups, eq(scimGroups.id, scimGroupMembers.groupId))
    .where(eq(scimGroups.companyId, companyId));
  await applyMappedRoles(
    tx,
    companyId,
    members.map((m) => m.userId),
    { adminUserId },
  );
}
