import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

export const menuRoutes: RouteObject[] = [
  // A staff page that sends an anonymous visitor to the request page itself (spec §2); `staff`
  // sends `/menu` to the signed-in person's own company (app/slugless-routes).
  {
    path: ':domain/menu',
    element: lazyPage(() => import('./pages/MenuPage')),
    handle: { staff: true, title: 'menu:title' },
  },
];
