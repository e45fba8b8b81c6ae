/**
 * The SSO screen's plain logic (issue 33): the stored settings as the form's values and
 * back to `ssoSettingsInputSchema`'s input, and the SCIM tokens' order. No React here
 * (test/sso.test.ts).
 */
import type {
  ScimToken,
  SsoMappableRole,
  SsoRoleMapping,
  SsoSettingsInput,
  SsoSettingsView,
} from '@sesame/shared';
import { ApiError } from '../../../lib/api-client';

/** One group → role line of the form; `key` keeps React's rows apart while they are edited. */
export interface MappingRow extends SsoRoleMapping {
  key: string;
}

export interface SsoValues {
  enabled: boolean;
  issuer_url: string;
  client_id: string;
  /** Blank keeps the stored secret (the screen never shows it back). */
  client_secret: string;
  domains: string[];
  groups_claim: string;
  role_mappings: MappingRow[];
  default_role: SsoMappableRole;
  allow_jit: boolean;
  enforced: boolean;
}

let rows = 0;
/** A new line's key, unique on this page. */
export const rowKey = () => `mapping-${++rows}`;

export function ssoValues(view: SsoSettingsView): SsoValues {
  return {
    enabled: view.enabled,
    issuer_url: view.issuer_url,
    client_id: view.client_id,
    client_secret: '',
    domains: [...view.domains],
    groups_claim: view.groups_claim || 'groups',
    role_mappings: view.role_mappings.map((mapping) => ({ ...mapping, key: rowKey() })),
    default_role: view.default_role,
    allow_jit: view.allow_jit,
    enforced: view.enforced,
  };
}

/** The PUT body: a blank secret is left out (the stored one stays). */
export function ssoInput(values: SsoValues): SsoSettingsInput {
  const secret = values.client_secret.trim();
  return {
    enabled: values.enabled,
    issuer_url: values.issuer_url,
    client_id: values.client_id,
    ...(secret ? { client_secret: values.client_secret } : {}),
    domains: values.domains,
    groups_claim: values.groups_claim,
    role_mappings: values.role_mappings.map(({ group, role }) => ({ group, role })),
    default_role: values.default_role,
    allow_jit: values.allow_jit,
    enforced: values.enforced,
  };
}

/** Active tokens first (the newest on top), then the revoked ones. */
export function sortTokens(tokens: readonly ScimToken[]): ScimToken[] {
  return [...tokens].sort((a, b) => {
    if (!a.revoked_at !== !b.revoked_at) return a.revoked_at ? 1 : -1;
    return b.created_at.localeCompare(a.created_at);
  });
}

/**
 * The server's refusal as the form shows it: each field's message under that field (a line
 * of the mappings, `role_mappings.2.group`, under the mappings), and a domain another
 * company covers (409) under the domains.
 */
export function serverFieldErrors(error: unknown): Record<string, string> | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.errors && Object.keys(error.errors).length > 0) {
    const fields: Record<string, string> = {};
    for (const [path, message] of Object.entries(error.errors)) {
      const field = path.split(/[.[]/)[0] || 'body';
      fields[field] ??= message;
    }
    return fields;
  }
  if (error.status === 409 && error.serverMessage) return { domains: error.serverMessage };
  return undefined;
}
