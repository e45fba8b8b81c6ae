/** The dashboard (issue 35): the building's figures and charts (STAFF_PAGE_ACTIONS: 'dashboard.view'). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const dashboardRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/dashboard',
        handle: { title: 'dashboard:title' },
        element: lazyPage(() => import('./pages/DashboardPage')),
      },
    ],
  },
];
