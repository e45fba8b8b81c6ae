/** The presence logs' screens (spec §2 Visitor log, User attendance, user check-in and check-out). */
import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const checkinLogRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/display-logs',
        handle: { title: 'checkinLogs:visitorLog.title' },
        element: lazyPage(() => import('./pages/VisitorLogPage')),
      },
      {
        path: ':domain/user-check-ins',
        handle: { title: 'checkinLogs:attendance.title' },
        element: lazyPage(() => import('./pages/UserAttendancePage')),
      },
      {
        path: 'user-check-in-out',
        handle: { title: 'checkinLogs:userLog.title' },
        element: lazyPage(() => import('./pages/UserLogPage')),
      },
    ],
  },
];
