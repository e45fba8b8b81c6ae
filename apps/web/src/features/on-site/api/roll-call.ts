/** The evacuation roll call (issue 14): the latest of a company, start, mark, end. */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RollCall, RollCallMarkAnswer, RollCallStatus } from '@sesame/shared';
import { api, toQuery } from '../../../lib/api-client';

export const rollCallKeys = {
  all: ['roll-call'] as const,
  latest: (company: string | undefined) => ['roll-call', 'latest', company ?? ''] as const,
};

export const latestRollCallOptions = (company: string | undefined) =>
  queryOptions({
    queryKey: rollCallKeys.latest(company),
    queryFn: async () =>
      (await api.get<{ data: RollCall | null }>(`/roll-calls/latest${toQuery({ company })}`)).data,
  });

export function useStartRollCall(company: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api.post<{ data: RollCall }>('/roll-calls', company ? { company } : {})).data,
    onSuccess: (rollCall) => client.setQueryData(rollCallKeys.latest(company), rollCall),
    onSettled: () => client.invalidateQueries({ queryKey: rollCallKeys.all }),
  });
}

export interface MarkInput {
  rollCall: string;
  person: string;
  status: RollCallStatus;
}

/** One tap: the person's new mark and the counts as the database counted them. */
export function useMarkPerson(company: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rollCall, person, status }: MarkInput) =>
      api.put<RollCallMarkAnswer>(`/roll-calls/${rollCall}/people/${person}`, { status }),
    onSuccess: (answer, input) =>
      client.setQueryData<RollCall | null>(rollCallKeys.latest(company), (current) =>
        current && current.id === input.rollCall
          ? {
              ...current,
              counts: answer.counts,
              people: current.people.map((p) => (p.id === answer.data.id ? answer.data : p)),
            }
          : current,
      ),
  });
}

export function useEndRollCall(company: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (rollCall: string) =>
      (await api.post<{ data: RollCall }>(`/roll-calls/${rollCall}/end`)).data,
    onSuccess: (rollCall) => client.setQueryData(rollCallKeys.latest(company), rollCall),
    onSettled: () => client.invalidateQueries({ queryKey: rollCallKeys.all }),
  });
}
