import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const userRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/create-user',
        handle: { title: 'users:create.title' },
        element: lazyPage(() => import('./pages/CreateUserPage')),
      },
      {
        path: ':domain/list-users',
        handle: { title: 'users:list.title' },
        element: lazyPage(() => import('./pages/UserListPage')),
      },
      // Any signed-in person's own account: their password (issue 17).
      {
        path: ':domain/mon-compte',
        handle: { title: 'users:account.title' },
        element: lazyPage(() => import('./pages/AccountPage')),
      },
      // Any signed-in person's own mail settings (issue 15).
      {
        path: ':domain/my-mail-settings',
        handle: { title: 'hostLoop:preferences.title' },
        element: lazyPage(() => import('./pages/MailPreferencesPage')),
      },
      {
        path: ':domain/edit-user/:user_id',
        handle: { title: 'users:edit.title' },
        element: lazyPage(() => import('./pages/EditUserPage')),
      },
    ],
  },
];
