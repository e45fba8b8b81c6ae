/**
 * 'Connexion unique (SSO)' (issue 33): the company's OpenID Connect provider — its issuer,
 * the client Sésame is registered as, the e-mail domains it covers, how its groups become
 * roles, accounts created at their first sign-in, and whether passwords still sign the
 * company's staff in. The shared `ssoSettingsInputSchema` (the server's own) checks it here
 * and again on the server; the server's field errors come back under their field.
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Grid,
  Group,
  NativeSelect,
  PasswordInput,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import {
  SSO_LIMITS,
  SSO_MAPPABLE_ROLES,
  ssoSettingsInputSchema,
  type SsoMappableRole,
  type SsoSettingsInput,
  type SsoSettingsView,
  type SsoTestResult,
} from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { SubmitSummary } from '../../../components/FormFrame';
import { PanelSection, col } from '../../../components/InlineForm';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { testSso } from '../api/sso';
import { rowKey, ssoInput, ssoValues } from '../lib/sso';
import { CopyValue } from '../../../components/CopyValue';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';

export function SsoSettingsForm(props: {
  company: string;
  settings: SsoSettingsView;
  feedback: Feedback | null;
  /** Saves; answers the server's field errors, if any. */
  onSubmit: (input: SsoSettingsInput) => Promise<Record<string, string> | undefined>;
}) {
  const { t } = useTranslation(['sso', 'users']);
  const { settings } = props;
  const { form, submit, summary, busy } = useSchemaForm(ssoSettingsInputSchema, {
    ns: 'sso',
    keys: { errors: 'errors', fields: 'fields' },
    initialValues: ssoValues(settings),
    toInput: ssoInput,
    onSubmit: (data) => props.onSubmit(data),
  });
  const values = form.values;
  const [tested, setTested] = useState<SsoTestResult | null>(null);
  const test = useMutation({
    mutationFn: () => testSso(props.company, values.issuer_url.trim()),
    onMutate: () => setTested(null),
    onSuccess: setTested,
    onError: (error) => {
      const field = error instanceof ApiError ? error.errors?.issuer_url : undefined;
      if (field) form.setFieldError('issuer_url', field);
      setTested({
        ok: false,
        message:
          field ??
          (error instanceof ApiError && error.status !== 0 && error.serverMessage
            ? error.serverMessage
            : t('test.failed')),
        end_session: false,
      });
    },
  });

  const roleOptions = SSO_MAPPABLE_ROLES.map((role) => ({
    value: role,
    label: t(`users:roles.${role}`),
  }));
  const mappings = values.role_mappings;
  const setMappings = (next: typeof mappings) => form.setFieldValue('role_mappings', next);
  const addMapping = () => {
    const key = rowKey();
    setMappings([...mappings, { key, group: '', role: 'ROLE_USER' }]);
    // The keyboard goes to the new line's group.
    requestAnimationFrame(() =>
      document.querySelector<HTMLElement>(`[data-row="${key}"] input`)?.focus(),
    );
  };
  const mappingsError = form.errors.role_mappings;

  return (
    <PanelSection titleId="sso-settings-title" data-testid="sso-settings">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id="sso-settings-title">
            {t('settings.title')}
          </Title>
          <SubmitSummary summary={summary} feedback={props.feedback} />
          <Switch
            label={t('fields.enabled')}
            description={t('settings.enabledHint')}
            {...form.getInputProps('enabled', { type: 'checkbox' })}
            name="enabled"
          />
          <Grid gap="md">
            {col(
              <TextInput
                label={t('fields.issuer_url')}
                description={t('settings.issuerHint')}
                placeholder="https://login.example.com/realms/acme"
                type="url"
                autoComplete="off"
                maxLength={SSO_LIMITS.urlMax}
                {...form.getInputProps('issuer_url')}
                name="issuer_url"
              />,
              12,
            )}
            {col(
              <Group gap="sm" align="center">
                <Button
                  variant="light"
                  onClick={() => test.mutate()}
                  loading={test.isPending}
                  disabled={values.issuer_url.trim() === ''}
                >
                  {t('test.button')}
                </Button>
              </Group>,
              12,
            )}
            {tested &&
              col(
                <Alert
                  color={tested.ok ? 'green' : 'red'}
                  role={tested.ok ? 'status' : 'alert'}
                  data-testid="sso-test-result"
                  data-ok={tested.ok}
                >
                  <Text size="sm">{tested.message}</Text>
                  {tested.ok && (
                    <Text size="sm" c="dimmed" mt={4}>
                      {tested.end_session ? t('test.endSession') : t('test.noEndSession')}
                    </Text>
                  )}
                </Alert>,
                12,
              )}
            {col(
              <TextInput
                label={t('fields.client_id')}
                autoComplete="off"
                maxLength={SSO_LIMITS.clientIdMax}
                {...form.getInputProps('client_id')}
                name="client_id"
              />,
            )}
            {col(
              <PasswordInput
                label={t('fields.client_secret')}
                description={
                  settings.has_client_secret ? t('settings.secretStored') : t('settings.secretHint')
                }
                placeholder={settings.has_client_secret ? t('settings.secretKeep') : undefined}
                autoComplete="new-password"
                maxLength={SSO_LIMITS.clientSecretMax}
                {...form.getInputProps('client_secret')}
                name="client_secret"
              />,
            )}
            {col(
              <TagsInput
                label={t('fields.domains')}
                description={t('settings.domainsHint', { max: SSO_LIMITS.domainsMax })}
                placeholder={values.domains.length === 0 ? 'exemple.com' : undefined}
                maxTags={SSO_LIMITS.domainsMax}
                splitChars={[',', ' ', ';']}
                acceptValueOnBlur
                clearable
                {...form.getInputProps('domains')}
                name="domains"
              />,
              12,
            )}
            {col(
              <CopyValue
                label={t('fields.redirect_uri')}
                description={t('settings.redirectHint')}
                value={settings.redirect_uri}
                testId="sso-redirect-uri"
              />,
            )}
            {col(
              <CopyValue
                label={t('fields.scim_base_url')}
                description={t('settings.scimHint')}
                value={settings.scim_base_url}
                testId="sso-scim-url"
              />,
            )}
          </Grid>

          <Stack gap="sm" role="group" aria-labelledby="sso-accounts-title">
            <Title order={3} size="h5" id="sso-accounts-title">
              {t('settings.accountsTitle')}
            </Title>
            <Grid gap="md">
              {col(
                <TextInput
                  label={t('fields.groups_claim')}
                  description={t('settings.claimHint')}
                  autoComplete="off"
                  maxLength={SSO_LIMITS.claimMax}
                  {...form.getInputProps('groups_claim')}
                  name="groups_claim"
                />,
              )}
              {col(
                <NativeSelect
                  label={t('fields.default_role')}
                  description={t('settings.defaultRoleHint')}
                  {...form.getInputProps('default_role')}
                  onChange={(event) =>
                    form.setFieldValue('default_role', event.currentTarget.value as SsoMappableRole)
                  }
                  data={roleOptions}
                  name="default_role"
                />,
              )}
            </Grid>
            <Text size="sm" fw={600} id="sso-mappings-title">
              {t('mappings.title')}
            </Text>
            <Text size="sm" c="dimmed" id="sso-mappings-hint">
              {t('mappings.hint')}
            </Text>
            <Stack
              gap="xs"
              role="group"
              aria-labelledby="sso-mappings-title"
              aria-describedby="sso-mappings-hint"
              data-testid="sso-mappings"
            >
              {mappings.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('mappings.empty')}
                </Text>
              )}
              {mappings.map((mapping, i) => (
                <Group key={mapping.key} align="flex-end" gap="xs" data-row={mapping.key}>
                  <TextInput
                    label={t('mappings.group', { n: i + 1 })}
                    value={mapping.group}
                    maxLength={SSO_LIMITS.groupMax}
                    autoComplete="off"
                    onChange={(event) => {
                      const group = event.currentTarget.value;
                      setMappings(
                        mappings.map((m) => (m.key === mapping.key ? { ...m, group } : m)),
                      );
                    }}
                    style={{ flex: 2, minWidth: 160 }}
                    name={`role_mappings.${i}.group`}
                  />
                  <NativeSelect
                    label={t('mappings.role', { n: i + 1 })}
                    value={mapping.role}
                    data={roleOptions}
                    onChange={(event) => {
                      const role = event.currentTarget.value as SsoMappableRole;
                      setMappings(
                        mappings.map((m) => (m.key === mapping.key ? { ...m, role } : m)),
                      );
                    }}
                    style={{ flex: 1, minWidth: 160 }}
                    name={`role_mappings.${i}.role`}
                  />
                  <Button
                    variant="subtle"
                    color="red"
                    onClick={() => setMappings(mappings.filter((m) => m.key !== mapping.key))}
                    aria-label={t('mappings.removeOf', { n: i + 1 })}
                  >
                    {t('mappings.remove')}
                  </Button>
                </Group>
              ))}
              {mappingsError && (
                <Text c="red.8" size="sm" role="alert">
                  {mappingsError}
                </Text>
              )}
              <Button
                variant="light"
                size="xs"
                w="fit-content"
                onClick={addMapping}
                disabled={mappings.length >= SSO_LIMITS.mappingsMax}
                data-path="role_mappings"
              >
                {t('mappings.add')}
              </Button>
            </Stack>
            <Switch
              label={t('fields.allow_jit')}
              description={t('settings.jitHint')}
              {...form.getInputProps('allow_jit', { type: 'checkbox' })}
              name="allow_jit"
            />
          </Stack>

          <Stack gap="xs">
            <Switch
              label={t('fields.enforced')}
              description={t('settings.enforcedHint')}
              color="orange"
              {...form.getInputProps('enforced', { type: 'checkbox' })}
              name="enforced"
            />
            {values.enforced && (
              <Alert color="orange" title={t('settings.enforcedWarningTitle')}>
                {t('settings.enforcedWarning')}
              </Alert>
            )}
          </Stack>

          <FeedbackAlert feedback={props.feedback} testId="sso-feedback" />
          <Group>
            <Button type="submit" loading={busy} disabled={busy}>
              {t('settings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PanelSection>
  );
}
