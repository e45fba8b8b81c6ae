import type { RouteObject } from 'react-router';
import HomePage from './pages/HomePage';

export const homeRoutes: RouteObject[] = [
  { path: ':domain', handle: { title: 'home:pageTitle' }, element: <HomePage /> },
];
