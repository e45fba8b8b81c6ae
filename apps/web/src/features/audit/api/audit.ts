/** The audit log (issue 16): a page of entries, the actors to filter by, the CSV. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AuditAction, AuditListEntry, AuditOrigin } from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

export interface AuditFilters {
  q?: string;
  actor?: string;
  action?: AuditAction;
  /** `platform`: what the Sésame platform's staff did; `company`: the rest. */
  by?: AuditOrigin;
  from?: string;
  to?: string;
}

export function useAuditLog(filters: AuditFilters, page: number, perPage: number) {
  return useQuery({
    queryKey: ['audit', filters, page, perPage],
    queryFn: () =>
      api.get<Paginated<AuditListEntry>>(
        `/audit${toQuery({ ...filters, page, per_page: perPage })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useAuditActors() {
  return useQuery({
    queryKey: ['audit', 'actors'],
    queryFn: () =>
      api.get<{ data: { id: string; name: string }[] }>('/audit/actors').then((r) => r.data),
  });
}

export const downloadAuditCsv = (filters: AuditFilters) =>
  downloadFile(`/audit/export${toQuery({ ...filters })}`, 'journal-audit.csv');
