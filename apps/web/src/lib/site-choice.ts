/**
 * The site choice's plain logic (issue 28), without React: which site the staff screens
 * show from what was remembered, the home site and the person's limits. lib/site.tsx
 * holds the provider; the web unit tests read this.
 */
/** The value kept in storage for "all sites". */
export const ALL_SITES = 'all';

export const siteStorageKey = (companyId: string) => `sesame.site.${companyId}`;

export interface ChoiceSources {
  /** The active sites the person may see. */
  sites: readonly { id: string }[];
  /** What storage holds for the company: a site id, ALL_SITES, or nothing. */
  stored: string | null | undefined;
  /** The person's home site (their own company only). */
  homeSiteId?: string | null;
  /** The person is limited to some sites (their `site_ids` is not empty). */
  limited: boolean;
}

/** Whether "all sites" may be chosen: not for a person whose sites are one. */
export function allowsAllSites(sites: readonly unknown[], limited: boolean): boolean {
  return sites.length > 1 || (!limited && sites.length === 0);
}

/**
 * The site the screens show, from what was remembered, the home site and the person's
 * limits (pure, for the tests). undefined = all sites. A single site is that site.
 */
export function resolveSiteChoice({
  sites,
  stored,
  homeSiteId,
  limited,
}: ChoiceSources): string | undefined {
  const known = (id: string | null | undefined): id is string =>
    !!id && sites.some((site) => site.id === id);
  if (sites.length === 1) return sites[0]!.id;
  if (sites.length === 0) return undefined;
  if (stored === ALL_SITES) return undefined;
  if (known(stored)) return stored;
  if (known(homeSiteId)) return homeSiteId;
  return limited ? sites[0]!.id : undefined;
}
