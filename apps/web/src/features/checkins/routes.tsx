import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

const scanPage = lazyPage(() => import('./pages/ScanPage'));
const thankYouPage = lazyPage(() => import('./pages/ThankYouPage'));

export const checkinRoutes: RouteObject[] = [
  // The scan pages handle a missing session themselves (spec §4: a message, then the login).
  { path: 'scan/:uidn', handle: { title: 'checkins:scan.title' }, element: scanPage },
  { path: 'scan-user-qrcode/:uidn', handle: { title: 'checkins:scan.title' }, element: scanPage },
  {
    path: 'success-checkout/:uidn',
    handle: { title: 'checkins:thanks.pageTitle' },
    element: thankYouPage,
  },
  {
    path: 'success-user-checkin/:uidn',
    handle: { title: 'checkins:thanks.pageTitle' },
    element: thankYouPage,
  },
  {
    path: 'success-user-checkout/:uidn',
    handle: { title: 'checkins:thanks.pageTitle' },
    element: thankYouPage,
  },
  {
    element: <RequireAuth />,
    children: [
      {
        path: 'success-checkin/:uidn',
        handle: { title: 'checkins:thanks.pageTitle' },
        element: thankYouPage,
      },
      {
        path: ':domain/manual-check',
        handle: { title: 'checkins:manual.title' },
        element: lazyPage(() => import('./pages/ManualCheckPage')),
      },
      {
        path: ':domain/camera',
        handle: { title: 'checkins:camera.title' },
        element: lazyPage(() => import('./pages/CameraPage')),
      },
    ],
  },
];
