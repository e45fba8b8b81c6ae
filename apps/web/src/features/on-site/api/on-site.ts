/** The on-site list, expected today, and checking a person out (issue 14). */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { CheckResult, ExpectedPage, OnSitePage, PersonKind } from '@sesame/shared';
import { api, toQuery } from '../../../lib/api-client';

export interface OnSiteParams {
  page: number;
  per_page: number;
  q?: string;
  kind?: PersonKind;
  /** One site's people (issue 28); absent: every site the person may see. */
  site?: string;
}

export const onSiteKeys = {
  all: ['on-site'] as const,
  present: ['on-site', 'present'] as const,
  expected: ['on-site', 'expected'] as const,
};

export const getOnSite = (params: OnSiteParams) =>
  api.get<OnSitePage>(`/on-site${toQuery({ ...params })}`);

export const getExpected = (params: OnSiteParams) =>
  api.get<ExpectedPage>(`/on-site/expected${toQuery({ ...params })}`);

export const onSiteQueryOptions = (params: OnSiteParams) =>
  queryOptions({ queryKey: [...onSiteKeys.present, params], queryFn: () => getOnSite(params) });

export const expectedQueryOptions = (params: OnSiteParams) =>
  queryOptions({ queryKey: [...onSiteKeys.expected, params], queryFn: () => getExpected(params) });

export function useCheckOut() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (checkId: string) => api.post<CheckResult>(`/on-site/${checkId}/check-out`),
    onSettled: () => client.invalidateQueries({ queryKey: onSiteKeys.all }),
  });
}
