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
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { activeRole, type Role, type UserInfo } from '@sesame/shared';
import { api } from './api-client';
import {
  clearSession,
  getToken,
  hasSessionToken,
  storeSession,
  storeUserInfo,
  storedUserInfo,
} from './session';

interface AuthState {
  user: UserInfo | null;
  /** The active role (first of the list), or null for an anonymous visitor. */
  role: Role | null;
  isAuthenticated: boolean;
  login(email: string, password: string): Promise<UserInfo>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthState | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<UserInfo | null>(() =>
    hasSessionToken() ? storedUserInfo() : null,
  );
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useTranslation();

  // Refresh the stored user info once per load: roles or company may have changed.
  useEffect(() => {
    if (!hasSessionToken()) return;
    api
      .get<UserInfo>('/user/info')
      .then((info) => {
        storeUserInfo(info);
        setUser(info);
      })
      .catch(() => undefined);
  }, []);

  const login = useCallback(async (email: string, password: string) => {
    const { token } = await api.post<{ token: string }>('/login_check', {
      username: email,
      password,
    });
    localStorage.setItem('token', token);
    const info = await api.get<UserInfo>('/user/info');
    storeSession(token, info);
    setUser(info);
    return info;
  }, []);

  const logout = useCallback(async () => {
    if (getToken()) await api.post('/logout').catch(() => undefined);
    clearSession();
    setUser(null);
    queryClient.clear();
    notifications.show({ message: t('auth.loggedOut'), color: 'teal' });
    await navigate('/sign-in');
  }, [navigate, queryClient, t]);

  const value = useMemo<AuthState>(
    () => ({
      user,
      role: user ? activeRole(user.roles) : null,
      isAuthenticated: !!user && hasSessionToken(),
      login,
      logout,
    }),
    [user, login, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
