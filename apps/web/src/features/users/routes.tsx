import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const userRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      { path: ':domain/create-user', lazy: lazyPage(() => import('./pages/CreateUserPage')) },
      { path: ':domain/list-users', lazy: lazyPage(() => import('./pages/UserListPage')) },
      {
        path: ':domain/edit-user/:user_id',
        lazy: lazyPage(() => import('./pages/EditUserPage')),
      },
    ],
  },
];
