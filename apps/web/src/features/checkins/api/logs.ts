/**
 * The presence logs' calls (spec §7 visitorlog, visitorLog/{company}, userCheckInList,
 * plus the flat user log and the visitor log's CSV export).
 */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { UserCheckRow, UserLogRow, VisitorLogRow } from '@sesame/shared';
import { api, toQuery } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

/** A page of a log: `total_capped` says there are more rows than `total` counted. */
export interface LogPage<T> {
  data: T[];
  meta: { page: number; per_page: number; total: number; total_capped: boolean };
}

/** What narrows a log: the search text, the check-in range (ISO instants), the site. */
export interface LogFilters {
  q?: string;
  from?: string;
  to?: string;
  /** One site's checks (issue 28: the header's site); absent: every site one may see. */
  site?: string;
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
export function downloadVisitorLogCsv(scope: VisitorLogScope, filters: LogFilters): Promise<void> {
  const query = toQuery({ ...filters, company: scope.company });
  return downloadFile(`/visitorlog/export${query}`, FALLBACK_CSV_NAME);
}
