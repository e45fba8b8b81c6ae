/**
 * The kiosk app (issue 29): `/kiosk`, a top-level page of its own — outside the staff layout,
 * with no session (the tablet holds a device token) — and its own lazy chunk, so none of the
 * staff screens' code loads on the tablet. 'kiosk' is a reserved company slug. A failure
 * shows app/router's plain error page.
 */
import { lazy, Suspense } from 'react';
import type { RouteObject } from 'react-router';

const KioskPage = lazy(() => import('./KioskPage'));

export const kioskRoutes: RouteObject[] = [
  {
    path: 'kiosk',
    handle: { title: 'kiosk:title' },
    element: (
      <Suspense fallback={null}>
        <KioskPage />
      </Suspense>
    ),
  },
];
