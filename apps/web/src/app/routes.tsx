/**
 * Every route of the web app. Each feature exports its routes; this file composes
 * them: the pages under the layout (each `/{domain}/<page>` also without the slug),
 * the kiosk app outside it. React Router ranks static segments (sign-in, company,
 * scan, ...) above the dynamic company slug, so `/{domain}` never shadows them.
 */
import { lazy, Suspense } from 'react';
import { Outlet, type RouteObject } from 'react-router';
import { NotFoundPage } from '../components/NotFoundPage';
import { PageErrorBoundary } from '../components/RouteErrorPage';
import { AuthProvider, useAuth } from '../lib/auth';
import { AppLayout } from './layout/AppLayout';
import { sluglessRoutes } from './slugless-routes';
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
import { siteRoutes } from '../features/sites/routes';
import { kioskRoutes } from '../features/kiosk/routes';
import { kiosksPageRoutes } from '../features/kiosks/routes';
import { invitationStaffRoutes } from '../features/invitations/routes';
import { invitationRoutes } from '../features/invitation/routes';
import { visitorTypeRoutes } from '../features/visitor-types/routes';
import { watchlistRoutes } from '../features/watchlist/routes';
import { ssoRoutes } from '../features/sso/routes';
import { integrationRoutes } from '../features/integrations/routes';
import { dashboardRoutes } from '../features/dashboard/routes';

const ModalsProvider = lazy(() => import('./staff-modals'));

/**
 * The confirmation modals (`modals.openConfirmModal`) are staff screens' only: their
 * provider, which listens for them, loads once someone is signed in, never on a public page.
 */
function StaffModals() {
  const { isAuthenticated } = useAuth();
  if (!isAuthenticated) return null;
  return (
    <Suspense fallback={null}>
      <ModalsProvider />
    </Suspense>
  );
}

function Root() {
  return (
    <AuthProvider>
      <StaffModals />
      <Outlet />
    </AuthProvider>
  );
}

/** Every page of the product, as the features declare them. */
const pages: RouteObject[] = [
  ...authRoutes,
  ...homeRoutes,
  ...menuRoutes,
  ...visitorRoutes,
  ...requestRoutes,
  ...checkinLogRoutes,
  ...checkinRoutes,
  ...eventRoutes,
  ...userRoutes,
  ...companyRoutes,
  ...qrUserRoutes,
  ...onSiteRoutes,
  ...auditRoutes,
  ...siteRoutes,
  ...kiosksPageRoutes,
  ...invitationStaffRoutes,
  ...invitationRoutes,
  ...visitorTypeRoutes,
  ...watchlistRoutes,
  ...ssoRoutes,
  ...integrationRoutes,
  ...dashboardRoutes,
];

export const routes: RouteObject[] = [
  {
    // The layout itself failing shows a plain page (app/router's boundary).
    element: <Root />,
    children: [
      {
        element: <AppLayout />,
        children: [
          {
            // A page that throws while rendering (or whose code cannot load) keeps the layout.
            element: <PageErrorBoundary />,
            children: [
              ...pages,
              // `/request-meeting`, `/manual-check`, ...: the same page of a company (spec §1).
              ...sluglessRoutes(pages),
              { path: '*', element: <NotFoundPage />, handle: { title: 'common:notFound.title' } },
            ],
          },
        ],
      },
    ],
  },
  // The kiosk app (issue 29): no layout, no staff session.
  ...kioskRoutes,
];
