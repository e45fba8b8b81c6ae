import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/** Issue 29: a company's kiosks (STAFF_PAGE_ACTIONS.kiosks: 'kiosks.manage'). */
export const kiosksPageRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/kiosks',
        handle: { title: 'kiosks:title' },
        element: lazyPage(() => import('./pages/KiosksPage')),
      },
    ],
  },
];
