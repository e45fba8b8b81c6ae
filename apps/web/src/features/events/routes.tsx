import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const eventRoutes: RouteObject[] = [
  // Public: the share link (JoinEvent) and the poster.
  { path: 'company/:domain/event/:slug', lazy: lazyPage(() => import('./pages/JoinEventPage')) },
  {
    path: ':domain/show-event-qrcode/:slug',
    lazy: lazyPage(() => import('./pages/EventPosterPage')),
  },
  {
    element: <RequireAuth />,
    children: [
      { path: ':domain/create-event', lazy: lazyPage(() => import('./pages/CreateEventPage')) },
      { path: ':domain/list-events', lazy: lazyPage(() => import('./pages/EventListPage')) },
      // The event page: the event, its link and poster, closing it, its participants.
      {
        path: ':domain/list-qrcode-events/:slug',
        lazy: lazyPage(() => import('./pages/EventPage')),
      },
      {
        path: ':domain/event-attendences',
        lazy: lazyPage(() => import('./pages/EventAttendancePage')),
      },
    ],
  },
];
