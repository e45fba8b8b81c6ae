import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/** Issue 31: a site's visitor types and documents to sign (STAFF_PAGE_ACTIONS['visitor-types']). */
export const visitorTypeRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/visitor-types',
        handle: { title: 'visitor-types:title' },
        element: lazyPage(() => import('./pages/VisitorTypesPage')),
      },
    ],
  },
];
