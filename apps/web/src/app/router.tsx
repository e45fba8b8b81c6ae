/**
 * Every route of spec §2. Each feature exports its routes; this file composes
 * them under the layout. React Router ranks static segments (sign-in, company,
 * scan, ...) above the dynamic company slug, so `/{domain}` never shadows them.
 */
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { AuthProvider } from '../lib/auth';
import { AppLayout } from './layout/AppLayout';
import { authRoutes } from '../features/auth/routes';
import { homeRoutes } from '../features/home/routes';
import { menuRoutes } from '../features/menu/routes';
import { visitorRoutes } from '../features/visitors/routes';
import { requestRoutes } from '../features/requests/routes';
import { checkinRoutes } from '../features/checkins/routes';
import { checkinLogRoutes } from '../features/checkins/log-routes';
import { eventRoutes } from '../features/events/routes';
import { userRoutes } from '../features/users/routes';
import { companyRoutes } from '../features/companies/routes';
import { qrUserRoutes } from '../features/qr-users/routes';
import { onSiteRoutes } from '../features/on-site/routes';
import { auditRoutes } from '../features/audit/routes';

function Root() {
  return (
    <AuthProvider>
      <Outlet />
    </AuthProvider>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <AppLayout />,
        children: [
          ...authRoutes,
          ...homeRoutes,
          ...menuRoutes,
          ...visitorRoutes,
          ...requestRoutes,
          // Before checkinRoutes: of two routes with the same path, the first listed wins.
          ...checkinLogRoutes,
          ...checkinRoutes,
          ...eventRoutes,
          ...userRoutes,
          ...companyRoutes,
          ...qrUserRoutes,
          ...onSiteRoutes,
          ...auditRoutes,
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
