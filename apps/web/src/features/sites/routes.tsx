import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/** Issue 28: a company's sites (STAFF_PAGE_ACTIONS.sites: 'sites.manage'). */
export const siteRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/sites',
        handle: { title: 'sites:title' },
        element: lazyPage(() => import('./pages/SitesPage')),
      },
    ],
  },
];
