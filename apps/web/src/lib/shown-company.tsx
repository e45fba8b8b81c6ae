/**
 * Which company a screen shows (the navbar's logo and name, the not-found page's way
 * back). One rule, in this order:
 * 1. the company the URL names: `{domain}`, or `{slug}` on `/company/{slug}` pages;
 * 2. without one, the company of the record the page shows (a thank-you page names the
 *    person's company with `useRecordCompany`);
 * 3. else, for a signed-in staff member, their own company;
 * 4. else the default company (spec §1: "When the slug is absent, a fixed short default
 *    slug is used").
 * Browser storage ('currentCompany') records the last URL's company and decides nothing,
 * so two loads finishing in either order show the same company.
 */
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router';
import { useAuth } from './auth';
import { useSettings } from './company';

export interface CompanySources {
  urlSlug?: string | null;
  recordSlug?: string | null;
  ownSlug?: string | null;
  defaultSlug?: string | null;
}

export function shownCompanySlug(sources: CompanySources): string | undefined {
  return (
    sources.urlSlug || sources.recordSlug || sources.ownSlug || sources.defaultSlug || undefined
  );
}

/** The company slug a path names: `/{domain}/...`, `/company/{domain}/...`, `/company/{slug}`. */
export function urlCompanySlug(
  params: Readonly<Partial<Record<string, string>>>,
  pathname: string,
): string | undefined {
  if (params.domain) return params.domain;
  return pathname.startsWith('/company/') ? params.slug : undefined;
}

export function useUrlCompanySlug(): string | undefined {
  return urlCompanySlug(useParams(), useLocation().pathname);
}

interface RecordCompany {
  slug: string | null;
  set(slug: string | null): void;
}

const RecordCompanyContext = createContext<RecordCompany | null>(null);

export function RecordCompanyProvider({ children }: { children: ReactNode }) {
  const [slug, set] = useState<string | null>(null);
  const value = useMemo(() => ({ slug, set }), [slug]);
  return <RecordCompanyContext.Provider value={value}>{children}</RecordCompanyContext.Provider>;
}

/** A page without a company in its URL names the company of the record it shows. */
export function useRecordCompany(slug: string | null | undefined): void {
  const context = useContext(RecordCompanyContext);
  const set = context?.set;
  useEffect(() => {
    if (!set || !slug) return;
    set(slug);
    return () => set(null);
  }, [set, slug]);
}

/** The slug of the company on screen, by the rule above, and whether the URL named it. */
export function useShownCompany(): { slug: string | undefined; fromUrl: boolean } {
  const urlSlug = useUrlCompanySlug();
  const record = useContext(RecordCompanyContext);
  const { user, isAuthenticated } = useAuth();
  const settings = useSettings();
  return {
    slug: shownCompanySlug({
      urlSlug,
      recordSlug: record?.slug,
      ownSlug: isAuthenticated ? user?.company : null,
      defaultSlug: settings.data?.default_company_slug,
    }),
    fromUrl: !!urlSlug,
  };
}
