/** The dashboard's calls (issue 35): its figures and charts, and each chart's CSV. */
import { queryOptions } from '@tanstack/react-query';
import type { Dashboard, DashboardChart, Language } from '@sesame/shared';
import { api, toQuery } from '../../../lib/api-client';

export interface DashboardParams {
  /** The company the URL names (the platform's admin, who sees every company). */
  company?: string;
  /** One site (the site choice); absent: every site the person may see. */
  site?: string;
  from: string;
  to: string;
}

export const dashboardKeys = { all: ['dashboard'] as const };

/**
 * The dashboard in `lang`: the server names visitor types in the interface's language, so
 * another language is another answer (read again when the language changes).
 */
export const dashboardQueryOptions = (params: DashboardParams, lang: Language) =>
  queryOptions({
    queryKey: [...dashboardKeys.all, params, lang],
    queryFn: () => api.get<Dashboard>(`/dashboard${toQuery({ ...params })}`),
  });

/** `GET /api/dashboard.csv` with the screen's filters: one chart's table, or the figures. */
export const dashboardCsvPath = (params: DashboardParams, chart?: DashboardChart) =>
  `/dashboard.csv${toQuery({ ...params, chart })}`;
