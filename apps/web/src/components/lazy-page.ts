import type { RouteObject } from 'react-router';

/**
 * A route whose screen loads on demand: `lazyPage(() => import('./pages/X'))`
 * with a default-exported component. Keeps staff screens out of the public bundle.
 */
export function lazyPage(
  load: () => Promise<{ default: React.ComponentType }>,
): RouteObject['lazy'] {
  return async () => {
    const module = await load();
    return { Component: module.default };
  };
}
