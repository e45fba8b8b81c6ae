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
        lazy: lazyPage(() => import('./pages/CreateUserPage')),
      },
      {
        path: ':domain/list-users',
        handle: { title: 'users:list.title' },
        lazy: lazyPage(() => import('./pages/UserListPage')),
      },
      // Any signed-in person's own account: their password (issue 17).
      {
        path: ':domain/mon-compte',
        handle: { title: 'users:account.title' },
        lazy: lazyPage(() => import('./pages/AccountPage')),
      },
      // Any signed-in person's own mail settings (issue 15).
      {
        path: ':domain/my-mail-settings',
        handle: { title: 'hostLoop:preferences.title' },
        lazy: lazyPage(() => import('./pages/MailPreferencesPage')),
      },
      {
        path: ':domain/edit-user/:user_id',
        handle: { title: 'users:edit.title' },
        lazy: lazyPage(() => import('./pages/EditUserPage')),
      },
    ],
  },
];
