/**
 * What a list or a desk takes from the header's site (issue 28), on `useSiteChoice()`:
 * - `site`: the `?site=` to send — the chosen site, only when the company has several
 *   (a single-site company's calls stay as they were: its only site is implied, and a
 *   platform role's every-company list is not narrowed to its own company's site);
 * - `showSite`: every site of a company of several is shown: rows say their site.
 */
import { useSiteChoice, type SiteChoice } from './site';

export interface ListSite {
  site: string | undefined;
  showSite: boolean;
  /** The chosen site's zone (a log's range is picked in it). */
  zone: string | undefined;
  /** The site list is still loading (a desk's check waits for it). */
  isLoading: boolean;
}

/** Pure, for the tests. */
export function listSiteOf(
  choice: Pick<SiteChoice, 'siteId' | 'multi' | 'current' | 'isLoading'>,
): ListSite {
  return {
    site: choice.multi ? choice.siteId : undefined,
    showSite: choice.multi && !choice.siteId,
    zone: choice.current?.timezone,
    isLoading: choice.isLoading,
  };
}

export function useListSite(): ListSite {
  return listSiteOf(useSiteChoice());
}
