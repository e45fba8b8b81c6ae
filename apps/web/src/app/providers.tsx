import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { notificationsStore, useNotifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n';
import { ApiError } from '../lib/api-client';
import { endSession } from '../lib/session';
import { cssVariablesResolver, sesameTheme } from './theme';

/**
 * A 401 on a signed-in session means the token was revoked or expired: the session ends
 * (lib/auth says so on screen; a guarded page goes to the login and comes back after it).
 */
function onApiError(error: unknown) {
  if (error instanceof ApiError && error.status === 401) endSession();
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onApiError }),
  mutationCache: new MutationCache({
    // A screen whose spec shows its own 401 message first says so with `meta.handlesUnauthorized`.
    onError: (error, _variables, _context, mutation) => {
      if (!mutation.meta?.handlesUnauthorized) onApiError(error);
    },
  }),
  defaultOptions: {
    queries: {
      retry: (count, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const TOASTS = { position: 'top-center', containerWidth: 420 } as const;

// Toasts made before their container is on screen go where it will put them.
notificationsStore.setState({ ...notificationsStore.getState(), defaultPosition: TOASTS.position });

const NotificationsContainer = lazy(() => import('./toasts-container'));

/**
 * The toasts' container (and its transitions, portal, ...) loads with the first toast:
 * `notifications.show()` only writes to Mantine's store, which the container reads once it
 * is there, so no toast is lost and a page that never shows one never loads it.
 */
function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  const any = notifications.length > 0 || queue.length > 0;
  // Once there, it stays: the last toast's closing transition plays.
  if (any && !needed) setNeeded(true);
  if (!any && !needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsContainer {...TOASTS} />
    </Suspense>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  // The icon buttons' names follow the language.
  const { t } = useTranslation();
  const close = t('close');
  const clear = t('clear');
  const togglePassword = t('togglePassword');
  const first = t('pageControls.first');
  const previous = t('pageControls.previous');
  const next = t('pageControls.next');
  const last = t('pageControls.last');
  const theme = useMemo(
    () =>
      sesameTheme({
        close,
        clear,
        togglePassword,
        pageControls: { first, previous, next, last },
      }),
    [close, clear, togglePassword, first, previous, next, last],
  );
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <Toasts />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
