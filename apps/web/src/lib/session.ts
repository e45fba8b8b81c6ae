/**
 * Browser storage of the signed-in session (spec §3): the token in local
 * storage and in a cookie, the user info, the current company, the role list.
 */
import { MIN_TOKEN_LENGTH, type UserInfo } from '@sesame/shared';

const KEYS = {
  token: 'token',
  userInfo: 'userInfo',
  company: 'currentCompany',
  roles: 'roles_list',
};

export function getToken(): string | null {
  return localStorage.getItem(KEYS.token);
}

/** Spec §2 guard: a token counts as signed in when it has at least 10 characters. */
export function hasSessionToken(): boolean {
  return (getToken()?.length ?? 0) >= MIN_TOKEN_LENGTH;
}

export function storeSession(token: string, info: UserInfo): void {
  localStorage.setItem(KEYS.token, token);
  document.cookie = `token=${encodeURIComponent(token)}; path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  storeUserInfo(info);
  // Signing in lands on the user's company: it is the current company until a URL names another.
  setCurrentCompany(info.company);
}

/** The user info and roles; the current company is the URL's business, never this refresh's. */
export function storeUserInfo(info: UserInfo): void {
  localStorage.setItem(KEYS.userInfo, JSON.stringify(info));
  localStorage.setItem(KEYS.roles, JSON.stringify(info.roles));
}

export function storedUserInfo(): UserInfo | null {
  try {
    const raw = localStorage.getItem(KEYS.userInfo);
    return raw ? (JSON.parse(raw) as UserInfo) : null;
  } catch {
    return null;
  }
}

export function clearSession(): void {
  for (const key of [KEYS.token, KEYS.userInfo, KEYS.company, KEYS.roles])
    localStorage.removeItem(key);
  document.cookie = 'token=; path=/; Max-Age=0; SameSite=Lax';
}

/**
 * The slug of the last company a URL named (spec §3 'currentCompany'). A record of where
 * the person was; no screen decides which company it shows from it (lib/shown-company).
 */
export function currentCompany(): string | null {
  return localStorage.getItem(KEYS.company);
}

export function setCurrentCompany(slug: string): void {
  localStorage.setItem(KEYS.company, slug);
}

/**
 * When the token stops being valid (its `exp` claim, in ms), or null when it carries none.
 * Read without checking the signature: it only tells the screen when to give up; the
 * server decides on every call.
 */
export function tokenExpiresAt(token: string | null): number | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/')) as string;
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp * 1000 : null;
  } catch {
    return null;
  }
}

type SessionEndedListener = () => void;
const sessionEndedListeners = new Set<SessionEndedListener>();

/**
 * The server no longer accepts the session (expired, revoked, account disabled): forget it
 * and tell whoever listens (the auth provider says so on screen and guarded pages go to
 * the login, which comes back to them afterwards). Does nothing without a stored token.
 */
export function endSession(): void {
  if (!hasSessionToken()) return;
  clearSession();
  for (const listener of sessionEndedListeners) listener();
}

export function onSessionEnded(listener: SessionEndedListener): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}
