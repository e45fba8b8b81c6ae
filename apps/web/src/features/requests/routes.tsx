import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const requestRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      { path: ':domain/list-qrcode', lazy: lazyPage(() => import('./pages/RequestListPage')) },
      {
        path: ':domain/list-qrcode-events/:slug',
        lazy: lazyPage(() => import('./pages/EventParticipantsPage')),
      },
    ],
  },
];
