import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Container,
  Group,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useLocation, useNavigate } from 'react-router';
import { ApiError, api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { safeReturnPath } from '../../../lib/return-path';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { useSchemaForm, type SafeParser } from '../../../lib/use-schema-form';
import authWords from '../../../locales/fr/auth.json';
import {
  nextAfterBegin,
  rememberReturn,
  ssoReturnOf,
  takeReturn,
  withoutSsoParams,
  type LoginStep,
  type SsoBeginAnswer,
} from '../sso-sign-in';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ auth: authWords });

interface LoginValues {
  username: string;
  password: string;
}
/** Step 1 checks `{ email }` (POST /api/sso/begin's body), step 2 the whole login. */
type StepData = { email: string } | LoginValues;

// The login is in the first bundle: its schemas (and zod) come when the person types.
const loadLoginSchema = (): Promise<SafeParser<StepData>> =>
  Promise.all([
    import('../login-schema').then((m) => m.loginSchema),
    import('../sso-begin-schema').then((m) => m.ssoBeginSchema),
  ]).then(([login, begin]) => ({
    safeParse: (input: unknown) =>
      (input && typeof input === 'object' && 'email' in input ? begin : login).safeParse(input),
  }));

/** Issue 33: whether a company's identity provider signs this e-mail in, and where. */
const beginSso = (email: string) => api.post<SsoBeginAnswer>('/sso/begin', { email });

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
      // Issue 33: a company that signs in through its provider says so (m.sso.passwordDisabled).
      return error.serverMessage ?? t('auth:errors.403');
    case 404:
      return t('auth:errors.404');
    case 429:
      return error.message;
    case 500:
      return t('auth:errors.500');
    case 503:
      // Issue 33: the company's identity provider does not answer.
      return error.serverMessage ?? t('auth:sso.errors.providerUnavailable');
    default:
      return t('auth:errors.failed', { message: error.message || t('auth:errors.unknown') });
  }
}

export default function LoginPage() {
  const { t } = useTranslation(['auth', 'common']);
  const { login, exchangeSsoTicket, user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  // A guarded page (a scan link opened by a phone's camera, a page whose session ended)
  // sends its path along: after signing in, the person goes back to it rather than to
  // the home page — a path of this application only (lib/return-path).
  const returnTo = safeReturnPath((location.state as { from?: unknown } | null)?.from);
  const [redirecting, setRedirecting] = useState(false);
  // On the way to the company's identity provider (the page is about to unload).
  const [leaving, setLeaving] = useState(false);
  // Issue 33: the e-mail first ('Continuer'), then the password unless a provider signs in.
  const [step, setStep] = useState<LoginStep>('email');
  // Back from the provider: its ticket to trade, or why it did not sign the person in.
  const [ssoReturn] = useState(() => ssoReturnOf(location.search));
  const [exchanging, setExchanging] = useState(ssoReturn?.kind === 'ticket');
  const traded = useRef(false);
  // What the server answered (the field messages are the form's own).
  const [formError, setFormError] = useState<string | null>(null);
  // Why the provider's sign-in did not open a session, above the form.
  const [ssoError, setSsoError] = useState<string | null>(
    ssoReturn?.kind === 'error' ? t(`auth:sso.errors.${ssoReturn.key}`) : null,
  );
  const navigateLater = useDelayedNavigate();
  const { form, submit } = useSchemaForm(loadLoginSchema, {
    ns: 'auth',
    keys: { errors: 'errors' },
    initialValues: { username: '', password: '' } satisfies LoginValues,
    toInput: (values) => (step === 'email' ? { email: values.username } : values),
    fieldOf: { email: 'username' },
    onSubmit: async (data, { username, password }) => {
      setFormError(null);
      setSsoError(null);
      setRedirecting(true);
      if ('email' in data) {
        try {
          const answer = await beginSso(data.email);
          const next = nextAfterBegin(answer);
          if (next.kind === 'provider') {
            rememberReturn(returnTo);
            setLeaving(true);
            window.location.assign(next.url);
            return undefined;
          }
          setRedirecting(false);
          setStep('password');
          return undefined;
        } catch (error) {
          setRedirecting(false);
          if (error instanceof ApiError && error.status === 400 && error.errors?.email)
            return { username: error.errors.email };
          setFormError(loginErrorMessage(error, t));
          return undefined;
        }
      }
      try {
        const info = await login(username, password);
        notifications.show({ message: t('auth:success'), color: 'teal' });
        navigateLater(returnTo ?? `/${info.company}`);
      } catch (error) {
        setRedirecting(false);
        setFormError(loginErrorMessage(error, t));
      }
      return undefined;
    },
  });
  const loading = form.submitting;

  // Each step puts the keyboard on its field: the password once the e-mail is kept, the
  // e-mail when the person goes back to change it.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    form.getInputNode(step === 'password' ? 'password' : 'username')?.focus();
  }, [step, form]);

  // The provider's answer leaves the address at once (a ticket is never kept in the
  // history), then the ticket becomes a session, once (it is single-use).
  useEffect(() => {
    if (!ssoReturn) return;
    void navigate(withoutSsoParams(location.pathname, location.search, location.hash), {
      replace: true,
      state: location.state,
    });
    if (ssoReturn.kind !== 'ticket' || traded.current) return;
    traded.current = true;
    setRedirecting(true);
    exchangeSsoTicket(ssoReturn.ticket).then(
      (info) => {
        notifications.show({ message: t('auth:success'), color: 'teal' });
        navigateLater(safeReturnPath(takeReturn()) ?? `/${info.company}`);
      },
      (error: unknown) => {
        setRedirecting(false);
        setExchanging(false);
        setSsoError(
          (error instanceof ApiError && error.status !== 0 && error.serverMessage) ||
            t('auth:sso.errors.signInFailed'),
        );
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the page opens
  }, []);

  // Already signed in: straight to the user's company.
  useEffect(() => {
    if (isAuthenticated && user && !loading && !redirecting)
      void navigate(returnTo ?? `/${user.company}`, { replace: true });
  }, [isAuthenticated, user, loading, redirecting, navigate, returnTo]);

  const changeEmail = () => {
    setFormError(null);
    form.setValues({ password: '' });
    form.clearErrors();
    setStep('email');
  };

  return (
    <Container size={420} py="xl">
      <Card withBorder shadow="sm" padding="xl" radius="lg">
        <Title order={1} size="h2" ta="center" mb={4}>
          {t('auth:title')}
        </Title>
        <Text c="dimmed" size="sm" ta="center" mb="lg">
          {t('auth:subtitle')}
        </Text>
        {exchanging ? (
          <Group justify="center" gap="sm" role="status" data-testid="sso-exchanging">
            <Loader size="sm" />
            <Text size="sm">{t('auth:sso.exchanging')}</Text>
          </Group>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              {ssoError && (
                <Alert color="red" role="alert" data-testid="sso-error">
                  {ssoError}
                </Alert>
              )}
              <TextInput
                label={t('auth:email')}
                description={step === 'email' ? t('auth:sso.emailHint') : undefined}
                type="email"
                autoComplete="username"
                {...form.getInputProps('username')}
                readOnly={step === 'password'}
                name="email"
              />
              {step === 'password' && (
                <>
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    onClick={changeEmail}
                    disabled={loading}
                    w="fit-content"
                  >
                    {t('auth:sso.changeEmail')}
                  </Button>
                  <PasswordInput
                    label={t('auth:password')}
                    autoComplete="current-password"
                    {...form.getInputProps('password')}
                    name="password"
                  />
                </>
              )}
              {formError && (
                <Text c="red.8" size="sm" role="alert">
                  {formError}
                </Text>
              )}
              <Button
                type="submit"
                disabled={loading || leaving}
                loading={loading || leaving}
                fullWidth
                size="md"
              >
                {step === 'email' ? t('auth:sso.continue') : t('auth:submit')}
              </Button>
              {/* Issue 17: 'Mon compte', where a signed-in person changes their password
                  (the login comes first, then the page of their own company). */}
              <Anchor component={Link} to="/mon-compte" size="sm" ta="center">
                {t('auth:changePassword')}
              </Anchor>
            </Stack>
          </form>
        )}
      </Card>
    </Container>
  );
}
