/**
 * `/api/company/{id}/visitor-types` and `/api/company/{id}/documents` (issue 31): a site's
 * visitor types (created, edited, archived, restored) and the documents they ask to sign
 * (created, edited into a new version, archived; each version readable).
 */
import { useQuery } from '@tanstack/react-query';
import type { DocumentInput, SiteDocument, VisitorType, VisitorTypeInput } from '@sesame/shared';
import { api, toQuery } from '../../../lib/api-client';

export interface Answer<T> {
  message?: string;
  data: T;
}

/** One version of a document, as GET `…/documents/{docId}/versions/{version}` reads it. */
export interface DocumentVersion {
  version: number;
  title_fr: string;
  title_en: string;
  body_fr: string;
  body_en: string;
  created_at: string;
}

const company = (id: string) => `/company/${encodeURIComponent(id)}`;
const types = (id: string) => `${company(id)}/visitor-types`;
const documents = (id: string) => `${company(id)}/documents`;

export const visitorTypeKeys = {
  all: (id: string) => ['visitor-types', id.toLowerCase()] as const,
  list: (id: string, site: string, archived: boolean) =>
    ['visitor-types', id.toLowerCase(), site, { archived }] as const,
};

export const documentKeys = {
  all: (id: string) => ['site-documents', id.toLowerCase()] as const,
  list: (id: string, site: string) => ['site-documents', id.toLowerCase(), site] as const,
  version: (id: string, docId: string, version: number) =>
    ['site-documents', id.toLowerCase(), 'version', docId, version] as const,
};

export const fetchVisitorTypes = (id: string, site: string, archived = false) =>
  api
    .get<{ data: VisitorType[] }>(`${types(id)}${toQuery({ site, archived: archived ? '1' : '' })}`)
    .then((answer) => answer.data);

/** A site's types (archived ones too when asked). */
export function useVisitorTypes(id: string, site: string | undefined, archived = false) {
  return useQuery({
    queryKey: visitorTypeKeys.list(id, site ?? '', archived),
    queryFn: () => fetchVisitorTypes(id, site!, archived),
    enabled: !!id && !!site,
  });
}

export const createVisitorType = (id: string, body: VisitorTypeInput) =>
  api.post<Answer<VisitorType>>(types(id), body);

export const updateVisitorType = (id: string, typeId: string, body: VisitorTypeInput) =>
  api.put<Answer<VisitorType>>(`${types(id)}/${encodeURIComponent(typeId)}`, body);

export const archiveVisitorType = (id: string, typeId: string, restore: boolean) =>
  api.post<Answer<VisitorType>>(
    `${types(id)}/${encodeURIComponent(typeId)}/${restore ? 'restore' : 'archive'}`,
  );

export function useSiteDocuments(id: string, site: string | undefined) {
  return useQuery({
    queryKey: documentKeys.list(id, site ?? ''),
    queryFn: () =>
      api
        .get<{ data: SiteDocument[] }>(`${documents(id)}${toQuery({ site })}`)
        .then((answer) => answer.data),
    enabled: !!id && !!site,
  });
}

export function useDocumentVersion(id: string, docId: string, version: number | null) {
  return useQuery({
    queryKey: documentKeys.version(id, docId, version ?? 0),
    queryFn: () =>
      api
        .get<{
          data: DocumentVersion;
        }>(`${documents(id)}/${encodeURIComponent(docId)}/versions/${version}`)
        .then((answer) => answer.data),
    enabled: !!id && version !== null,
    staleTime: Infinity,
  });
}

export const createDocument = (id: string, body: DocumentInput) =>
  api.post<Answer<SiteDocument>>(documents(id), body);

export const updateDocument = (id: string, docId: string, body: DocumentInput) =>
  api.put<Answer<SiteDocument>>(`${documents(id)}/${encodeURIComponent(docId)}`, body);

export const archiveDocument = (id: string, docId: string) =>
  api.post<Answer<SiteDocument>>(`${documents(id)}/${encodeURIComponent(docId)}/archive`);
