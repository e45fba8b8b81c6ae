/**
 * The browser's router over the route table (app/routes: every route of spec §2). The
 * declarative router: the data router's loaders and actions are unused here, and it cost
 * the public pages 14 KB of JavaScript (brotli, issue 19). What the layout read from it,
 * the matched routes' handles (page titles), comes from `matchRoutes` over the same table.
 */
import { useMemo } from 'react';
import { matchRoutes, useLocation, useRoutes } from 'react-router';
import { RootErrorPage, RouteErrorBoundary } from '../components/RouteErrorPage';
import { RouteHandlesContext } from '../lib/page-title';
import { routes } from './routes';

export function AppRoutes() {
  const location = useLocation();
  const handles = useMemo(
    () => (matchRoutes(routes, location) ?? []).map((match) => match.route.handle),
    [location],
  );
  const page = useRoutes(routes, location);
  return (
    // The layout itself failed: a plain page rather than a blank one.
    <RouteErrorBoundary fallback={<RootErrorPage />}>
      <RouteHandlesContext.Provider value={handles}>{page}</RouteHandlesContext.Provider>
    </RouteErrorBoundary>
  );
}
