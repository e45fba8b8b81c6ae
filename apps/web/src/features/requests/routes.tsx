import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const requestRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/list-qrcode',
        handle: { title: 'requests:title' },
        element: lazyPage(() => import('./pages/RequestListPage')),
      },
      // An event's participants ('Liste Participants') are the events feature's event page.
    ],
  },
];
