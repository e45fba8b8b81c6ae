/** Who looked at what and who changed what (issue 16). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const auditRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/audit',
        handle: { title: 'privacy:audit.title' },
        element: lazyPage(() => import('./pages/AuditPage')),
      },
    ],
  },
];
