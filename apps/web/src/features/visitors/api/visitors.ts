/**
 * The visitor journey's calls (spec §7): create the visitor (multipart), then the
 * request; the waiting screen's status; Valider; the meeting QR card by code.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PublicSite,
  PublicVisitorType,
  RequestStatus,
  VisitorCard,
  VisitorCreated,
} from '@sesame/shared';
import { api } from '../../../lib/api-client';

/** How often the waiting screen asks whether the host decided (short polling). */
export const STATUS_POLL_MS = 3000;

export function createVisitor(formData: FormData) {
  return api.post<VisitorCreated>('/visitor/create', formData);
}

export function createRequest(body: {
  visitor_id: string;
  host: string;
  reason: string;
  /** The host chosen in the company's staff search (issue 15). */
  host_user_id?: string | null;
}) {
  return api.post<{ message: string; data: { id: string } }>('/requests/create', body);
}

export const requestStatusQueryOptions = (id: string) =>
  queryOptions({
    queryKey: ['requests', 'status', id],
    queryFn: () => api.get<{ data: RequestStatus }>(`/requests/status/${id}`).then((r) => r.data),
    // Poll until the host confirmed; then the card does not change any more.
    refetchInterval: (query) =>
      query.state.data && query.state.data.state !== 'pending' ? false : STATUS_POLL_MS,
    refetchIntervalInBackground: true,
    retry: 1,
  });

export function useRequestStatus(id: string) {
  return useQuery(requestStatusQueryOptions(id));
}

export function useConfirmRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.put<{ message: string; data: VisitorCard }>(`/requests/update/${id}`, {
        status: 1,
        confirmed: 1,
      }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['requests'] });
    },
  });
}

/** Annuler: declines the request; the visitor is told by mail, with the reason when given. */
export function useDeclineRequest(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      api.put<{ message: string }>(`/requests/decline/${id}`, reason ? { reason } : {}),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['requests'] });
    },
  });
}

/** The company's active sites, as the visitor form lists them (issue 28; public). */
export function usePublicSites(slug: string | undefined) {
  return useQuery({
    queryKey: ['public-sites', slug?.toLowerCase()],
    queryFn: () =>
      api
        .get<{ data: PublicSite[] }>(`/public/sites/${encodeURIComponent(slug!)}`)
        .then((r) => r.data),
    enabled: !!slug,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * A site's visitor types as the public form offers them (issue 31; public): the company's
 * only site when none is named. Not answered (an older server, a company with several sites
 * and none chosen yet): no types, and the form asks every field.
 */
export function usePublicVisitorTypes(slug: string | undefined, siteId: string | undefined) {
  return useQuery({
    queryKey: ['public-visitor-types', slug?.toLowerCase(), siteId ?? ''],
    queryFn: () =>
      api
        .get<{ data: PublicVisitorType[] }>(
          `/public/visitor-types?company=${encodeURIComponent(slug!)}` +
            (siteId ? `&site=${encodeURIComponent(siteId)}` : ''),
        )
        .then((r) => r.data),
    enabled: !!slug,
    staleTime: 60_000,
    retry: false,
    // Another site chosen: the form stays as it is while that site's types come.
    placeholderData: (previous) => previous,
  });
}

export function useVisitorCard(uidn: string) {
  return useQuery({
    queryKey: ['visitor-card', uidn],
    queryFn: () =>
      api
        .get<{ data: VisitorCard }>(`/visitor/card/${encodeURIComponent(uidn)}`)
        .then((r) => r.data),
    retry: false,
  });
}
