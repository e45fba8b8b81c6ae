import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

/**
 * Issue 34: the company's API keys, webhooks and chat, for its IT department
 * (STAFF_PAGE_ACTIONS: 'integrations.manage').
 */
export const integrationRoutes: RouteObject[] = [
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/api-keys',
        handle: { title: 'integrations:apiKeys.title' },
        element: lazyPage(() => import('./pages/ApiKeysPage')),
      },
      {
        path: ':domain/webhooks',
        handle: { title: 'integrations:webhooks.title' },
        element: lazyPage(() => import('./pages/WebhooksPage')),
      },
      {
        path: ':domain/chat',
        handle: { title: 'integrations:chat.title' },
        element: lazyPage(() => import('./pages/ChatPage')),
      },
    ],
  },
];
