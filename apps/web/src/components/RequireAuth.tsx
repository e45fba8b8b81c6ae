import { Navigate, Outlet, useLocation } from 'react-router';
import { hasSessionToken } from '../lib/session';

/** Spec §2 guard: no token, or one shorter than 10 characters, goes to the login screen. */
export function RequireAuth() {
  const location = useLocation();
  if (!hasSessionToken())
    return (
      <Navigate to="/sign-in" replace state={{ from: `${location.pathname}${location.search}` }} />
    );
  return <Outlet />;
}
