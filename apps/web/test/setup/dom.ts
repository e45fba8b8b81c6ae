/**
 * The `web:dom` project's setup (vitest.config.ts): each test starts from an empty page and
 * an empty storage, and the browser features Mantine reads that happy-dom does not give
 * are stood in for here.
 */
import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Testing Library unmounts by itself only when the test API is global; here it is imported.
afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Mantine's color scheme and media queries ask `matchMedia`: never matching, as on a phone
// held upright with the light scheme.
if (typeof window.matchMedia !== 'function') {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// Mantine's ScrollArea and floating elements observe sizes; the page never lays anything out.
if (typeof window.ResizeObserver !== 'function') {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
