import { useMemo, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { PAGE_SIZE } from '@sesame/shared';
import { useCompany } from '../../../lib/company';
import { DEFAULT_TIMEZONE } from '../../../lib/format';
import { useListSite } from '../../../lib/list-site';
import type { LogFilters, LogParams } from '../api/logs';
import { EMPTY_RANGE, rangeToQuery, withEndOfDay, type WallRange } from './log-range';

/**
 * The time zone a log's range is picked in: the header's site's (issue 28), else the
 * company's (its main site's), else the app's. Each row's times are its own site's.
 */
export function useLogTimeZone(companySlug: string | null | undefined): string {
  const company = useCompany(companySlug);
  const { zone } = useListSite();
  return zone ?? company.data?.timezone ?? DEFAULT_TIMEZONE;
}

/**
 * A log screen's search, range and page. A new search or range goes back to page 1;
 * the search reaches the server 300 ms after the last key.
 */
export function useLogFilters(timeZone: string) {
  const [page, setPage] = useState(1);
  const [search, setSearchText] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [range, setRangeValue] = useState<WallRange>(EMPTY_RANGE);
  // The header's site (issue 28): another site's log starts on its first page.
  const { site } = useListSite();
  const [listedSite, setListedSite] = useState(site);
  if (listedSite !== site) {
    setListedSite(site);
    setPage(1);
  }

  const filters: LogFilters = useMemo(
    () => ({ q: q || undefined, ...rangeToQuery(range, timeZone), site }),
    [q, range, timeZone, site],
  );
  const params: LogParams = useMemo(
    () => ({ page, per_page: PAGE_SIZE, ...filters }),
    [page, filters],
  );

  return {
    page,
    setPage,
    search,
    setSearch: (value: string) => {
      setSearchText(value);
      setPage(1);
    },
    range,
    setRange: (value: WallRange) => {
      setRangeValue((previous) => withEndOfDay(value, previous));
      setPage(1);
    },
    filters,
    params,
  };
}

/** What useLogFilters gives a log page: page, search, range and the query they make. */
export type LogFilterState = ReturnType<typeof useLogFilters>;
