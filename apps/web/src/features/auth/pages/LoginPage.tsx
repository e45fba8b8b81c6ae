import { useEffect, useState } from 'react';
import {
  Anchor,
  Button,
  Card,
  Container,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { safeReturnPath } from '../../../lib/return-path';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { useSchemaForm } from '../../../lib/use-schema-form';
import authWords from '../../../locales/fr/auth.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ auth: authWords });

// The login is in the first bundle: its schema (and zod) comes when the person types.
const loadLoginSchema = () => import('../login-schema').then((m) => m.loginSchema);

/** Spec §8 Login: the message for each status. */
function loginErrorMessage(
  error: unknown,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (!(error instanceof ApiError) || error.status === 0) return t('auth:errors.thrown');
  switch (error.status) {
    case 400:
      return t('auth:errors.400');
    case 401:
      return t('auth:errors.401');
    case 403:
      return t('auth:errors.403');
    case 404:
      return t('auth:errors.404');
    case 429:
      return error.message;
    case 500:
      return t('auth:errors.500');
    default:
      return t('auth:errors.failed', { message: error.message || t('auth:errors.unknown') });
  }
}

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const { login, user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // A guarded page (a scan link opened by a phone's camera, a page whose session ended)
  // sends its path along: after signing in, the person goes back to it rather than to
  // the home page — a path of this application only (lib/return-path).
  const returnTo = safeReturnPath((location.state as { from?: unknown } | null)?.from);
  const [redirecting, setRedirecting] = useState(false);
  // What the server answered (the field messages are the form's own).
  const [formError, setFormError] = useState<string | null>(null);
  const navigateLater = useDelayedNavigate();
  const { form, submit } = useSchemaForm(loadLoginSchema, {
    ns: 'auth',
    keys: { errors: 'errors' },
    initialValues: { username: '', password: '' },
    onSubmit: async ({ username, password }) => {
      setFormError(null);
      setRedirecting(true);
      try {
        const info = await login(username, password);
        notifications.show({ message: t('auth:success'), color: 'teal' });
        navigateLater(returnTo ?? `/${info.company}`);
      } catch (error) {
        setRedirecting(false);
        setFormError(loginErrorMessage(error, t));
      }
    },
  });
  const loading = form.submitting;

  // Already signed in: straight to the user's company.
  useEffect(() => {
    if (isAuthenticated && user && !loading && !redirecting)
      void navigate(returnTo ?? `/${user.company}`, { replace: true });
  }, [isAuthenticated, user, loading, redirecting, navigate, returnTo]);

  return (
    <Container size={420} py="xl">
      <Card withBorder shadow="sm" padding="xl" radius="lg">
        <Title order={1} size="h2" ta="center" mb={4}>
          {t('auth:title')}
        </Title>
        <Text c="dimmed" size="sm" ta="center" mb="lg">
          {t('auth:subtitle')}
        </Text>
        <form onSubmit={submit} noValidate>
          <Stack>
            <TextInput
              label={t('auth:email')}
              type="email"
              autoComplete="username"
              {...form.getInputProps('username')}
              name="email"
            />
            <PasswordInput
              label={t('auth:password')}
              autoComplete="current-password"
              {...form.getInputProps('password')}
              name="password"
            />
            {formError && (
              <Text c="red.8" size="sm" role="alert">
                {formError}
              </Text>
            )}
            <Button type="submit" disabled={loading} loading={loading} fullWidth size="md">
              {t('auth:submit')}
            </Button>
            {/* Issue 17: 'Mon compte', where a signed-in person changes their password
                (the login comes first, then the page of their own company). */}
            <Anchor component={Link} to="/mon-compte" size="sm" ta="center">
              {t('auth:changePassword')}
            </Anchor>
          </Stack>
        </form>
      </Card>
    </Container>
  );
}
