import { activeRole, type User } from '@sesame/shared';
import type { UserRow } from './service';

/** The wire shape of a staff user: never the password hash. */
export function presentUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    firstname: row.firstname,
    email: row.email,
    title: row.title,
    contact: row.contact,
    role: activeRole(row.roles),
    roles: row.roles,
    status: row.status,
    department_id: row.departmentId,
    home_site_id: row.homeSiteId,
    site_ids: row.siteIds,
    company_id: row.companyId,
    company: row.companySlug,
    company_name: row.companyName,
    created_at: row.createdAt.toISOString(),
  };
}
