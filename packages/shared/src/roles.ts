/**
 * Staff roles. The spec's ROLE_{product} is ROLE_SESAME. A user's roles are an
 * ordered list: the first entry is the active role (spec §6).
 */
export const ROLES = [
  'ROLE_USER',
  'ROLE_EMPLOYEE',
  'ROLE_SUPERVISOR',
  'ROLE_SESAME',
  'ROLE_MANAGER',
  'ROLE_ADMIN',
  'ROLE_SUPER_ADMIN',
] as const;

export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The active role is the first known role of the list; ROLE_USER when there is none. */
export function activeRole(roles: readonly string[] | null | undefined): Role {
  const first = roles?.find(isRole);
  return first ?? 'ROLE_USER';
}

/** 'ROLE_SUPER_ADMIN' → 'Super admin' (the employee list's "prefix removed, capitalised"). */
export function roleDisplayName(role: string | null | undefined): string | null {
  if (!role) return null;
  const bare = role
    .replace(/^ROLE_/, '')
    .replace(/_/g, ' ')
    .toLowerCase();
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}
