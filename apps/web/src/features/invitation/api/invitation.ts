/**
 * The invited visitor's link (issue 30): their visit, their details, "Je suis arrivé(e)".
 * The token stays in the query string, which the server never logs.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InvitationLinkView } from '@sesame/shared';
import { api } from '../../../lib/api-client';

const key = (token: string, language: string) => ['invitation-link', token, language] as const;
const query = (token: string) => `?token=${encodeURIComponent(token)}`;

/** The visit; `language` is in the key: the server names the site's country in it. */
export function useInvitation(token: string, language: string) {
  return useQuery({
    queryKey: key(token, language),
    queryFn: () =>
      api
        .get<{ data: InvitationLinkView }>(`/public/invitation${query(token)}`)
        .then((r) => r.data),
    retry: false,
    enabled: token.length > 0,
    // The page switches to the invitation's language once it has loaded: the visit stays on
    // screen while it is read again in that language, so a form the visitor has begun is kept
    // (without it the details form unmounted and came back empty).
    placeholderData: keepPreviousData,
  });
}

export function useCompleteDetails(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FormData) =>
      api.post<{ message: string }>(`/public/invitation/details${query(token)}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['invitation-link', token] }),
  });
}

export function useArrived(token: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ message: string }>(`/public/invitation/here${query(token)}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['invitation-link', token] }),
  });
}
