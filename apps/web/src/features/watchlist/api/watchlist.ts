/**
 * `/api/company/{id}/watchlist` (issue 31): the company's watchlist (listed, added to,
 * edited, removed from), its name threshold, and the visits it held for review.
 */
import { useQuery } from '@tanstack/react-query';
import type {
  HoldDecision,
  HoldStatus,
  WatchlistEntry,
  WatchlistEntryInput,
  WatchlistHold,
  WatchlistSettings,
} from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface Answer<T> {
  message?: string;
  data: T;
}

const base = (id: string) => `/company/${encodeURIComponent(id)}/watchlist`;
const entry = (id: string, entryId: string) => `${base(id)}/${encodeURIComponent(entryId)}`;

export const watchlistKeys = {
  entries: (id: string) => ['watchlist', id.toLowerCase(), 'entries'] as const,
  settings: (id: string) => ['watchlist', id.toLowerCase(), 'settings'] as const,
  holds: (id: string) => ['watchlist', id.toLowerCase(), 'holds'] as const,
  holdList: (id: string, params: { status: HoldStatus; site?: string }) =>
    ['watchlist', id.toLowerCase(), 'holds', params] as const,
};

/** A page of the list, searched by name, e-mail, phone, ID number or reason. */
export const fetchWatchlist = (
  id: string,
  params: { page: number; per_page: number; q?: string },
) => api.get<Paginated<WatchlistEntry>>(`${base(id)}${toQuery(params)}`);

export const addEntry = (id: string, body: WatchlistEntryInput) =>
  api.post<Answer<WatchlistEntry>>(base(id), body);

export const updateEntry = (id: string, entryId: string, body: WatchlistEntryInput) =>
  api.put<Answer<WatchlistEntry>>(entry(id, entryId), body);

export const removeEntry = (id: string, entryId: string) =>
  api.delete<{ message?: string }>(entry(id, entryId));

export function useWatchlistSettings(id: string) {
  return useQuery({
    queryKey: watchlistKeys.settings(id),
    queryFn: () =>
      api.get<{ data: WatchlistSettings }>(`${base(id)}/settings`).then((answer) => answer.data),
    enabled: !!id,
  });
}

export const saveWatchlistSettings = (id: string, body: WatchlistSettings) =>
  api.put<Answer<WatchlistSettings>>(`${base(id)}/settings`, body);

export function useHolds(id: string, params: { status: HoldStatus; site?: string }) {
  return useQuery({
    queryKey: watchlistKeys.holdList(id, params),
    queryFn: () =>
      api
        .get<{
          data: WatchlistHold[];
        }>(`${base(id)}/holds${toQuery({ status: params.status, site: params.site })}`)
        .then((answer) => answer.data),
    enabled: !!id,
  });
}

export const decideHold = (id: string, holdId: string, body: HoldDecision) =>
  api.post<Answer<WatchlistHold>>(`${base(id)}/holds/${encodeURIComponent(holdId)}/decision`, body);
