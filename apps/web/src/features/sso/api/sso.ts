/**
 * `/api/company/{id}/sso` and `/api/company/{id}/scim-tokens` (issue 33): a company's
 * identity provider settings, the discovery test, and the SCIM tokens its provider uses.
 * `{id}` is the company's slug, as in the page's address.
 */
import { useQuery } from '@tanstack/react-query';
import type { ScimToken, SsoSettingsInput, SsoSettingsView, SsoTestResult } from '@sesame/shared';
import { api } from '../../../lib/api-client';

const company = (slug: string) => `/company/${encodeURIComponent(slug)}`;

export const ssoKeys = {
  settings: (slug: string) => ['sso', slug.toLowerCase()] as const,
  tokens: (slug: string) => ['scim-tokens', slug.toLowerCase()] as const,
};

/** A list may come bare or as `{ data }`, a record as itself or as `{ message, data }`. */
const dataOf = <T>(answer: T | { data: T }): T =>
  answer && typeof answer === 'object' && 'data' in answer ? answer.data : answer;

export interface SsoSaved {
  message?: string;
  data: SsoSettingsView;
}

export function useSsoSettings(slug: string) {
  return useQuery({
    queryKey: ssoKeys.settings(slug),
    queryFn: () =>
      api.get<SsoSettingsView | { data: SsoSettingsView }>(`${company(slug)}/sso`).then(dataOf),
    enabled: !!slug,
  });
}

export const saveSsoSettings = (slug: string, body: SsoSettingsInput) =>
  api
    .put<SsoSettingsView | SsoSaved>(`${company(slug)}/sso`, body)
    .then((answer) =>
      'data' in answer
        ? { message: answer.message, data: answer.data }
        : { message: undefined, data: answer },
    );

export const testSso = (slug: string, issuer_url: string) =>
  api
    .post<SsoTestResult | { data: SsoTestResult }>(`${company(slug)}/sso/test`, { issuer_url })
    .then(dataOf);

export function useScimTokens(slug: string) {
  return useQuery({
    queryKey: ssoKeys.tokens(slug),
    queryFn: () =>
      api.get<ScimToken[] | { data: ScimToken[] }>(`${company(slug)}/scim-tokens`).then(dataOf),
    enabled: !!slug,
  });
}

/** The creation's answer: the token in clear, this once. */
export interface ScimTokenCreated extends ScimToken {
  token: string;
}

export const createScimToken = (slug: string, name: string) =>
  api
    .post<(ScimTokenCreated & { message?: string }) | { message?: string; data: ScimTokenCreated }>(
      `${company(slug)}/scim-tokens`,
      { name },
    )
    .then((answer) =>
      'data' in answer
        ? { message: answer.message, data: answer.data }
        : { message: answer.message, data: answer },
    );

export const revokeScimToken = (slug: string, tokenId: string) =>
  api.delete<{ message?: string } | undefined>(
    `${company(slug)}/scim-tokens/${encodeURIComponent(tokenId)}`,
  );
