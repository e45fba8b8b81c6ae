/**
 * A visitor's badge for the front desk (issue 29): `GET /api/badges/{requestId}` (its HTML
 * page), `POST …/print` (sent to the site's IPP printer, or recorded as printed by the
 * browser), `GET …/prints` (its prints so far: a second one is a reprint). The request list
 * and the on-site list both print from here (components/BadgeButton.tsx).
 */
import { useQuery } from '@tanstack/react-query';
import type { BadgePrint } from '@sesame/shared';
import { api } from './api-client';

export type BadgeVia = 'ipp' | 'browser';

export interface BadgePrintAnswer {
  message?: string;
  data: BadgePrint;
}

const badge = (requestId: string) => `/badges/${encodeURIComponent(requestId)}`;

export const badgePrintsKey = (requestId: string) => ['badge-prints', requestId] as const;

/** The badge as the HTML page the browser prints (`@page` at the site's label size). */
export const fetchBadgeHtml = (requestId: string) =>
  api.get<string>(badge(requestId), { accept: 'text/html' });

export const recordBadgePrint = (requestId: string, via: BadgeVia) =>
  api.post<BadgePrintAnswer>(`${badge(requestId)}/print`, { via });

export const fetchBadgePrints = (requestId: string) =>
  api.get<{ data: BadgePrint[] }>(`${badge(requestId)}/prints`).then((answer) => answer.data);

/** A request's prints, asked for once its badge menu opens. */
export function useBadgePrints(requestId: string, enabled: boolean) {
  return useQuery({
    queryKey: badgePrintsKey(requestId),
    queryFn: () => fetchBadgePrints(requestId),
    enabled,
    staleTime: 30_000,
  });
}

/** The latest of a request's prints (the list's order aside), or undefined. */
export function latestPrint(prints: readonly BadgePrint[] | undefined): BadgePrint | undefined {
  let latest: BadgePrint | undefined;
  for (const print of prints ?? []) if (!latest || print.at > latest.at) latest = print;
  return latest;
}
