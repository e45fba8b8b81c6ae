import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

/**
 * The login loads on demand like every page: its form layer and zod stay out of
 * the entry, which the public home, thank-you and waiting pages load too. The server
 * names its chunk in index.html (modulepreload) at `/` and `/sign-in`, so it loads beside
 * the entry, not after it (apps/server/src/web-index.ts).
 */
const login = lazyPage(() => import('./pages/LoginPage'));

export const authRoutes: RouteObject[] = [
  { index: true, handle: { title: 'auth:title' }, element: login },
  { path: 'sign-in', handle: { title: 'auth:title' }, element: login },
];
