/**
 * Every page's title (issue 18): '<page> — <company> — Sésame', in the screen's language.
 * A route names its page in its `handle` (`{ title: 'ns:key' }`, a locale key); the layout
 * reads the deepest matched route's and sets `document.title` (again on a language switch).
 * A screen that replaces its route's page (not found, forbidden, failed) overrides it.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

export const BRAND = 'Sésame';
const SEPARATOR = ' — ';

/** What a route's `handle` may say: its page's title key; `staff` (app/slugless-routes). */
export interface RouteHandle {
  title?: string;
  staff?: boolean;
}

/** The page, then the company shown, then the product; a part not known is left out. */
export function formatPageTitle(parts: { page?: string | null; company?: string | null }): string {
  return [parts.page, parts.company, BRAND]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(SEPARATOR);
}

function titleOf(handle: unknown): string | undefined {
  if (typeof handle !== 'object' || handle === null || !('title' in handle)) return undefined;
  return typeof handle.title === 'string' ? handle.title : undefined;
}

/**
 * The matched routes' handles, outermost first (app/router provides them: the declarative
 * router has no `useMatches`).
 */
export const RouteHandlesContext = createContext<readonly unknown[]>([]);

export const useRouteHandles = () => useContext(RouteHandlesContext);

/** The title key of the deepest matched route that names one. */
export function routeTitleKey(matches: readonly { handle: unknown }[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const key = titleOf(matches[i]?.handle);
    if (key) return key;
  }
  return undefined;
}

type SetOverride = (key: string | null) => void;
const OverrideContext = createContext<{ override: string | null; set: SetOverride } | null>(null);

/** Holds the title key a screen put in place of its route's (see `usePageTitleOverride`). */
export function PageTitleProvider({ children }: { children: ReactNode }) {
  const [override, set] = useState<string | null>(null);
  const value = useMemo(() => ({ override, set }), [override]);
  return <OverrideContext.Provider value={value}>{children}</OverrideContext.Provider>;
}

/** The override in force, if a screen set one. */
export function usePageTitleOverrideKey(): string | null {
  return useContext(OverrideContext)?.override ?? null;
}

/**
 * A screen shown in place of its route's page ('Page introuvable' under a known address)
 * names the page by `key` while it is on screen. Outside the layout (the layout itself
 * failed), `fallback` is written straight away.
 */
export function usePageTitleOverride(key: string, fallback: string): void {
  const context = useContext(OverrideContext);
  const set = context?.set;
  useEffect(() => {
    if (!set) {
      document.title = formatPageTitle({ page: fallback });
      return;
    }
    set(key);
    return () => set(null);
  }, [set, key, fallback]);
}
