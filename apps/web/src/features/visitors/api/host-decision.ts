/**
 * The host's decision link (issue 15): the request as the host's mail names it, and
 * the host's answer. The token stays in the query string and the body, which the
 * server never logs.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DecisionInput, DecisionView } from '@sesame/shared';
import { api } from '../../../lib/api-client';

const key = (token: string) => ['host-decision', token] as const;

export function useDecision(token: string) {
  return useQuery({
    queryKey: key(token),
    queryFn: () =>
      api
        .get<{ data: DecisionView }>(`/requests/decision?token=${encodeURIComponent(token)}`)
        .then((r) => r.data),
    retry: false,
    enabled: token.length > 0,
  });
}

export function useDecide(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Omit<DecisionInput, 'token'>) =>
      api.post<{ message?: string; data: DecisionView }>('/requests/decision', { token, ...input }),
    onSuccess: (result) => queryClient.setQueryData(key(token), result.data),
    // 409: someone decided first; the page shows their decision.
    onError: () => queryClient.invalidateQueries({ queryKey: key(token) }),
  });
}
