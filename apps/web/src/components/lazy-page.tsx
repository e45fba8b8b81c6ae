import { lazy, type ComponentType, type ReactElement } from 'react';

/**
 * A route's screen loaded on demand: `element: lazyPage(() => import('./pages/X'))` with a
 * default-exported component. Keeps staff screens out of the public bundle. The layout's
 * Suspense shows the loader while the code comes; code that cannot load reaches the
 * page's error boundary (app/routes).
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ReactElement {
  const Page = lazy(load);
  return <Page />;
}
