/**
 * `/{domain}/my-mail-settings` (issue 15, issue 34): 'Mes notifications' — the signed-in
 * person's own settings: the language of the mails Sésame sends them, whether they are told
 * of their visitor's arrival at all, and for each of the host's messages whether it comes by
 * mail, by the company's chat (Slack or Teams) or both. The chat choices wait for the
 * company to connect a chat. Issue 35: for the people who read the dashboard, the weekly
 * summary mail and the site it reports on (every site they may see, or one of them).
 */
import { useState } from 'react';
import {
  Alert,
  Button,
  Center,
  Container,
  Loader,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  HOST_NOTIFICATIONS,
  NOTIFICATION_CHANNELS,
  type MailPreferences,
  type mailPreferencesResponseSchema,
  type NotificationChannel,
} from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { PageTitle } from '../../../components/PageTitle';
import { api, serverMessageOf } from '../../../lib/api-client';
import '@mantine/core/styles/Switch.css';

/** What GET and PUT answer: the settings, and whether the company has a chat connected. */
type NotificationSettings = z.infer<typeof mailPreferencesResponseSchema>['data'];

const KEY = ['me', 'mail-preferences'] as const;

/** The site choice's value for "every site I may see" (the server's null). */
const ALL_MY_SITES = 'all';

export default function MailPreferencesPage() {
  // Both namespaces here, before any other hook: the form below then never waits for words
  // (a wait in its first render, its words arriving during React's replay, broke its hooks).
  const { t } = useTranslation(['hostLoop', 'integrations']);
  const current = useQuery({
    queryKey: KEY,
    queryFn: () =>
      api.get<{ data: NotificationSettings }>('/me/mail-preferences').then((r) => r.data),
  });

  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }}>
      <PageTitle ta="center">{t('preferences.title')}</PageTitle>
      {current.isError ? (
        <Alert color="red" role="alert">
          {serverMessageOf(current.error) ?? t('decision.failed')}
        </Alert>
      ) : !current.data ? (
        <Center py="xl">
          <Loader aria-label={t('common:loading')} />
        </Center>
      ) : (
        <PreferencesForm initial={current.data} />
      )}
    </Container>
  );
}

function PreferencesForm({ initial }: { initial: NotificationSettings }) {
  const { t } = useTranslation(['hostLoop', 'integrations']);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<NotificationSettings>(initial);
  const chat = initial.chat_available;
  const save = useMutation({
    mutationFn: ({ language, arrival_mail, channels, ...weekly }: NotificationSettings) =>
      api.put<{ message?: string; data: NotificationSettings }>('/me/mail-preferences', {
        language,
        arrival_mail,
        channels,
        // Only who may have the weekly summary sends it (the server refuses it to others).
        ...(weekly.weekly_report_available
          ? {
              weekly_report: weekly.weekly_report,
              weekly_report_site_id: weekly.weekly_report_site_id,
            }
          : {}),
      } satisfies MailPreferences),
    onSuccess: (result) => {
      queryClient.setQueryData(KEY, result.data);
      notifications.show({ color: 'teal', message: result.message ?? t('preferences.saved') });
    },
    onError: (error) =>
      notifications.show({ color: 'red', message: serverMessageOf(error) ?? t('decision.failed') }),
  });
  const choose = (message: (typeof HOST_NOTIFICATIONS)[number], value: string) =>
    setDraft({
      ...draft,
      channels: { ...draft.channels, [message]: value as NotificationChannel },
    });

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <Stack gap="lg">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="mail-language">
            {t('preferences.language')}
          </Text>
          <SegmentedControl
            aria-labelledby="mail-language"
            value={draft.language}
            onChange={(value) => setDraft({ ...draft, language: value === 'en' ? 'en' : 'fr' })}
            data={[
              { value: 'fr', label: 'Français' },
              { value: 'en', label: 'English' },
            ]}
          />
          <Text size="xs" c="dimmed">
            {t('preferences.languageHint')}
          </Text>
        </Stack>
        <Switch
          label={t('preferences.arrivalMail')}
          checked={draft.arrival_mail}
          onChange={(event) => setDraft({ ...draft, arrival_mail: event.currentTarget.checked })}
          data-testid="arrival-mail-switch"
        />
        <Stack gap="sm" role="group" aria-labelledby="notification-channels-title">
          <Title order={2} size="h5" id="notification-channels-title">
            {t('integrations:notifications.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('integrations:notifications.intro')}
          </Text>
          {!chat && (
            <Alert color="gray" data-testid="no-chat" id="no-chat">
              {t('integrations:notifications.noChat')}
            </Alert>
          )}
          {HOST_NOTIFICATIONS.map((message) => {
            const off = message === 'arrival' && !draft.arrival_mail;
            const labelId = `notification-${message}`;
            return (
              <Stack gap={4} key={message}>
                <Text size="sm" fw={500} id={labelId}>
                  {t(`integrations:notifications.messages.${message}`)}
                </Text>
                <SegmentedControl
                  aria-labelledby={labelId}
                  aria-describedby={chat ? undefined : 'no-chat'}
                  name={`channels.${message}`}
                  fullWidth
                  disabled={off}
                  value={draft.channels[message]}
                  onChange={(value) => choose(message, value)}
                  data={NOTIFICATION_CHANNELS.map((channel) => ({
                    value: channel,
                    label: t(`integrations:notifications.channels.${channel}`),
                    disabled: channel !== 'mail' && !chat,
                  }))}
                  data-testid={`channels-${message}`}
                />
                {off && (
                  <Text size="xs" c="dimmed">
                    {t('integrations:notifications.arrivalOff')}
                  </Text>
                )}
              </Stack>
            );
          })}
        </Stack>
        {initial.weekly_report_available && (
          <WeeklyReportSettings
            value={draft}
            sites={initial.weekly_report_sites ?? []}
            onChange={(weekly) => setDraft({ ...draft, ...weekly })}
          />
        )}
        <Button onClick={() => save.mutate(draft)} loading={save.isPending} w="fit-content">
          {t('preferences.save')}
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * The weekly summary (issue 35): its switch, and the site it reports on (shown when the
 * person may see several): every one of their sites, or one.
 */
function WeeklyReportSettings({
  value,
  sites,
  onChange,
}: {
  value: Pick<NotificationSettings, 'weekly_report' | 'weekly_report_site_id'>;
  sites: NotificationSettings['weekly_report_sites'];
  onChange(weekly: Pick<NotificationSettings, 'weekly_report' | 'weekly_report_site_id'>): void;
}) {
  const { t } = useTranslation(['hostLoop']);
  return (
    <Stack gap="sm">
      <Switch
        label={t('preferences.weeklyReport')}
        description={t('preferences.weeklyReportHint')}
        checked={value.weekly_report}
        onChange={(event) => onChange({ ...value, weekly_report: event.currentTarget.checked })}
        data-testid="weekly-report-switch"
      />
      {sites.length > 1 && (
        <Select
          label={t('preferences.weeklyReportSite')}
          disabled={!value.weekly_report}
          allowDeselect={false}
          value={value.weekly_report_site_id ?? ALL_MY_SITES}
          onChange={(site) =>
            onChange({
              ...value,
              weekly_report_site_id: !site || site === ALL_MY_SITES ? null : site,
            })
          }
          data={[
            { value: ALL_MY_SITES, label: t('preferences.weeklyReportAllSites') },
            ...sites.map((site) => ({ value: site.id, label: site.name })),
          ]}
          comboboxProps={{ withinPortal: true }}
          data-testid="weekly-report-site"
        />
      )}
    </Stack>
  );
}
