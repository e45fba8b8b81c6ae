/**
 * The wire shape of a company's single sign-on settings (issue 33): never the client
 * secret, only whether one is stored that opens; with the two addresses the company's
 * IT department registers at its provider (the redirect URI, the SCIM base URL).
 */
import type { SsoMappableRole, SsoRoleMapping, SsoSettingsView } from '@sesame/shared';
import type { companySso } from '../db/schema';

export type SsoRow = typeof companySso.$inferSelect;

/** The redirect URI the provider sends the browser back to. */
export const ssoRedirectUri = (publicUrl: string) => `${publicUrl}/api/sso/callback`;
/** Where the provider's SCIM client calls. */
export const scimBaseUrl = (publicUrl: string) => `${publicUrl}/scim/v2`;

/**
 * The settings of `row` (null: never saved, the defaults) and its `domains`.
 * `hasClientSecret` says whether a stored secret opens under the server's key.
 */
export function presentSsoSettings(
  row: SsoRow | null,
  domains: readonly string[],
  { publicUrl, hasClientSecret }: { publicUrl: string; hasClientSecret: boolean },
): SsoSettingsView {
  return {
    enabled: row?.enabled ?? false,
    issuer_url: row?.issuerUrl ?? '',
    client_id: row?.clientId ?? '',
    has_client_secret: hasClientSecret,
    domains: [...domains],
    groups_claim: row?.groupsClaim ?? 'groups',
    // Columns written only from the SSO settings schema: role mappings (jsonb) and default role.
    role_mappings: (row?.roleMappings ?? []) as SsoRoleMapping[],
    default_role: (row?.defaultRole ?? 'ROLE_USER') as SsoMappableRole,
    allow_jit: row?.allowJit ?? false,
    enforced: row?.enforced ?? false,
    redirect_uri: ssoRedirectUri(publicUrl),
    scim_base_url: scimBaseUrl(publicUrl),
    updated_at: row?.updatedAt ? row.updatedAt.toISOString() : null,
  };
}
