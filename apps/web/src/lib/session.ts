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
}

export function storeUserInfo(info: UserInfo): void {
  localStorage.setItem(KEYS.userInfo, JSON.stringify(info));
  localStorage.setItem(KEYS.roles, JSON.stringify(info.roles));
  localStorage.setItem(KEYS.company, info.company);
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

export function currentCompany(): string | null {
  return localStorage.getItem(KEYS.company);
}

export function setCurrentCompany(slug: string): void {
  localStorage.setItem(KEYS.company, slug);
}
