/**
 * Which site the staff screens show (issue 28): the header's switcher sets it, the lists
 * read it (`useSiteChoice().siteId`, sent as `?site=`). `undefined` is "all sites": every
 * site the person may see (the server narrows it to their own when they are limited).
 *
 * The sites are the signed-in person's company's (a platform role browsing another
 * company's pages: that company's). The choice is remembered per company in
 * `localStorage` (`sesame.site.<companyId>`); without one, the person's home site, else
 * all sites, else (a person limited to sites) the first of theirs. A person limited to
 * one site has no "all sites": their site is the choice.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CROSS_TENANT_ROLES, mayPerform, type Role, type Site } from '@sesame/shared';
import { api } from './api-client';
import { useAuth } from './auth';
import { useUrlCompanySlug } from './shown-company';
import { ALL_SITES, resolveSiteChoice, siteStorageKey } from './site-choice';

export {
  ALL_SITES,
  allowsAllSites,
  resolveSiteChoice,
  siteStorageKey,
  type ChoiceSources,
} from './site-choice';

export interface SiteChoice {
  /** The company's active sites the person may see, main site first. */
  sites: Site[];
  /** The chosen site; undefined = all sites. */
  siteId: string | undefined;
  setSiteId(id: string | undefined): void;
  /** The company has more than one active site (for this person): the switcher shows. */
  multi: boolean;
  /** The chosen site's record (undefined for all sites). */
  current: Site | undefined;
  isLoading: boolean;
}

/** The sites query's key: the sites screen refreshes it after a change. */
export const sitesQueryKey = (company: string | undefined, archived = false) =>
  ['sites', company?.toLowerCase(), { archived }] as const;

/** A company's sites (its id or slug); archived ones too when asked. */
export function fetchSites(company: string, archived = false): Promise<Site[]> {
  return api
    .get<{
      data: Site[];
    }>(`/company/${encodeURIComponent(company)}/sites${archived ? '?archived=true' : ''}`)
    .then((r) => r.data);
}

/** A company's sites, for a screen that needs them (the user form, the sites screen). */
export function useCompanySites(
  company: string | undefined,
  { archived = false, enabled = true }: { archived?: boolean; enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: sitesQueryKey(company, archived),
    queryFn: () => fetchSites(company!, archived),
    enabled: enabled && !!company,
    staleTime: 60_000,
  });
}

/** What `/user/info` may carry about sites (the server adds them; both optional). */
interface SiteInfo {
  home_site_id?: string | null;
  site_ids?: string[] | null;
}

const SiteChoiceContext = createContext<SiteChoice | null>(null);

const NO_SITES: SiteChoice = {
  sites: [],
  siteId: undefined,
  setSiteId: () => undefined,
  multi: false,
  current: undefined,
  isLoading: false,
};

function readStored(companyId: string | undefined): string | null {
  if (!companyId || typeof localStorage === 'undefined') return null;
  try {
    return localStorage.getItem(siteStorageKey(companyId));
  } catch {
    return null;
  }
}

export function SiteChoiceProvider({ children }: { children: ReactNode }) {
  const { user, role, isAuthenticated } = useAuth();
  const urlSlug = useUrlCompanySlug();
  // A platform role on another company's pages works at that company's sites.
  const crossTenant = !!role && (CROSS_TENANT_ROLES as readonly Role[]).includes(role);
  const otherCompany =
    crossTenant && !!urlSlug && urlSlug.toLowerCase() !== user?.company.toLowerCase();
  const company = otherCompany ? urlSlug : user?.company_id;
  const enabled = isAuthenticated && !!role && mayPerform(role, 'sites.list');
  const query = useCompanySites(company, { enabled });
  const sites = useMemo(() => (enabled ? (query.data ?? []) : []), [enabled, query.data]);
  const companyId = sites[0]?.company_id ?? (otherCompany ? undefined : user?.company_id);
  const info = (user ?? {}) as SiteInfo;
  const limited = !otherCompany && (info.site_ids?.length ?? 0) > 0;
  const homeSiteId = otherCompany ? null : (info.home_site_id ?? null);

  // The choice made on this page (storage may be unavailable), else what storage holds.
  const [picked, setPicked] = useState<{ companyId: string; value: string } | null>(null);
  const stored = picked && picked.companyId === companyId ? picked.value : readStored(companyId);
  const siteId = resolveSiteChoice({ sites, stored, homeSiteId, limited });

  const setSiteId = useCallback(
    (id: string | undefined) => {
      if (!companyId) return;
      const value = id ?? ALL_SITES;
      try {
        localStorage.setItem(siteStorageKey(companyId), value);
      } catch {
        // Private browsing without storage: the choice lasts until the page reloads.
      }
      setPicked({ companyId, value });
    },
    [companyId],
  );

  const value = useMemo<SiteChoice>(
    () => ({
      sites,
      siteId,
      setSiteId,
      multi: sites.length > 1,
      current: sites.find((site) => site.id === siteId),
      isLoading: enabled && query.isPending,
    }),
    [sites, siteId, setSiteId, enabled, query.isPending],
  );
  return <SiteChoiceContext.Provider value={value}>{children}</SiteChoiceContext.Provider>;
}

/** The site the staff screens show, and the company's sites (see the module's comment). */
export function useSiteChoice(): SiteChoice {
  return useContext(SiteChoiceContext) ?? NO_SITES;
}
