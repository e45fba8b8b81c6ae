/**
 * The login page's single sign-on half (issue 33), without React nor zod: the login is a
 * public page that must stay light, so the names the server and this page share come from
 * shared's zod-free `sso-return` module.
 *
 * Step 1 asks the e-mail alone ('Continuer'): the server answers whether a company's
 * identity provider covers its domain (the browser then goes there), or the password
 * step follows, the e-mail kept. Back from the provider, the server sends the browser
 * to `/sign-in?sso_ticket=…` or `/sign-in?sso_error=<key>`.
 */

import {
  SSO_ERROR_PARAM,
  SSO_ERRORS,
  SSO_TICKET_PARAM,
  type SsoError,
} from '@sesame/shared/sso-return';

export type LoginStep = 'email' | 'password';

/** What the provider's return put in the login page's address, if anything. */
export type SsoReturn = { kind: 'ticket'; ticket: string } | { kind: 'error'; key: SsoError };

export function ssoReturnOf(search: string): SsoReturn | null {
  const params = new URLSearchParams(search);
  const ticket = params.get(SSO_TICKET_PARAM);
  if (ticket) return { kind: 'ticket', ticket };
  const error = params.get(SSO_ERROR_PARAM);
  if (error === null) return null;
  // A key this page does not know (a newer server) still says the sign-in failed.
  const key = (SSO_ERRORS as readonly string[]).includes(error)
    ? (error as SsoError)
    : 'signInFailed';
  return { kind: 'error', key };
}

/** The address without the ticket nor the error (a ticket never stays in the history). */
export function withoutSsoParams(pathname: string, search: string, hash = ''): string {
  const params = new URLSearchParams(search);
  params.delete(SSO_TICKET_PARAM);
  params.delete(SSO_ERROR_PARAM);
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}${hash}`;
}

/** POST /api/sso/begin's answer (shared's ssoBeginResultSchema). */
export type SsoBeginAnswer = { sso: false } | { sso: true; redirect_url: string };

/** After 'Continuer': the provider's page, or the password step. */
export function nextAfterBegin(
  answer: SsoBeginAnswer,
): { kind: 'provider'; url: string } | { kind: 'password' } {
  return answer.sso ? { kind: 'provider', url: answer.redirect_url } : { kind: 'password' };
}

/**
 * Where the person was going when they left for their provider: kept in this tab
 * (sessionStorage) so the return from the provider lands there, as a password sign-in does.
 */
const RETURN_KEY = 'sso_return_to';

export function rememberReturn(path: string | null): void {
  try {
    if (path) sessionStorage.setItem(RETURN_KEY, path);
    else sessionStorage.removeItem(RETURN_KEY);
  } catch {
    // Storage refused (a private mode): the return lands on the company's home.
  }
}

export function takeReturn(): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_KEY);
    sessionStorage.removeItem(RETURN_KEY);
    return path;
  } catch {
    return null;
  }
}
