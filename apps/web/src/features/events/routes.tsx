import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const eventRoutes: RouteObject[] = [
  // Public: the share link (JoinEvent) and the poster.
  {
    path: 'company/:domain/event/:slug',
    handle: { title: 'events:join.pageTitle' },
    element: lazyPage(() => import('./pages/JoinEventPage')),
  },
  {
    path: ':domain/show-event-qrcode/:slug',
    handle: { title: 'events:poster.title' },
    element: lazyPage(() => import('./pages/EventPosterPage')),
  },
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/create-event',
        handle: { title: 'events:create.title' },
        element: lazyPage(() => import('./pages/CreateEventPage')),
      },
      {
        path: ':domain/list-events',
        handle: { title: 'events:list.title' },
        element: lazyPage(() => import('./pages/EventListPage')),
      },
      // The event page: the event, its link and poster, closing it, its participants.
      {
        path: ':domain/list-qrcode-events/:slug',
        handle: { title: 'events:eventPage.title' },
        element: lazyPage(() => import('./pages/EventPage')),
      },
      {
        path: ':domain/event-attendences',
        handle: { title: 'events:attendance.title' },
        element: lazyPage(() => import('./pages/EventAttendancePage')),
      },
    ],
  },
];
