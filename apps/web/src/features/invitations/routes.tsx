import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/**
 * Issue 30: a host invites visitors and follows them (STAFF_PAGE_ACTIONS invite and
 * my-visitors: 'invitations.create').
 */
export const invitationStaffRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/invite',
        handle: { title: 'invitations:invite.title' },
        element: lazyPage(() => import('./pages/InvitePage')),
      },
      {
        path: ':domain/my-visitors',
        handle: { title: 'invitations:mine.title' },
        element: lazyPage(() => import('./pages/MyVisitorsPage')),
      },
    ],
  },
];
