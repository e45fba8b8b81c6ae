import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, toQuery, type Paginated } from './api-client';

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

/** A company a chooser may pick (the list's row; the time zone when the viewer may read it). */
export interface CompanyOption {
  id: string;
  name: string;
  slug: string;
  timezone?: string;
}

/** The companies whose names match `q` (the first 100), for those who choose a company. */
/**
 * What the company picker asks the server for: what was typed, except the chosen
 * company's own name, which the picker's box shows once one is chosen (searching
 * for it listed that company alone, and nothing else could be picked).
 */
export function companySearchQuery(typed: string, chosenName: string | undefined): string {
  const search = typed.trim();
  return search === (chosenName ?? '').trim() ? '' : search;
}

export function useCompanyOptions(enabled: boolean, q: string) {
  return useQuery({
    queryKey: ['companies', 'options', q],
    queryFn: () =>
      api
        .get<Paginated<CompanyOption>>(`/companies${toQuery({ per_page: 100, q: q || undefined })}`)
        .then((r) => r.data),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
