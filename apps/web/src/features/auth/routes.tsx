import type { RouteObject } from 'react-router';
import LoginPage from './pages/LoginPage';

// Login is a public first screen: in the main bundle, not lazy.
export const authRoutes: RouteObject[] = [
  { index: true, handle: { title: 'auth:title' }, element: <LoginPage /> },
  { path: 'sign-in', handle: { title: 'auth:title' }, element: <LoginPage /> },
];
