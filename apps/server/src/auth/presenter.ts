import { isRole, type UserInfo } from '@sesame/shared';
import type { Principal } from './principal';

export function presentUserInfo(principal: Principal, passwordManaged: boolean): UserInfo {
  const knownRoles = principal.roles.filter(isRole);
  return {
    id: principal.userId,
    name: principal.name,
    firstname: principal.firstname,
    email: principal.email,
    roles: knownRoles.length ? knownRoles : [principal.role],
    company_id: principal.companyId,
    company: principal.companySlug,
    company_name: principal.companyName,
    home_site_id: principal.homeSiteId,
    site_ids: principal.siteIds,
    password_managed: passwordManaged,
  };
}
