import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/**
 * Issue 31: the company's watchlist (STAFF_PAGE_ACTIONS.watchlist: 'watchlist.manage') and
 * the visits it held, for review (STAFF_PAGE_ACTIONS['watchlist-reviews']: 'watchlist.review').
 */
export const watchlistRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/watchlist',
        handle: { title: 'watchlist:title' },
        element: lazyPage(() => import('./pages/WatchlistPage')),
      },
      {
        path: ':domain/watchlist-reviews',
        handle: { title: 'watchlist:reviews.title' },
        element: lazyPage(() => import('./pages/WatchlistReviewsPage')),
      },
    ],
  },
];
