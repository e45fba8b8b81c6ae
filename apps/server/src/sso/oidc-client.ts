/**
 * A company's identity provider as an OpenID Connect client sees it (issue 33): its discovery
 * document read once per (issuer, client id, secret) and kept a few minutes, so a burst of
 * morning sign-ins asks the provider once. openid-client is loaded on first use only (the idle
 * server never needs it). An http issuer is accepted on this machine only (a provider beside
 * Sésame, a test): everywhere else TLS is required, by the library itself. The ID token's
 * signature is always verified with the provider's keys (JWKS).
 */
import { createHash } from 'node:crypto';
import { SSO_LIMITS } from '@sesame/shared';
import { onFirstUse } from '../lazy-module';

type OpenIdClient = typeof import('openid-client');
export type OidcConfiguration = import('openid-client').Configuration;

/** How long a provider's discovery is reused. */
const DISCOVERY_TTL_MS = 5 * 60_000;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** openid-client, imported on first use. */
export const openIdClient: () => Promise<OpenIdClient> = onFirstUse(() => import('openid-client'));

/** The provider did not answer discovery (down, too slow, not OpenID Connect, refused TLS). */
export class ProviderUnavailable extends Error {
  constructor(issuer: string, cause: unknown) {
    super(`discovery of ${issuer} failed`, { cause });
    this.name = 'ProviderUnavailable';
  }
}

export interface ProviderClient {
  issuerUrl: string;
  clientId: string;
  clientSecret: string;
}

const cache = new Map<string, { at: number; configuration: Promise<OidcConfiguration> }>();

function cacheKey(client: ProviderClient): string {
  // The secret is part of the key (a new secret is a new client), as a digest only.
  const secret = createHash('sha256').update(client.clientSecret).digest('base64url');
  return `${client.issuerUrl}\n${client.clientId}\n${secret}`;
}

/** Whether `issuer` may be spoken to over plain http (loopback only). */
export function insecureAllowed(issuer: URL): boolean {
  return issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname);
}

/**
 * The client's configuration for this provider, from its discovery (cached
 * `DISCOVERY_TTL_MS`; a failure is not cached). Throws ProviderUnavailable.
 */
export async function providerConfiguration(client: ProviderClient): Promise<OidcConfiguration> {
  const key = cacheKey(client);
  const now = Date.now();
  const cached = cache.get(key);
  if (cached && now - cached.at < DISCOVERY_TTL_MS) return cached.configuration;
  for (const [k, entry] of cache) if (now - entry.at >= DISCOVERY_TTL_MS) cache.delete(k);

  const configuration = discover(client);
  cache.set(key, { at: now, configuration });
  configuration.catch(() => {
    if (cache.get(key)?.configuration === configuration) cache.delete(key);
  });
  return configuration;
}

async function discover(client: ProviderClient): Promise<OidcConfiguration> {
  let issuer: URL;
  try {
    issuer = new URL(client.issuerUrl);
  } catch (error) {
    throw new ProviderUnavailable(client.issuerUrl, error);
  }
  const oidc = await openIdClient();
  try {
    return await oidc.discovery(issuer, client.clientId, client.clientSecret, undefined, {
      timeout: Math.ceil(SSO_LIMITS.discoveryTimeoutMs / 1000),
      execute: [
        // The ID token's signature is checked against the provider's published keys, not
        // only trusted for arriving over TLS (the library's default for the token endpoint).
        oidc.enableNonRepudiationChecks,
        ...(insecureAllowed(issuer) ? [oidc.allowInsecureRequests] : []),
      ],
    });
  } catch (error) {
    throw new ProviderUnavailable(client.issuerUrl, error);
  }
}

/** Forgets every cached discovery (a provider's settings changed; tests). */
export function forgetProviders(): void {
  cache.clear();
}
