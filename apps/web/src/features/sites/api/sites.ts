/** `/api/company/{id}/sites` (issue 28): a company's sites, created, edited, archived, deleted. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Site, SiteInput, SiteUpdate } from '@sesame/shared';
import { api } from '../../../lib/api-client';

interface SiteAnswer {
  message?: string;
  data: Site;
}

const base = (company: string) => `/company/${encodeURIComponent(company)}/sites`;
const one = (company: string, siteId: string) => `${base(company)}/${encodeURIComponent(siteId)}`;

export const createSite = (company: string, body: SiteInput) =>
  api.post<SiteAnswer>(base(company), body);

export const updateSite = (company: string, siteId: string, body: SiteUpdate) =>
  api.put<SiteAnswer>(one(company, siteId), body);

export const archiveSite = (company: string, siteId: string) =>
  api.post<SiteAnswer>(`${one(company, siteId)}/archive`);

export const restoreSite = (company: string, siteId: string) =>
  api.post<SiteAnswer>(`${one(company, siteId)}/restore`);

export const deleteSite = (company: string, siteId: string) =>
  api.delete<{ message: string }>(one(company, siteId));

/** Archive, restore or delete a site; every sites query (the switcher's too) is read again. */
export function useSiteAction(company: string) {
  const queryClient = useQueryClient();
  return useMutation<
    { message?: string },
    Error,
    { action: 'archive' | 'restore' | 'delete'; siteId: string }
  >({
    mutationFn: ({
      action,
      siteId,
    }: {
      action: 'archive' | 'restore' | 'delete';
      siteId: string;
    }) =>
      action === 'archive'
        ? archiveSite(company, siteId)
        : action === 'restore'
          ? restoreSite(company, siteId)
          : deleteSite(company, siteId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sites'] }),
  });
}
