import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

const scanPage = lazyPage(() => import('./pages/ScanPage'));
const thankYouPage = lazyPage(() => import('./pages/ThankYouPage'));

export const checkinRoutes: RouteObject[] = [
  // The scan pages handle a missing session themselves (spec §4: a message, then the login).
  { path: 'scan/:uidn', lazy: scanPage },
  { path: 'scan-user-qrcode/:uidn', lazy: scanPage },
  { path: 'success-checkout/:uidn', lazy: thankYouPage },
  { path: 'success-user-checkin/:uidn', lazy: thankYouPage },
  { path: 'success-user-checkout/:uidn', lazy: thankYouPage },
  {
    element: <RequireAuth />,
    children: [
      { path: 'success-checkin/:uidn', lazy: thankYouPage },
      { path: ':domain/manual-check', lazy: lazyPage(() => import('./pages/ManualCheckPage')) },
      { path: ':domain/camera', lazy: lazyPage(() => import('./pages/CameraPage')) },
    ],
  },
];
