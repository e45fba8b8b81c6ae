/**
 * Companies: the fetchers, their query options and hooks (spec §7 company calls).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Company, CompanyListItem, User } from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface ListParams {
  page: number;
  per_page: number;
  q?: string;
}

export interface CompanySaved {
  message: string;
  data: Company;
}

export function getCompanies(params: ListParams) {
  return api.get<Paginated<CompanyListItem>>(`/companies${toQuery({ ...params })}`);
}

/** One company by slug or id; its staff (and any-company roles) get every field. */
export function companyDetailsQueryOptions(slugOrId: string) {
  return queryOptions({
    queryKey: ['companies', 'one', slugOrId.toLowerCase()],
    queryFn: () =>
      api.get<{ data: Company }>(`/company/${encodeURIComponent(slugOrId)}`).then((r) => r.data),
    retry: false,
  });
}

export function useCompanyDetails(slugOrId: string | undefined) {
  return useQuery({ ...companyDetailsQueryOptions(slugOrId ?? ''), enabled: !!slugOrId });
}

/** The staff of a company ('{company} - Liste des Employés'). */
export function getEmployees(slug: string, params: ListParams) {
  return api.get<Paginated<User>>(
    `/user/list/${encodeURIComponent(slug)}${toQuery({ ...params })}`,
  );
}

function invalidateCompanies(client: ReturnType<typeof useQueryClient>) {
  // The navbar reads ['company', slug] (lib/company): a new logo shows at once.
  return Promise.all([
    client.invalidateQueries({ queryKey: ['companies'] }),
    client.invalidateQueries({ queryKey: ['company'] }),
  ]);
}

export function useCreateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: FormData) => api.post<CompanySaved>('/company', form),
    onSuccess: () => invalidateCompanies(client),
  });
}

/** 'Éditer l'Entreprise': every field but the name, optional logo. */
export function useUpdateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id: string; form: FormData }) =>
      api.post<CompanySaved>(`/company/${id}`, form),
    onSuccess: () => invalidateCompanies(client),
  });
}

/** The company list's inline form (?compid=): name, description, slug, optional logo. */
export function useInlineUpdateCompany() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id: string; form: FormData }) =>
      api.put<CompanySaved>(`/company/${id}`, form),
    onSuccess: () => invalidateCompanies(client),
  });
}

export function deleteCompany(id: string) {
  return api.delete<{ message: string }>(`/company/delete/${id}`);
}

/** Where a company's QR and request-meeting link live, for every reader of its public fields. */
export interface CompanyPoster {
  id: string;
  name: string;
  slug: string;
  logo_url: string | null;
  link: string;
  qrcode_url: string;
}

/**
 * The company QR page's data. Staff of the company get `link` and `qrcode_url` from the
 * server; an anonymous reader gets the public fields, and the same public addresses are
 * rebuilt from the app's public URL (ARCHITECTURE §6: the QR encodes the request-meeting page).
 */
export function toCompanyPoster(
  company: Pick<Company, 'id' | 'name' | 'slug' | 'logo_url'> & Partial<Company>,
  publicUrl: string,
): CompanyPoster {
  return {
    id: company.id,
    name: company.name,
    slug: company.slug,
    logo_url: company.logo_url,
    link: company.link ?? `${publicUrl}/${company.slug}/request-meeting`,
    qrcode_url:
      company.qrcode_url ??
      `/api/public/qrcode-link/qrcode-${encodeURIComponent(company.slug)}.png`,
  };
}
