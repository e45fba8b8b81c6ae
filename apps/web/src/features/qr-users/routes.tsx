import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const qrUserRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      { path: ':domain/create-qr', lazy: lazyPage(() => import('./pages/CreateQrPage')) },
      {
        path: ':domain/create-membre-qr',
        lazy: lazyPage(() => import('./pages/CreateMemberPage')),
      },
      { path: ':domain/qr-code-list', lazy: lazyPage(() => import('./pages/QrUserListPage')) },
      // The id travels in the query string (?id=): the details survive a reload or a shared link.
      { path: 'qr-details', lazy: lazyPage(() => import('./pages/QrDetailsPage')) },
      { path: 'company/:slug/members', lazy: lazyPage(() => import('./pages/MemberListPage')) },
      {
        path: ':domain/disable-user-qrcode/:id',
        lazy: lazyPage(() => import('./pages/ExpiryPage')),
      },
    ],
  },
];
