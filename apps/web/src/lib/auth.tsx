import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useTranslation } from './i18n';
import { useNavigate } from 'react-router';
import { activeRole, type logoutResponseSchema, type Role, type UserInfo } from '@sesame/shared';
import type { z } from 'zod';
import { ApiError, api } from './api-client';
import {
  clearSession,
  endSession,
  getToken,
  hasSessionToken,
  onSessionEnded,
  storeSession,
  storeUserInfo,
  storedUserInfo,
  tokenExpiresAt,
} from './session';

interface AuthState {
  user: UserInfo | null;
  /** The active role (first of the list), or null for an anonymous visitor. */
  role: Role | null;
  isAuthenticated: boolean;
  /**
   * The server stopped accepting the session (expired or revoked) since this page loaded:
   * the layout says so until the person signs in again or closes the notice.
   */
  sessionEnded: boolean;
  dismissSessionEnded(): void;
  login(email: string, password: string): Promise<UserInfo>;
  /**
   * Issue 33: back from the company's identity provider, the login page trades the
   * one-time ticket the server put in its address for a session, as a password would.
   */
  exchangeSsoTicket(ticket: string): Promise<UserInfo>;
  logout(): Promise<void>;
}

/** POST /api/logout's answer (issue 33: with the provider's sign-out page, for its sessions). */
type LogoutResponse = z.infer<typeof logoutResponseSchema>;

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<UserInfo | null>(() =>
    hasSessionToken() ? storedUserInfo() : null,
  );
  const [sessionEnded, setSessionEnded] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();

  // However the end is noticed (a 401 anywhere, the token's expiry), the screen changes at
  // once: no Menu nor Déconnexion for a session the server refuses, no staff data kept.
  useEffect(
    () =>
      onSessionEnded(() => {
        setUser(null);
        setSessionEnded(true);
        queryClient.clear();
      }),
    [queryClient],
  );

  // Refresh the stored user info once per load: roles or company may have changed, and a
  // session revoked since (logout elsewhere, a disabled account) ends here, not on a later click.
  useEffect(() => {
    if (!hasSessionToken()) return;
    api
      .get<UserInfo>('/user/info')
      .then((info) => {
        storeUserInfo(info);
        setUser(info);
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 401) endSession();
      });
  }, []);

  // The token says when it expires: the session ends then, even on a page that calls nothing.
  useEffect(() => {
    if (!user) return;
    const expiresAt = tokenExpiresAt(getToken());
    if (expiresAt === null) return;
    const left = expiresAt - Date.now();
    if (left <= 0) {
      endSession();
      return;
    }
    // setTimeout holds at most 2^31-1 ms (24.8 days); a token lives hours.
    const timer = window.setTimeout(endSession, Math.min(left, 2 ** 31 - 1));
    return () => window.clearTimeout(timer);
  }, [user]);

  /** A token the server gave (a password's, an SSO ticket's): the session of its user. */
  const startSession = useCallback(async (token: string) => {
    localStorage.setItem('token', token);
    const info = await api.get<UserInfo>('/user/info');
    storeSession(token, info);
    setUser(info);
    setSessionEnded(false);
    return info;
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      const { token } = await api.post<{ token: string }>('/login_check', {
        username: email,
        password,
      });
      return startSession(token);
    },
    [startSession],
  );

  const exchangeSsoTicket = useCallback(
    async (ticket: string) => {
      const { token } = await api.post<{ token: string }>('/sso/exchange', { ticket });
      return startSession(token);
    },
    [startSession],
  );

  const logout = useCallback(async () => {
    const answer = getToken()
      ? await api.post<LogoutResponse | undefined>('/logout').catch(() => undefined)
      : undefined;
    clearSession();
    setUser(null);
    queryClient.clear();
    notifications.show({ message: t('auth.loggedOut'), color: 'teal' });
    // Issue 33: a session the company's provider signed in ends there too (its own page).
    if (answer?.end_session_url) {
      window.location.assign(answer.end_session_url);
      return;
    }
    await navigate('/sign-in');
  }, [navigate, queryClient, t]);

  const value = useMemo<AuthState>(
    () => ({
      user,
      role: user ? activeRole(user.roles) : null,
      isAuthenticated: !!user && hasSessionToken(),
      sessionEnded,
      dismissSessionEnded: () => setSessionEnded(false),
      login,
      exchangeSsoTicket,
      logout,
    }),
    [user, sessionEnded, login, exchangeSsoTicket, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
