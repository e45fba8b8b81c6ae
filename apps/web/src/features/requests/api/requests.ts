/**
 * The request list's calls (spec §7): GET /requests/list (admin: every company),
 * GET /requests/list/{company} (others: their own; `?event=` for an event's
 * participants), DELETE /visitor/delete/{id} (admin).
 */
import type { RequestRow } from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface RequestListScope {
  /** Company slug; undefined lists every company the caller may see (admin). */
  company?: string;
  /** Event slug or id: that event's participants. */
  event?: string;
}

export function fetchRequests(
  scope: RequestListScope,
  params: { page: number; per_page: number; q?: string },
): Promise<Paginated<RequestRow>> {
  const path = scope.company
    ? `/requests/list/${encodeURIComponent(scope.company)}`
    : '/requests/list';
  return api.get<Paginated<RequestRow>>(`${path}${toQuery({ ...params, event: scope.event })}`);
}

export function deleteVisitor(visitorId: string) {
  return api.delete<{ message: string }>(`/visitor/delete/${visitorId}`);
}
