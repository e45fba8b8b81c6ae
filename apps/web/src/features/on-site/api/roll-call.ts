/**
 * The evacuation roll call (issue 14): the latest of a company, start, mark, end. With a
 * site (issue 28): the latest covering that site, and a roll call started for that site
 * only; without one, a roll call of every site of the company.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RollCall, RollCallMarkAnswer, RollCallStatus } from '@sesame/shared';
import { api, toQuery } from '../../../lib/api-client';

export const rollCallKeys = {
  all: ['roll-call'] as const,
  latest: (company: string | undefined, site?: string) =>
    ['roll-call', 'latest', company ?? '', site ?? ''] as const,
};

export const latestRollCallOptions = (company: string | undefined, site?: string) =>
  queryOptions({
    queryKey: rollCallKeys.latest(company, site),
    queryFn: async () =>
      (await api.get<{ data: RollCall | null }>(`/roll-calls/latest${toQuery({ company, site })}`))
        .data,
  });

export function useStartRollCall(company: string | undefined, site?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (
        await api.post<{ data: RollCall }>('/roll-calls', {
          ...(company ? { company } : {}),
          ...(site ? { site } : {}),
        })
      ).data,
    onSuccess: (rollCall) => client.setQueryData(rollCallKeys.latest(company, site), rollCall),
    onSettled: () => client.invalidateQueries({ queryKey: rollCallKeys.all }),
  });
}

export interface MarkInput {
  rollCall: string;
  person: string;
  status: RollCallStatus;
}

/** One tap: the person's new mark and the counts as the database counted them. */
export function useMarkPerson(company: string | undefined, site?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ rollCall, person, status }: MarkInput) =>
      api.put<RollCallMarkAnswer>(`/roll-calls/${rollCall}/people/${person}`, { status }),
    onSuccess: (answer, input) =>
      client.setQueryData<RollCall | null>(rollCallKeys.latest(company, site), (current) =>
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

export function useEndRollCall(company: string | undefined, site?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (rollCall: string) =>
      (await api.post<{ data: RollCall }>(`/roll-calls/${rollCall}/end`)).data,
    onSuccess: (rollCall) => client.setQueryData(rollCallKeys.latest(company, site), rollCall),
    onSettled: () => client.invalidateQueries({ queryKey: rollCallKeys.all }),
  });
}
