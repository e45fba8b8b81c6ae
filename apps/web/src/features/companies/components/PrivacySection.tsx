/**
 * 'Confidentialité' (issue 16): how long this company keeps identity documents,
 * visitor identities, check history and its audit log, and the privacy notice its
 * visitor and event forms show. Its own form and its own call, beside the company form.
 */
import { Alert, Button, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { retentionSettingsSchema, type RetentionSettings } from '@sesame/shared';
import { QueryState } from '../../../components/QueryState';
import { TitledSection } from '../../../components/TitledSection';
import { api, serverMessageOf } from '../../../lib/api-client';
import { useSchemaForm } from '../../../lib/use-schema-form';
import '@mantine/core/styles/NumberInput.css';

interface Settings extends RetentionSettings {
  privacy_notice: string | null;
  notice_text: string;
}

const DAY_FIELDS = ['documents_days', 'identity_days', 'checks_days', 'audit_days'] as const;
const LABELS: Record<(typeof DAY_FIELDS)[number], string> = {
  documents_days: 'documentsDays',
  identity_days: 'identityDays',
  checks_days: 'checksDays',
  audit_days: 'auditDays',
};

/** A number input holds '' while it is being emptied: the schema says so on submit. */
type PrivacyValues = Record<(typeof DAY_FIELDS)[number], number | string> & {
  privacy_notice: string;
};

function PrivacyForm({ companyId, initial }: { companyId: string; initial: Settings }) {
  const { t } = useTranslation('privacy');
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: RetentionSettings) =>
      api.put<{ message: string; data: Settings }>(`/company/${companyId}/privacy`, body),
    onSuccess: (answer) => {
      client.setQueryData(['company-privacy', companyId], answer.data);
      notifications.show({ color: 'green', message: answer.message });
    },
    onError: (error) =>
      notifications.show({
        color: 'red',
        message: serverMessageOf(error) ?? t('settings.saveFailed'),
      }),
  });

  const initialValues: PrivacyValues = {
    documents_days: initial.documents_days,
    identity_days: initial.identity_days,
    checks_days: initial.checks_days,
    audit_days: initial.audit_days,
    privacy_notice: initial.privacy_notice ?? '',
  };
  const { form, submit } = useSchemaForm(retentionSettingsSchema, {
    ns: 'privacy',
    initialValues,
    // The mutation's own handlers say how it went.
    onSubmit: (data) =>
      save.mutateAsync(data).then(
        () => undefined,
        () => undefined,
      ),
  });

  return (
    <form onSubmit={submit} noValidate aria-label={t('settings.title')}>
      <Stack gap="sm">
        <Text size="sm">{t('settings.intro')}</Text>
        {DAY_FIELDS.map((field) => (
          <NumberInput
            key={field}
            name={field}
            label={t(`settings.${LABELS[field]}`)}
            min={1}
            max={7300}
            allowDecimal={false}
            {...form.getInputProps(field)}
          />
        ))}
        <Textarea
          name="privacy_notice"
          label={t('settings.notice')}
          description={t('settings.noticeHelp')}
          autosize
          minRows={3}
          maxLength={2000}
          {...form.getInputProps('privacy_notice')}
        />
        <Alert variant="light" title={t('settings.preview')}>
          <Text size="sm" data-testid="privacy-notice-preview">
            {initial.notice_text}
          </Text>
        </Alert>
        <Button type="submit" loading={save.isPending} w="fit-content">
          {t('settings.save')}
        </Button>
      </Stack>
    </form>
  );
}

/** The section, for the company edit page (admin and manager: `privacy.settings`). */
export function PrivacySection({ companyId }: { companyId: string }) {
  const { t } = useTranslation('privacy');
  const query = useQuery({
    queryKey: ['company-privacy', companyId],
    queryFn: () =>
      api.get<{ data: Settings }>(`/company/${companyId}/privacy`).then((answer) => answer.data),
  });
  return (
    <TitledSection id="privacy-title" title={t('settings.title')} titleSize="h3" mt="xl">
      <QueryState
        query={query}
        errorText={(error) => serverMessageOf(error) ?? t('settings.loadFailed')}
      >
        {(settings) => (
          <PrivacyForm
            key={`${settings.documents_days}-${settings.identity_days}-${settings.checks_days}-${settings.audit_days}-${settings.privacy_notice ?? ''}`}
            companyId={companyId}
            initial={settings}
          />
        )}
      </QueryState>
    </TitledSection>
  );
}
