import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

/**
 * Issue 30: the invited visitor's own page, by the signed link of their mail (`?token=`):
 * public, no staff session.
 */
export const invitationRoutes: RouteObject[] = [
  {
    path: ':domain/invitation',
    handle: { title: 'invitation:title' },
    element: lazyPage(() => import('./pages/InvitationPage')),
  },
];
