/**
 * Single sign-on and provisioning (issue 33): a company's staff sign in with its identity
 * provider (OpenID Connect, authorization code with PKCE), and its IT department creates,
 * changes and removes their accounts by SCIM 2.0. The SSO screen, the login page and the
 * server read these schemas; the limits are named here once.
 */
import { z } from 'zod';
import type { Role } from '../roles';
import { EMAIL_PATTERN, TEXT_MAX, atMost, formText, keyed, sayIssue } from './common';

export const SSO_LIMITS = {
  /** E-mail domains one company's provider covers. */
  domainsMax: 20,
  /** Group → role lines of one company. */
  mappingsMax: 50,
  /** An issuer URL, a client id, a client secret, a claim name, a group name. */
  urlMax: 500,
  clientIdMax: 255,
  clientSecretMax: 1000,
  claimMax: 100,
  groupMax: 255,
  /** A sign-in begun at the provider must come back within this long. */
  signInTtlMs: 10 * 60_000,
  /** The one-time ticket the browser trades for its session, after the provider's answer. */
  ticketTtlMs: 60_000,
  /** How long discovery ("Tester la connexion", a sign-in) may take. */
  discoveryTimeoutMs: 5_000,
  /** SCIM tokens a company may hold unrevoked. */
  scimTokensMax: 10,
  scimTokenNameMax: 100,
  /** SCIM requests a minute per token (an IdP's full sync of a big company stays under it). */
  scimRequestsPerMinute: 600,
  /** The most resources one SCIM list answers (`count` above is lowered to it). */
  scimPageMax: 200,
} as const;

/**
 * The roles a provider's group may give: every company role. ROLE_ADMIN and ROLE_SESAME are
 * the platform's own staff and never come from a company's directory.
 */
export const SSO_MAPPABLE_ROLES = [
  'ROLE_USER',
  'ROLE_EMPLOYEE',
  'ROLE_SUPERVISOR',
  'ROLE_MANAGER',
  'ROLE_SUPER_ADMIN',
] as const satisfies readonly Exclude<Role, 'ROLE_ADMIN' | 'ROLE_SESAME'>[];
export type SsoMappableRole = (typeof SSO_MAPPABLE_ROLES)[number];

/** SCIM tokens start with this, so a log or a leak says what the secret is for. */
export const SCIM_TOKEN_PREFIX = 'scim_';

const ssoIssue = (
  key:
    | 'issuerInvalid'
    | 'clientIdRequired'
    | 'domainInvalid'
    | 'domainRepeated'
    | 'domainsRequired'
    | 'claimInvalid'
    | 'groupRequired'
    | 'groupRepeated',
  field: string,
) => keyed((m) => m.sso[key], { key, field });

/** Whether `text` is an issuer URL Sésame will fetch: https, or http on this machine only. */
export function isIssuerUrl(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:') return true;
  // A provider on the same machine (a test, a Keycloak beside Sésame) may speak plain http.
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** An e-mail domain as typed (a leading '@' dropped), lowercased: `example.com`. */
const DOMAIN_PATTERN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
export const emailDomainOf = (email: string) =>
  email.slice(email.lastIndexOf('@') + 1).toLowerCase();

const domainSchema = formText(253)
  .transform((d) => d.replace(/^@/, '').toLowerCase())
  .refine((d) => DOMAIN_PATTERN.test(d), { ...ssoIssue('domainInvalid', 'domains') });

export const ssoRoleMappingSchema = z.object({
  group: formText(SSO_LIMITS.groupMax).refine((g) => g.length > 0, {
    ...ssoIssue('groupRequired', 'role_mappings'),
  }),
  role: z.enum(SSO_MAPPABLE_ROLES),
});
export type SsoRoleMapping = z.infer<typeof ssoRoleMappingSchema>;

/**
 * PUT `/api/company/{id}/sso`. The client secret is write-only: absent or blank keeps the
 * one stored (the screen never shows it back), a new value replaces it.
 */
export const ssoSettingsInputSchema = z
  .object({
    enabled: z.boolean(),
    issuer_url: formText(SSO_LIMITS.urlMax).refine((u) => u === '' || isIssuerUrl(u), {
      ...ssoIssue('issuerInvalid', 'issuer_url'),
    }),
    client_id: formText(SSO_LIMITS.clientIdMax),
    client_secret: z
      .string()
      .max(...atMost(SSO_LIMITS.clientSecretMax))
      .trim()
      .optional(),
    domains: z.array(domainSchema).max(SSO_LIMITS.domainsMax),
    /** The ID token's claim that lists the person's groups (`groups` for most providers). */
    groups_claim: formText(SSO_LIMITS.claimMax).refine((c) => /^[A-Za-z0-9_:./-]+$/.test(c), {
      ...ssoIssue('claimInvalid', 'groups_claim'),
    }),
    role_mappings: z.array(ssoRoleMappingSchema).max(SSO_LIMITS.mappingsMax),
    /** The role of an account created at its first sign-in when none of its groups is mapped. */
    default_role: z.enum(SSO_MAPPABLE_ROLES),
    /** Accounts are created at their first sign-in (just in time). */
    allow_jit: z.boolean(),
    /** Passwords no longer sign this company's staff in (the platform's admins excepted). */
    enforced: z.boolean(),
  })
  .superRefine((settings, ctx) => {
    const fail = (path: string, say: Parameters<typeof sayIssue>[0], key: string) =>
      ctx.addIssue({ code: 'custom', path: [path], ...sayIssue(say, { key, field: path }) });
    if (settings.enabled) {
      if (settings.issuer_url === '')
        fail('issuer_url', (m) => m.sso.issuerInvalid, 'issuerInvalid');
      if (settings.client_id === '')
        fail('client_id', (m) => m.sso.clientIdRequired, 'clientIdRequired');
      if (settings.domains.length === 0)
        fail('domains', (m) => m.sso.domainsRequired, 'domainsRequired');
    }
    if (new Set(settings.domains).size !== settings.domains.length) {
      fail('domains', (m) => m.sso.domainRepeated, 'domainRepeated');
    }
    const groups = settings.role_mappings.map((r) => r.group.toLowerCase());
    if (new Set(groups).size !== groups.length) {
      fail('role_mappings', (m) => m.sso.groupRepeated, 'groupRepeated');
    }
  });
export type SsoSettingsInput = z.input<typeof ssoSettingsInputSchema>;
export type SsoSettings = z.output<typeof ssoSettingsInputSchema>;

/** GET `/api/company/{id}/sso`: the settings without the secret, and what to register. */
export const ssoSettingsSchema = z.object({
  enabled: z.boolean(),
  issuer_url: z.string(),
  client_id: z.string(),
  /** Whether a client secret is stored (it is never answered). */
  has_client_secret: z.boolean(),
  domains: z.array(z.string()),
  groups_claim: z.string(),
  // Plain text as stored: the input's mapping trims and checks (a transform), which an
  // answer cannot encode.
  role_mappings: z.array(z.object({ group: z.string(), role: z.enum(SSO_MAPPABLE_ROLES) })),
  default_role: z.enum(SSO_MAPPABLE_ROLES),
  allow_jit: z.boolean(),
  enforced: z.boolean(),
  /** The redirect URI to register at the provider. */
  redirect_uri: z.string(),
  /** The SCIM base URL to give the provider. */
  scim_base_url: z.string(),
  updated_at: z.string().nullable(),
});
export type SsoSettingsView = z.infer<typeof ssoSettingsSchema>;

/** POST `/api/company/{id}/sso/test`: discovery of the issuer typed (or stored). */
export const ssoTestInputSchema = z.object({
  issuer_url: formText(SSO_LIMITS.urlMax).refine((u) => isIssuerUrl(u), {
    ...ssoIssue('issuerInvalid', 'issuer_url'),
  }),
});
export const ssoTestResultSchema = z.object({
  ok: z.boolean(),
  /** One sentence: what was found, or what is wrong. */
  message: z.string(),
  /** Whether the provider offers an end-session (sign-out) URL. */
  end_session: z.boolean(),
});
export type SsoTestResult = z.infer<typeof ssoTestResultSchema>;

/** POST `/api/company/{id}/scim-tokens`. */
export const scimTokenInputSchema = z.object({
  name: formText(SSO_LIMITS.scimTokenNameMax).refine((n) => n.length > 0, {
    ...keyed((m) => m.sso.tokenNameRequired, { key: 'tokenNameRequired', field: 'name' }),
  }),
});
export const scimTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  created_by: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ScimToken = z.infer<typeof scimTokenSchema>;
/** The answer to a creation: the token in clear, this once. */
export const scimTokenCreatedSchema = scimTokenSchema.extend({ token: z.string() });

/**
 * POST `/api/sso/begin` (the login page's first step): the e-mail typed. When its domain is
 * covered by a company's enabled provider, the answer is where to send the browser.
 */
export const ssoBeginSchema = z.object({
  email: z
    .string()
    .max(TEXT_MAX.email, {
      ...keyed((m) => m.login.emailInvalid, { key: 'emailInvalid' }),
      abort: true,
    })
    .trim()
    .min(
      1,
      keyed((m) => m.login.emailRequired, { key: 'emailRequired' }),
    )
    .regex(
      EMAIL_PATTERN,
      keyed((m) => m.login.emailInvalid, { key: 'emailInvalid' }),
    ),
});
export const ssoBeginResultSchema = z.discriminatedUnion('sso', [
  z.object({ sso: z.literal(false) }),
  z.object({ sso: z.literal(true), redirect_url: z.string() }),
]);
export type SsoBeginResult = z.infer<typeof ssoBeginResultSchema>;

/** POST `/api/sso/exchange`: the one-time ticket of the page the provider sent back to. */
export const ssoExchangeSchema = z.object({ ticket: z.string().min(1).max(200) });

/** POST `/api/logout`'s answer: with the provider's sign-out page when it has one. */
export const logoutResponseSchema = z.object({
  message: z.string(),
  /** The identity provider's end-session URL, for a session it signed in. */
  end_session_url: z.string().optional(),
});

/**
 * The highest role (in the order of SSO_MAPPABLE_ROLES) that `mappings` give one of the
 * groups named, matched without regard to case; null when none is mapped. The ID token's
 * groups at a sign-in and the SCIM groups of an account are read by this one rule.
 */
export function highestMappedRole(
  mappings: readonly { group: string; role: string }[],
  groupNames: readonly string[],
): SsoMappableRole | null {
  const held = new Set(groupNames.map((g) => g.toLowerCase()));
  let best = -1;
  for (const { group, role } of mappings) {
    const rank = SSO_MAPPABLE_ROLES.indexOf(role as SsoMappableRole);
    if (rank > best && held.has(group.toLowerCase())) best = rank;
  }
  return best >= 0 ? SSO_MAPPABLE_ROLES[best]! : null;
}
