/** Who is on site now, and who is expected today (issue 14). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const onSiteRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/on-site',
        handle: { title: 'onSite:title' },
        element: lazyPage(() => import('./pages/OnSitePage')),
      },
      {
        path: ':domain/on-site/roll-call',
        handle: { title: 'onSite:rollCall.title' },
        element: lazyPage(() => import('./pages/RollCallPage')),
      },
    ],
  },
];
