/**
 * The request list's calls (spec §7): GET /requests/list (admin: every company),
 * GET /requests/list/{company} (others: their own), DELETE /visitor/delete/{id} (admin).
 * An event's participants are read by the events feature (its event page).
 */
import type { RequestRow } from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface RequestListScope {
  /** Company slug; undefined lists every company the caller may see (admin). */
  company?: string;
  /** One site's requests (issue 28: the header's site); undefined, every site one may see. */
  site?: string;
}

export function fetchRequests(
  scope: RequestListScope,
  params: { page: number; per_page: number; q?: string },
): Promise<Paginated<RequestRow>> {
  const path = scope.company
    ? `/requests/list/${encodeURIComponent(scope.company)}`
    : '/requests/list';
  return api.get<Paginated<RequestRow>>(`${path}${toQuery({ ...params, site: scope.site })}`);
}

export function deleteVisitor(visitorId: string) {
  return api.delete<{ message: string }>(`/visitor/delete/${visitorId}`);
}
