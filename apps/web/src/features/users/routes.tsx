import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const userRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      { path: ':domain/create-user', lazy: lazyPage(() => import('./pages/CreateUserPage')) },
      { path: ':domain/list-users', lazy: lazyPage(() => import('./pages/UserListPage')) },
      // Any signed-in person's own account: their password (issue 17).
      { path: ':domain/mon-compte', lazy: lazyPage(() => import('./pages/AccountPage')) },
      // Any signed-in person's own mail settings (issue 15).
      {
        path: ':domain/my-mail-settings',
        lazy: lazyPage(() => import('./pages/MailPreferencesPage')),
      },
      {
        path: ':domain/edit-user/:user_id',
        lazy: lazyPage(() => import('./pages/EditUserPage')),
      },
    ],
  },
];
