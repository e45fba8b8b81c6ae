/**
 * Issue 33: the login page's single sign-on steps (features/auth/sso-sign-in.ts) — the
 * provider's return read from the address and taken out of it, the step after 'Continuer',
 * the SSO
 * screen's values to the shared schema and back (features/sso/lib/sso.ts), and its words.
 */
import { describe, expect, it } from 'vitest';
import {
  SSO_ERRORS,
  SSO_MAPPABLE_ROLES,
  ssoBeginResultSchema,
  ssoSettingsInputSchema,
  type ScimToken,
  type SsoSettingsView,
} from '@sesame/shared';
import { nextAfterBegin, ssoReturnOf, withoutSsoParams } from '../src/features/auth/sso-sign-in';
import { serverFieldErrors, sortTokens, ssoInput, ssoValues } from '../src/features/sso/lib/sso';
import { ApiError } from '../src/lib/api-client';
import authEn from '../src/locales/en/auth.json';
import authFr from '../src/locales/fr/auth.json';
import ssoEn from '../src/locales/en/sso.json';
import ssoFr from '../src/locales/fr/sso.json';
import usersFr from '../src/locales/fr/users.json';

const view = (over: Partial<SsoSettingsView> = {}): SsoSettingsView => ({
  enabled: true,
  issuer_url: 'https://login.example.com/realms/acme',
  client_id: 'sesame',
  has_client_secret: true,
  domains: ['acme.test'],
  groups_claim: 'groups',
  role_mappings: [{ group: 'reception', role: 'ROLE_EMPLOYEE' }],
  default_role: 'ROLE_USER',
  allow_jit: true,
  enforced: false,
  redirect_uri: 'https://sesame.test/api/sso/callback',
  scim_base_url: 'https://sesame.test/scim/v2',
  updated_at: '2026-11-28T10:00:00.000Z',
  ...over,
});

/** Every key of a nested locale object, `a.b.c`. */
const keysOf = (words: object, prefix = ''): string[] =>
  Object.entries(words).flatMap(([key, value]) =>
    value && typeof value === 'object'
      ? keysOf(value as object, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );

describe('the login page’s single sign-on step', () => {
  it('reads the ticket, or the error, the server put in the address', () => {
    expect(ssoReturnOf('')).toBeNull();
    expect(ssoReturnOf('?foo=1')).toBeNull();
    expect(ssoReturnOf('?sso_ticket=abc123')).toEqual({ kind: 'ticket', ticket: 'abc123' });
    expect(ssoReturnOf('?sso_error=noAccount')).toEqual({ kind: 'error', key: 'noAccount' });
    expect(ssoReturnOf('?sso_error=accountDisabled')).toEqual({
      kind: 'error',
      key: 'accountDisabled',
    });
    // A key this page does not know still says the sign-in failed.
    expect(ssoReturnOf('?sso_error=somethingNew')).toEqual({
      kind: 'error',
      key: 'signInFailed',
    });
    // An empty ticket is no ticket.
    expect(ssoReturnOf('?sso_ticket=')).toBeNull();
  });

  it('takes the ticket and the error out of the address, keeping the rest', () => {
    expect(withoutSsoParams('/sign-in', '?sso_ticket=abc')).toBe('/sign-in');
    expect(withoutSsoParams('/sign-in', '?sso_error=noAccount', '#top')).toBe('/sign-in#top');
    expect(withoutSsoParams('/sign-in', '?lang=en&sso_ticket=abc')).toBe('/sign-in?lang=en');
  });

  it('goes to the provider when the server says so, else asks the password', () => {
    const covered = ssoBeginResultSchema.parse({
      sso: true,
      redirect_url: 'https://login.example.com/auth?state=x',
    });
    expect(nextAfterBegin(covered)).toEqual({
      kind: 'provider',
      url: 'https://login.example.com/auth?state=x',
    });
    expect(nextAfterBegin(ssoBeginResultSchema.parse({ sso: false }))).toEqual({
      kind: 'password',
    });
  });

  it('has a sentence for each error and each step, in French and in English', () => {
    for (const key of SSO_ERRORS) {
      expect(authFr.sso.errors[key], key).toBeTruthy();
      expect(authEn.sso.errors[key], key).toBeTruthy();
    }
    expect(authFr.sso.errors.accountDisabled).toBe('Accès refusé.');
    expect(authFr.sso.continue).toBe('Continuer');
    expect(keysOf(authEn).sort()).toEqual(keysOf(authFr).sort());
  });
});

describe('the SSO screen', () => {
  it('fills the form from the stored settings, the secret left blank', () => {
    const values = ssoValues(view());
    expect(values.client_secret).toBe('');
    expect(values.role_mappings).toHaveLength(1);
    expect(values.role_mappings[0]).toMatchObject({ group: 'reception', role: 'ROLE_EMPLOYEE' });
    // A provider never set up starts from the usual claim.
    expect(ssoValues(view({ groups_claim: '' })).groups_claim).toBe('groups');
  });

  it('sends the shared schema’s input: a blank secret keeps the stored one, a new one replaces it', () => {
    const values = ssoValues(view());
    const kept = ssoInput(values);
    expect(kept).not.toHaveProperty('client_secret');
    expect(kept.role_mappings).toEqual([{ group: 'reception', role: 'ROLE_EMPLOYEE' }]);
    expect(ssoSettingsInputSchema.safeParse(kept).success).toBe(true);
    expect(ssoInput({ ...values, client_secret: 's3cret' }).client_secret).toBe('s3cret');
    expect(ssoInput({ ...values, client_secret: '   ' })).not.toHaveProperty('client_secret');
  });

  it('says each refused field under its field', () => {
    const values = ssoValues(view());
    const parsed = ssoSettingsInputSchema.safeParse(
      ssoInput({
        ...values,
        client_id: '',
        domains: [],
        role_mappings: [
          ...values.role_mappings,
          { key: 'x', group: 'Reception', role: 'ROLE_USER' },
        ],
      }),
    );
    expect(parsed.success).toBe(false);
    const fields = parsed.success ? [] : parsed.error.issues.map((issue) => issue.path[0]);
    expect(fields).toEqual(expect.arrayContaining(['client_id', 'domains', 'role_mappings']));
  });

  it('puts the server’s field errors on their field, and a domain taken under the domains', () => {
    expect(
      serverFieldErrors(
        new ApiError(400, 'Invalid', {
          'role_mappings.1.group': 'Veuillez saisir le nom du groupe.',
          issuer_url: 'bad',
        }),
      ),
    ).toEqual({ role_mappings: 'Veuillez saisir le nom du groupe.', issuer_url: 'bad' });
    expect(serverFieldErrors(new ApiError(409, 'Le domaine acme.test est déjà couvert.'))).toEqual({
      domains: 'Le domaine acme.test est déjà couvert.',
    });
    expect(serverFieldErrors(new ApiError(500, undefined))).toBeUndefined();
    expect(serverFieldErrors(new Error('x'))).toBeUndefined();
  });

  it('lists the active tokens first, the newest on top', () => {
    const token = (
      id: string,
      created_at: string,
      revoked_at: string | null = null,
    ): ScimToken => ({
      id,
      name: id,
      created_at,
      created_by: null,
      last_used_at: null,
      revoked_at,
    });
    const sorted = sortTokens([
      token('old', '2026-01-01T00:00:00Z'),
      token('gone', '2026-06-01T00:00:00Z', '2026-07-01T00:00:00Z'),
      token('new', '2026-05-01T00:00:00Z'),
    ]);
    expect(sorted.map((t) => t.id)).toEqual(['new', 'old', 'gone']);
  });

  it('has its words in French and English, the roles named as the users screen names them', () => {
    expect(keysOf(ssoEn).sort()).toEqual(keysOf(ssoFr).sort());
    for (const role of SSO_MAPPABLE_ROLES) expect(usersFr.roles[role]).toBeTruthy();
    expect(ssoFr.title).toBe('Connexion unique (SSO)');
    expect(ssoFr.test.button).toBe('Tester la connexion');
    expect(ssoFr.tokens.title).toBe('Jetons SCIM');
  });
});
