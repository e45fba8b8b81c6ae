/**
 * The QR users feature's calls (spec §7: create-qr, qruser, qruser-list,
 * create-member, company members) and the re-issue of a lost card.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberListItem, QrUserCard } from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface PageParams {
  page: number;
  per_page: number;
  q?: string;
}

export interface CardAnswer {
  message?: string;
  data: QrUserCard;
}

export interface ListCompany {
  id: string;
  name: string;
  slug: string;
  logo_url: string | null;
}

export type MembersPage = Paginated<MemberListItem> & { company: ListCompany };

export const qrUserKeys = {
  all: ['qr-users'] as const,
  list: () => [...qrUserKeys.all, 'list'] as const,
  one: (id: string) => [...qrUserKeys.all, 'one', id] as const,
  members: (slug: string) => [...qrUserKeys.all, 'members', slug.toLowerCase()] as const,
};

export function createQrUser(form: FormData) {
  return api.post<CardAnswer>('/create-qr', form);
}

export function createMember(form: FormData) {
  return api.post<CardAnswer>('/create-member', form);
}

export function getQrUsers(params: PageParams) {
  return api.get<Paginated<QrUserCard>>(`/qruser-list${toQuery({ ...params })}`);
}

export function getCompanyMembers(slug: string, params: PageParams) {
  return api.get<MembersPage>(
    `/company/${encodeURIComponent(slug)}/members${toQuery({ ...params })}`,
  );
}

export const qrUserQueryOptions = (id: string) =>
  queryOptions({
    queryKey: qrUserKeys.one(id),
    queryFn: () => api.get<CardAnswer>(`/qruser/${encodeURIComponent(id)}`).then((r) => r.data),
    enabled: !!id,
    retry: false,
  });

export function useQrUser(id: string, initial?: QrUserCard) {
  return useQuery({
    ...qrUserQueryOptions(id),
    // Details opened from the list show at once, then refresh (signed URLs expire).
    initialData: initial && initial.id === id ? initial : undefined,
    initialDataUpdatedAt: 0,
  });
}

function useInvalidateQrUsers() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: qrUserKeys.all });
}

export function useCreateQrUser() {
  const invalidate = useInvalidateQrUsers();
  return useMutation({ mutationFn: createQrUser, onSuccess: invalidate });
}

export function useCreateMember() {
  const invalidate = useInvalidateQrUsers();
  return useMutation({ mutationFn: createMember, onSuccess: invalidate });
}

export function useUpdateExpiry(id: string) {
  const invalidate = useInvalidateQrUsers();
  return useMutation({
    mutationFn: (dateExp: string) =>
      api.put<CardAnswer>(`/qruser/${encodeURIComponent(id)}`, { dateExp }),
    onSuccess: invalidate,
    // Spec §4: the expiry screen shows its 401 message, then leaves after the delay.
    meta: { handlesUnauthorized: true },
  });
}

export function useReissue() {
  const invalidate = useInvalidateQrUsers();
  return useMutation({
    mutationFn: (id: string) => api.post<CardAnswer>(`/qruser/${encodeURIComponent(id)}/reissue`),
    onSuccess: invalidate,
  });
}
