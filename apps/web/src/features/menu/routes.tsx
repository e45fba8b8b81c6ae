import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

export const menuRoutes: RouteObject[] = [
  { path: ':domain/menu', lazy: lazyPage(() => import('./pages/MenuPage')) },
];
