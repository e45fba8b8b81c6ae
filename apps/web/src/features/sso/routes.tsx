import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/** Issue 33: a company's single sign-on and SCIM tokens (STAFF_PAGE_ACTIONS.sso: 'sso.manage'). */
export const ssoRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/sso',
        handle: { title: 'sso:title' },
        element: lazyPage(() => import('./pages/SsoPage')),
      },
    ],
  },
];
