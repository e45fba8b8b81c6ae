import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const qrUserRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/create-qr',
        handle: { title: 'qrUsers:createQr.title' },
        element: lazyPage(() => import('./pages/CreateQrPage')),
      },
      {
        path: ':domain/create-membre-qr',
        handle: { title: 'qrUsers:createMember.title' },
        element: lazyPage(() => import('./pages/CreateMemberPage')),
      },
      {
        path: ':domain/qr-code-list',
        handle: { title: 'qrUsers:list.title' },
        element: lazyPage(() => import('./pages/QrUserListPage')),
      },
      // The id travels in the query string (?id=): the details survive a reload or a shared link.
      {
        path: 'qr-details',
        handle: { title: 'qrUsers:details.title' },
        element: lazyPage(() => import('./pages/QrDetailsPage')),
      },
      {
        path: 'company/:slug/members',
        handle: { title: 'qrUsers:members.pageTitle' },
        element: lazyPage(() => import('./pages/MemberListPage')),
      },
      {
        path: ':domain/disable-user-qrcode/:id',
        handle: { title: 'qrUsers:expiry.title' },
        element: lazyPage(() => import('./pages/ExpiryPage')),
      },
    ],
  },
];
