/**
 * A real OpenID Connect provider for tests (issue 33): `oidc-provider` on 127.0.0.1, one
 * confidential client (PKCE required), accounts from a map the test fills, and a way to sign
 * in without a browser: `signInThroughProvider` follows the provider's redirects with its
 * cookies and posts its own login and consent forms (its development interactions), then
 * answers the URL the provider sends the browser back to (the client's redirect URI with
 * `code`, `state`, `iss`, or `error`).
 *
 * ID-token faults are real ones: `setIdTokenFault` makes the token endpoint answer an ID token
 * with a broken signature, or re-signed with the provider's own key (the `jwks` given to it
 * here) with another nonce, another audience, or an expiry in the past.
 *
 * Free of vitest: the end-to-end tests start it too. oidc-provider ships no types: the little
 * of it used here is typed below.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';

export interface TestAccount {
  /** The provider's subject; also what `signInThroughProvider` types as the login. */
  sub: string;
  email: string;
  /** Absent: true. */
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  groups?: string[];
}

/**
 * What the token endpoint does to the next ID tokens (null: nothing). 'resigned' signs the
 * token again unchanged with the provider's key: a control, which a client must accept.
 */
export type IdTokenFault = 'signature' | 'nonce' | 'audience' | 'expired' | 'resigned' | null;

export interface TestProviderOptions {
  /** The client's one redirect URI (Sésame's `${publicUrl}/api/sso/callback`). */
  redirectUri: string;
  /** Where the provider may send the browser after its sign-out (default: none registered). */
  postLogoutRedirectUris?: string[];
  clientId?: string;
  clientSecret?: string;
  accounts?: TestAccount[];
}

export interface TestProvider {
  /** The issuer URL (http://127.0.0.1:<port>). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by `sub`: add, change or remove them at any time. */
  accounts: Map<string, TestAccount>;
  /** The fault of the ID tokens the token endpoint answers from now on (null: none). */
  setIdTokenFault(fault: IdTokenFault): void;
  /**
   * Goes through the provider's sign-in for `authorizationUrl` as the account `login` (its
   * `sub`; any password), consenting, and answers the redirect URI the provider sends back
   * to. `cancel: true` aborts at the login form instead (the provider answers
   * `error=access_denied`).
   */
  signInThroughProvider(
    authorizationUrl: string,
    login: string,
    options?: { cancel?: boolean },
  ): Promise<string>;
  close(): Promise<void>;
}

interface KoaContext {
  path: string;
  method: string;
  body: unknown;
}
interface ProviderInstance {
  callback(): (request: unknown, response: unknown) => void;
  use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
}
type ProviderClass = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => ProviderInstance;

/** oidc-provider, loaded by name: it ships no type declarations. */
async function loadProvider(): Promise<ProviderClass> {
  const name = 'oidc-provider';
  const loaded = (await import(name)) as { default: ProviderClass };
  return loaded.default;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** A port nothing listens on (a provider that is down). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startTestProvider(options: TestProviderOptions): Promise<TestProvider> {
  const Provider = await loadProvider();
  const clientId = options.clientId ?? 'sesame-test';
  const clientSecret = options.clientSecret ?? 'sesame-test-secret-that-is-long-enough';
  const accounts = new Map((options.accounts ?? []).map((a) => [a.sub, a]));

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'sesame-test-key';
  const signingJwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };

  const server = createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    jwks: { keys: [signingJwk] },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name', 'groups'],
    },
    // The scopes' claims in the ID token itself (as most company providers do), not only
    // at the userinfo endpoint.
    conformIdTokenClaims: false,
    cookies: { keys: ['sesame-test-provider-cookie-key'] },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({ email_verified: true, ...account, sub }),
      };
    },
  });

  let fault: IdTokenFault = null;
  const resign = async (idToken: string, change: (payload: JWTPayload) => JWTPayload) =>
    new SignJWT(change(decodeJwt(idToken)))
      .setProtectedHeader(decodeProtectedHeader(idToken) as { alg: string })
      .sign(privateKey);
  const spoil = async (idToken: string): Promise<string> => {
    const now = Math.floor(Date.now() / 1000);
    switch (fault) {
      case 'signature': {
        const [header, payload, signature = ''] = idToken.split('.');
        const bytes = Buffer.from(signature, 'base64url');
        bytes[0] = (bytes[0] ?? 0) ^ 0xff;
        return `${header}.${payload}.${bytes.toString('base64url')}`;
      }
      case 'nonce':
        return resign(idToken, (p) => ({ ...p, nonce: 'another-nonce' }));
      case 'audience':
        return resign(idToken, (p) => ({ ...p, aud: 'another-client' }));
      case 'resigned':
        return resign(idToken, (p) => p);
      case 'expired':
        return resign(idToken, (p) => ({ ...p, iat: now - 7200, exp: now - 3600 }));
      default:
        return idToken;
    }
  };
  // Between the token endpoint and the client: what a tampering proxy would do.
  provider.use(async (ctx, next) => {
    await next();
    if (!fault || ctx.method !== 'POST' || ctx.path !== '/token') return;
    const body = ctx.body as { id_token?: unknown } | null;
    if (body && typeof body.id_token === 'string') {
      ctx.body = { ...body, id_token: await spoil(body.id_token) };
    }
  });
  server.on('request', provider.callback());

  async function signInThroughProvider(
    authorizationUrl: string,
    login: string,
    signInOptions: { cancel?: boolean } = {},
  ): Promise<string> {
    const jar = new Map<string, string>();
    const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const keep = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = '', ...attributes] = line.split(';');
        const at = pair.indexOf('=');
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1).trim();
        const expires = attributes.find((a) => a.trim().toLowerCase().startsWith('expires='));
        const gone = value === '' || (expires && Date.parse(expires.trim().slice(8)) <= Date.now());
        if (gone) jar.delete(name);
        else jar.set(name, value);
      }
    };

    let url = authorizationUrl;
    let form: URLSearchParams | undefined;
    for (let step = 0; step < 20; step += 1) {
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          cookie: cookieHeader(),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: form.toString() } : {}),
      });
      keep(response);
      form = undefined;
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel();
        const location = new URL(response.headers.get('location') ?? '', url).href;
        if (location.startsWith(`${options.redirectUri}?`)) return location;
        url = location;
        continue;
      }
      const page = await response.text();
      if (response.status !== 200) {
        throw new Error(
          `the provider answered ${response.status} at ${url}: ${page.slice(0, 300)}`,
        );
      }
      if (page.includes('name="prompt" value="login"')) {
        if (signInOptions.cancel) {
          url = `${new URL(url).origin}${new URL(url).pathname}/abort`;
          continue;
        }
        form = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
      } else if (page.includes('name="prompt" value="consent"')) {
        form = new URLSearchParams({ prompt: 'consent' });
      } else {
        throw new Error(`unexpected provider page at ${url}: ${page.slice(0, 300)}`);
      }
    }
    throw new Error('the provider never sent the browser back');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    setIdTokenFault(next) {
      fault = next;
    },
    signInThroughProvider,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
