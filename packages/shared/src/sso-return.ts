/**
 * How the provider's answer reaches the login page (issue 33), without zod: the login is a
 * public page that must stay light, and imports this module alone
 * (`@sesame/shared/sso-return`).
 *
 * Back from the provider, the server sends the browser to the login page:
 * `/sign-in?sso_ticket=…` when the person is signed in (the page trades the ticket at
 * POST /api/sso/exchange), `/sign-in?sso_error=<key>` when not, the key naming the
 * message (`m.sso[key]`, or `m.api.accountDisabled` for a disabled account).
 */
export const SSO_ERRORS = [
  'signInFailed',
  'signInExpired',
  'signInCancelled',
  'noAccount',
  'providerUnavailable',
  'accountDisabled',
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];
export const SSO_TICKET_PARAM = 'sso_ticket';
export const SSO_ERROR_PARAM = 'sso_error';
