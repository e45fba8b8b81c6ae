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
import { activeRole, SSO_MAPPABLE_ROLES, type SsoMappableRole } from '@sesame/shared';
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
  const held = new Set(groupNames.map((g) => g.toLowerCase()));
  let best = -1;
  for (const { group, role } of mapping.mappings) {
    const rank = SSO_MAPPABLE_ROLES.indexOf(role as SsoMappableRole);
    if (rank > best && held.has(group.toLowerCase())) best = rank;
  }
  return best >= 0 ? SSO_MAPPABLE_ROLES[best]! : mapping.defaultRole;
}

/** Accounts that are not the platform's staff (ROLE_ADMIN, ROLE_SESAME). */
export const notPlatformStaff = sql`not (${users.roles} && array['ROLE_ADMIN', 'ROLE_SESAME']::text[])`;

/**
 * Gives each of `userIds` (of `companyId`, managed by the directory or the provider) the role
 * its groups map to, in the caller's transaction; each change audited
 * ('scim.user_role_changed', the roles before and after).
 */
export async function applyMappedRoles(
  tx: Db,
  companyId: string,
  userIds: string[],
  tokenId: string,
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
      .set({ roles: [role], updatedAt: new Date() })
      .where(eq(users.id, account.id));
    await audit(tx, {
      companyId,
      actorUserId: null,
      action: 'scim.user_role_changed',
      subjectType: 'user',
      subjectId: account.id,
      detail: { tokenId, fromRole: activeRole(account.roles), toRole: role },
    });
  }
}
