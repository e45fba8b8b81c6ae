/**
 * 'Confidentialité' (issue 16): how long this company keeps identity documents,
 * visitor identities, check history and its audit log, and the privacy notice its
 * visitor and event forms show. Its own form and its own call, beside the company form.
 *
 * Issue 26: the audit log's field starts at the operator's floor, which the server sends
 * with the settings (and enforces again); a shortened period waits for its date, shown
 * under its field, while the field holds the period asked for, so saving the form again
 * keeps that date, and entering today's period again cancels the shortening.
 */
import { useMemo } from 'react';
import { Alert, Button, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import {
  RETENTION_CLASSES,
  RETENTION_MAX_DAYS,
  retentionSettingsSchemaFor,
  type RetentionClass,
  type RetentionSettings,
  type RetentionSettingsResponse,
} from '@sesame/shared';
import { QueryState } from '../../../components/QueryState';
import { TitledSection } from '../../../components/TitledSection';
import { api, serverMessageOf } from '../../../lib/api-client';
import { formatLongDate } from '../../../lib/format';
import { useSchemaForm } from '../../../lib/use-schema-form';
import '@mantine/core/styles/NumberInput.css';

const LABELS: Record<RetentionClass, string> = {
  documents_days: 'documentsDays',
  identity_days: 'identityDays',
  checks_days: 'checksDays',
  audit_days: 'auditDays',
  signatures_days: 'signaturesDays',
};

/** A number input holds '' while it is being emptied: the schema says so on submit. */
type PrivacyValues = Record<RetentionClass, number | string> & {
  privacy_notice: string;
  privacy_notice_en: string;
};

/** The notice in each language a visitor may fill the form in, and its preview. */
const NOTICES = [
  {
    field: 'privacy_notice',
    lang: 'fr',
    label: 'settings.notice',
    help: 'settings.noticeHelp',
    preview: 'settings.preview',
    shown: 'notice_text',
  },
  {
    field: 'privacy_notice_en',
    lang: 'en',
    label: 'settings.noticeEn',
    help: 'settings.noticeEnHelp',
    preview: 'settings.previewEn',
    shown: 'notice_text_en',
  },
] as const;

/** What each field holds: the period asked for (a shortening to come), else today's. */
function askedOf(settings: RetentionSettingsResponse, kind: RetentionClass): number {
  return settings.pending[kind]?.days ?? settings[kind];
}

interface FormProps {
  companyId: string;
  timeZone: string | undefined;
  initial: RetentionSettingsResponse;
}

function PrivacyForm({ companyId, timeZone, initial }: FormProps) {
  const { t, i18n } = useTranslation('privacy');
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: RetentionSettings) =>
      api.put<{ message: string; data: RetentionSettingsResponse }>(
        `/company/${companyId}/privacy`,
        body,
      ),
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

  // The server's own rule, with the floor it sent.
  const schema = useMemo(
    () => retentionSettingsSchemaFor(initial.audit_min_days),
    [initial.audit_min_days],
  );
  const initialValues: PrivacyValues = {
    documents_days: askedOf(initial, 'documents_days'),
    identity_days: askedOf(initial, 'identity_days'),
    checks_days: askedOf(initial, 'checks_days'),
    audit_days: askedOf(initial, 'audit_days'),
    signatures_days: askedOf(initial, 'signatures_days'),
    privacy_notice: initial.privacy_notice ?? '',
    privacy_notice_en: initial.privacy_notice_en ?? '',
  };
  const { form, submit } = useSchemaForm(schema, {
    ns: 'privacy',
    initialValues,
    // The mutation's own handlers say how it went.
    onSubmit: (data) =>
      save.mutateAsync(data).then(
        () => undefined,
        () => undefined,
      ),
  });

  const description = (kind: RetentionClass) => {
    const lines: string[] = [];
    if (kind === 'audit_days')
      lines.push(t('settings.auditFloor', { min: initial.audit_min_days }));
    const pending = initial.pending[kind];
    if (pending)
      lines.push(
        t('settings.pending', {
          count: pending.days,
          date: formatLongDate(pending.applies_at, timeZone, i18n.language),
          current: initial[kind],
        }),
      );
    return lines.length ? lines.join(' ') : undefined;
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('settings.title')}>
      <Stack gap="sm">
        <Text size="sm">{t('settings.intro')}</Text>
        <Text size="sm">{t('settings.delays', { days: initial.shortening_delay_days })}</Text>
        {RETENTION_CLASSES.map((kind) => (
          <NumberInput
            key={kind}
            name={kind}
            label={t(`settings.${LABELS[kind]}`)}
            description={description(kind)}
            min={kind === 'audit_days' ? initial.audit_min_days : 1}
            max={RETENTION_MAX_DAYS[kind]}
            allowDecimal={false}
            {...form.getInputProps(kind)}
          />
        ))}
        {/* Issue 27: a visitor accepts a notice they can read, in the form's language. */}
        {NOTICES.map(({ field, lang, label, help, preview, shown }) => (
          <Stack key={field} gap="sm">
            <Textarea
              name={field}
              label={t(label)}
              description={t(help)}
              autosize
              minRows={3}
              maxLength={2000}
              lang={lang}
              {...form.getInputProps(field)}
            />
            <Alert variant="light" title={t(preview)}>
              <Text
                size="sm"
                lang={lang}
                data-testid={`privacy-notice-preview${lang === 'fr' ? '' : '-en'}`}
              >
                {initial[shown]}
              </Text>
            </Alert>
          </Stack>
        ))}
        <Button type="submit" loading={save.isPending} w="fit-content">
          {t('settings.save')}
        </Button>
      </Stack>
    </form>
  );
}

/** Remounts the form when the server's settings change (a save, another tab's). */
function settingsKey(settings: RetentionSettingsResponse): string {
  const periods = RETENTION_CLASSES.map(
    (kind) =>
      `${settings[kind]}:${settings.pending[kind]?.days ?? ''}:${settings.pending[kind]?.applies_at ?? ''}`,
  );
  return [
    ...periods,
    settings.audit_min_days,
    settings.privacy_notice ?? '',
    settings.privacy_notice_en ?? '',
  ].join('-');
}

/**
 * The section, for the company edit page (admin and manager: `privacy.settings`); the
 * dates of shortenings to come are shown in the company's time zone.
 */
export function PrivacySection({ companyId, timeZone }: { companyId: string; timeZone?: string }) {
  const { t } = useTranslation('privacy');
  const query = useQuery({
    queryKey: ['company-privacy', companyId],
    queryFn: () =>
      api
        .get<{ data: RetentionSettingsResponse }>(`/company/${companyId}/privacy`)
        .then((answer) => answer.data),
  });
  return (
    <TitledSection id="privacy-title" title={t('settings.title')} titleSize="h3" mt="xl">
      <QueryState
        query={query}
        errorText={(error) => serverMessageOf(error) ?? t('settings.loadFailed')}
      >
        {(settings) => (
          <PrivacyForm
            key={settingsKey(settings)}
            companyId={companyId}
            timeZone={timeZone}
            initial={settings}
          />
        )}
      </QueryState>
    </TitledSection>
  );
}
