/**
 * `/{domain}/my-mail-settings` (issue 15): the signed-in person's own mail settings —
 * the language of the mails Sésame sends them, and whether they are told by mail when
 * their visitor arrives at the front desk.
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
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import type { MailPreferences } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { api, serverMessageOf } from '../../../lib/api-client';

const KEY = ['me', 'mail-preferences'] as const;

export default function MailPreferencesPage() {
  const { t } = useTranslation('hostLoop');
  const current = useQuery({
    queryKey: KEY,
    queryFn: () => api.get<{ data: MailPreferences }>('/me/mail-preferences').then((r) => r.data),
  });

  return (
    <Container size="xs" py={{ base: 'md', sm: 'xl' }}>
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

function PreferencesForm({ initial }: { initial: MailPreferences }) {
  const { t } = useTranslation('hostLoop');
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<MailPreferences>(initial);
  const save = useMutation({
    mutationFn: (body: MailPreferences) =>
      api.put<{ message?: string; data: MailPreferences }>('/me/mail-preferences', body),
    onSuccess: (result) => {
      queryClient.setQueryData(KEY, result.data);
      notifications.show({ color: 'teal', message: t('preferences.saved') });
    },
    onError: (error) =>
      notifications.show({ color: 'red', message: serverMessageOf(error) ?? t('decision.failed') }),
  });

  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
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
        <Button onClick={() => save.mutate(draft)} loading={save.isPending} w="fit-content">
          {t('preferences.save')}
        </Button>
      </Stack>
    </Paper>
  );
}
