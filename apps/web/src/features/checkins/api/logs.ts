/**
 * The presence logs' calls (spec §7 visitorlog, visitorLog/{company}, userCheckInList,
 * plus the flat user log and the visitor log's CSV export).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UserCheckRow, UserLogRow, VisitorLogRow } from '@sesame/shared';
import { ApiError, api, toQuery } from '../../../lib/api-client';
import { getToken } from '../../../lib/session';

/** A page of a log: `total_capped` says there are more rows than `total` counted. */
export interface LogPage<T> {
  data: T[];
  meta: { page: number; per_page: number; total: number; total_capped: boolean };
}

/** What narrows a log: the search text and the check-in range (ISO instants). */
export interface LogFilters {
  q?: string;
  from?: string;
  to?: string;
}

export interface LogParams extends LogFilters {
  page: number;
  per_page: number;
}

/**
 * Spec §6 visitor log: ROLE_ADMIN reads every company's log, the others their own
 * company's (`company`, a slug).
 */
export interface VisitorLogScope {
  company?: string;
}

export function getVisitorLog(scope: VisitorLogScope, params: LogParams) {
  const path = scope.company ? `/visitorLog/${encodeURIComponent(scope.company)}` : '/visitorlog';
  return api.get<LogPage<VisitorLogRow>>(`${path}${toQuery({ ...params })}`);
}

export const visitorLogQueryOptions = (scope: VisitorLogScope, params: LogParams) =>
  queryOptions({
    queryKey: ['checkins', 'visitorLog', scope, params],
    queryFn: () => getVisitorLog(scope, params),
    placeholderData: keepPreviousData,
  });

export function useVisitorLog(scope: VisitorLogScope, params: LogParams) {
  return useQuery(visitorLogQueryOptions(scope, params));
}

/** QR users' and members' checks, one row per check (/user-check-in-out). */
export function getUserLog(params: LogParams) {
  return api.get<LogPage<UserLogRow>>(`/userLog${toQuery({ ...params })}`);
}

export const userLogQueryOptions = (params: LogParams) =>
  queryOptions({
    queryKey: ['checkins', 'userLog', params],
    queryFn: () => getUserLog(params),
    placeholderData: keepPreviousData,
  });

export function useUserLog(params: LogParams) {
  return useQuery(userLogQueryOptions(params));
}

/** 'Liste Check in / Check out Participants': QR users with their checks inside the range. */
export function getUserAttendance(params: LogParams) {
  return api.get<LogPage<UserCheckRow>>(`/userCheckInList${toQuery({ ...params })}`);
}

export const userAttendanceQueryOptions = (params: LogParams) =>
  queryOptions({
    queryKey: ['checkins', 'userAttendance', params],
    queryFn: () => getUserAttendance(params),
    placeholderData: keepPreviousData,
  });

export function useUserAttendance(params: LogParams) {
  return useQuery(userAttendanceQueryOptions(params));
}

const FALLBACK_CSV_NAME = 'liste-check-in.csv';

/**
 * Downloads the visitor log of the filtered range as the server wrote it (UTF-8
 * with BOM, semicolons). The call needs the bearer token, so it is fetched as a
 * blob and handed to the browser as a download, under the server's file name.
 */
export async function downloadVisitorLogCsv(
  scope: VisitorLogScope,
  filters: LogFilters,
): Promise<void> {
  const headers: Record<string, string> = { accept: 'text/csv' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const query = toQuery({ ...filters, company: scope.company });
  let response: Response;
  try {
    response = await fetch(`/api/visitorlog/export${query}`, {
      headers,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, undefined);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: unknown };
    const message = typeof body.message === 'string' ? body.message : undefined;
    throw new ApiError(response.status, message);
  }
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? FALLBACK_CSV_NAME;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the blob once the click is handled; free it a little later.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
