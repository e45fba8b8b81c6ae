import { useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** What every screen may read of a company (staff of the company get more fields). */
export interface CompanySummary {
  id: string;
  name: string;
  slug: string;
  logo_url: string | null;
  timezone: string;
}

export interface Settings {
  default_company_slug: string;
  public_url: string;
}

export function useSettings() {
  return useQuery({
    queryKey: ['settings'],
    queryFn: () => api.get<Settings>('/settings'),
    staleTime: Infinity,
  });
}

export function companyQueryOptions(slug: string | null | undefined) {
  return {
    queryKey: ['company', slug?.toLowerCase()],
    queryFn: () =>
      api
        .get<{ data: CompanySummary }>(`/company/${encodeURIComponent(slug!)}`)
        .then((r) => r.data),
    enabled: !!slug,
    staleTime: 60_000,
    retry: false,
  };
}

export function useCompany(slug: string | null | undefined) {
  return useQuery(companyQueryOptions(slug));
}
