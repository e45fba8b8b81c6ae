import { Navigate, Outlet, useLocation } from 'react-router';
import { CROSS_TENANT_ROLES, opensStaffPage, type Role } from '@sesame/shared';
import { useAuth } from '../lib/auth';
import { useUrlCompanySlug } from '../lib/shown-company';
import { ForbiddenPage, NotFoundPage } from './NotFoundPage';

/** Whether a signed-in person's staff pages may be those of the company a URL names. */
export function reachesUrlCompany(
  role: Role | null,
  ownSlug: string | undefined,
  urlSlug: string | undefined,
): boolean {
  if (!urlSlug) return true;
  if (role && (CROSS_TENANT_ROLES as readonly Role[]).includes(role)) return true;
  return !!ownSlug && ownSlug.toLowerCase() === urlSlug.toLowerCase();
}

/**
 * Whether the role may open the staff page of a `/{domain}/{page}` address: the actions
 * the server allows there (STAFF_PAGE_ACTIONS), not the menu's tiles (issue 27).
 */
export function opensPage(role: Role | null, pathname: string): boolean {
  return opensStaffPage(role, pathname.split('/').filter(Boolean)[1]);
}

/**
 * Spec §2 guard: no token, or one shorter than 10 characters (or a session the server
 * ended), goes to the login screen, which comes back here afterwards. A staff page of
 * another company is 'Page introuvable' for every role confined to its own company
 * (ARCHITECTURE §6), as the API answers 404 for that company's records. A page whose
 * actions the role lacks is the permission message, as the API's 403.
 */
export function RequireAuth() {
  const location = useLocation();
  const { isAuthenticated, role, user } = useAuth();
  const urlSlug = useUrlCompanySlug();
  if (!isAuthenticated)
    return (
      <Navigate
        to="/sign-in"
        replace
        state={{ from: `${location.pathname}${location.search}${location.hash}` }}
      />
    );
  if (!reachesUrlCompany(role, user?.company, urlSlug)) return <NotFoundPage />;
  if (!opensPage(role, location.pathname)) return <ForbiddenPage />;
  return <Outlet />;
}
