/** The presence logs' screens (spec §2 Visitor log, User attendance, user check-in and check-out). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const checkinLogRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      { path: ':domain/display-logs', lazy: lazyPage(() => import('./pages/VisitorLogPage')) },
      {
        path: ':domain/user-check-ins',
        lazy: lazyPage(() => import('./pages/UserAttendancePage')),
      },
      { path: 'user-check-in-out', lazy: lazyPage(() => import('./pages/UserLogPage')) },
    ],
  },
];
