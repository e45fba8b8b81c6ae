/**
 * `/api/company/{id}/api-keys` (issue 34): the keys the company's other systems (its HR
 * tool, its access control) call the API with. A key is answered in clear once, at its
 * creation; the list shows its first characters only.
 */
import { useQuery } from '@tanstack/react-query';
import type { ApiKey, ApiKeyCreated, ApiKeyInput } from '@sesame/shared';
import { api } from '../../../lib/api-client';
import { companyPath, recordPath, type Said } from './company-path';

export const apiKeyKeys = {
  list: (company: string) => ['api-keys', company.toLowerCase()] as const,
};

export function useApiKeys(company: string) {
  return useQuery({
    queryKey: apiKeyKeys.list(company),
    queryFn: () =>
      api.get<{ data: ApiKey[] }>(`${companyPath(company)}/api-keys`).then((r) => r.data),
    enabled: !!company,
  });
}

export const createApiKey = (company: string, body: ApiKeyInput) =>
  api.post<Said & { data: ApiKeyCreated }>(`${companyPath(company)}/api-keys`, body);

export const revokeApiKey = (company: string, keyId: string) =>
  api.delete<Said | undefined>(recordPath(company, 'api-keys', keyId));
