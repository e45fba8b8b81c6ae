/**
 * Staff users: the fetchers, their query options and hooks (spec §7 user calls).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PasswordChange, Role, User } from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface ListParams {
  page: number;
  per_page: number;
  q?: string;
}

/** ROLE_ADMIN reads every company's users; others read the company of the page (spec §6). */
export function getUsers(params: ListParams, company: string | null) {
  const path = company ? `/user/list/${encodeURIComponent(company)}` : '/user/list';
  return api.get<Paginated<User>>(`${path}${toQuery({ ...params })}`);
}

export function userQueryOptions(id: string) {
  return queryOptions({
    queryKey: ['users', 'one', id],
    queryFn: () => api.get<{ data: User }>(`/user/${id}`).then((r) => r.data),
    retry: false,
  });
}

export function useUser(id: string) {
  return useQuery(userQueryOptions(id));
}

/** The body of POST /api/user/create and PUT /api/user/{id} (checked by the shared schemas). */
export interface UserBody {
  name: string;
  firstname: string;
  email: string;
  /** Blank on an update: the password stays as it is. */
  password: string;
  title: string;
  contact: string;
  role: Role;
  company_id: string;
  status: boolean;
  department_id: number | null;
  /**
   * Issue 28, sent only for a company of several sites: the home site (null: none) and
   * the sites the user is limited to (empty: every site of the company).
   */
  home_site_id?: string | null;
  site_ids?: string[];
}

export interface UserSaved {
  message: string;
  data: User;
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserBody) => api.post<UserSaved>('/user/create', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['users'] }),
  });
}

export function useUpdateUser(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UserBody) => api.put<UserSaved>(`/user/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['users'] }),
  });
}

export function deleteUser(id: string) {
  return api.delete<{ message: string }>(`/user/${id}`);
}

/** Mon compte: the signed-in person's own new password (PUT /api/me/password). */
export function useChangePassword() {
  return useMutation({
    mutationFn: (body: PasswordChange) => api.put<{ message: string }>('/me/password', body),
  });
}
