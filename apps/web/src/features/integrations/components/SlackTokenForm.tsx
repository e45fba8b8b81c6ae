/**
 * "Messages directs Slack" (issue 34): the Slack bot token, write-only. The field never
 * shows the stored token: left blank, the stored one stays; "Retirer le jeton" removes it
 * (asked first). The shared `chatSettingsInputSchema` checks it as the server does.
 */
import { useState } from 'react';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CHAT_LIMITS, chatSettingsInputSchema } from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { PanelHeading, PanelSection } from '../../../components/InlineForm';
import { confirmAction } from '../../../components/RowActions';
import { ApiError } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { interfaceCatalogue } from '../../../lib/language';
import { fieldErrors, issueText } from '../../../lib/schema-errors';
import { saveFailedTitle, toastDone } from '../../../lib/use-inline-edit';
import { chatKeys, saveSlackToken } from '../api/chat';

export function SlackTokenForm({ company, hasToken }: { company: string; hasToken: boolean }) {
  const { t } = useTranslation('integrations');
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const save = useMutation({
    mutationFn: (value: string | null) => saveSlackToken(company, value),
    onMutate: () => {
      setFeedback(null);
      setError(undefined);
    },
    onSuccess: (answer, value) => {
      toastDone(answer, t(value === null ? 'chat.slack.removed' : 'chat.slack.saved'));
      // Write-only: what was typed leaves the page once it is stored.
      setToken('');
      if (answer.data) queryClient.setQueryData(chatKeys.settings(company), answer.data);
    },
    onError: (failure) => {
      const field = failure instanceof ApiError ? failure.errors?.slack_bot_token : undefined;
      if (field) setError(field);
      else setFeedback({ color: 'red', title: saveFailedTitle(failure, t) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.settings(company) }),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = chatSettingsInputSchema.safeParse({ slack_bot_token: token });
    const value = parsed.success ? parsed.data.slack_bot_token : undefined;
    if (!parsed.success) {
      const text = issueText(t, { errors: 'errors', fields: 'chat.fields' }, interfaceCatalogue());
      setError(fieldErrors(parsed.error.issues, text).errors.slack_bot_token);
      return;
    }
    if (!value) {
      // Blank keeps the stored token: there is nothing to send.
      setError(t('chat.slack.blank'));
      return;
    }
    save.mutate(value);
  };

  const confirmRemove = () =>
    confirmAction({
      title: t('chat.slack.removeTitle'),
      body: t('chat.slack.removeBody'),
      confirm: t('chat.slack.removeYes'),
      cancel: t('cancel'),
      danger: true,
      onConfirm: () => save.mutate(null),
    });

  return (
    <PanelSection titleId="slack-token-title" data-testid="slack-token">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PanelHeading
            titleId="slack-token-title"
            title={t('chat.slack.title')}
            intro={t('chat.slack.intro')}
          />
          <PasswordInput
            label={t('chat.slack.token')}
            description={t(hasToken ? 'chat.slack.stored' : 'chat.slack.none')}
            placeholder={hasToken ? t('chat.slack.keep') : 'xoxb-'}
            autoComplete="new-password"
            maxLength={CHAT_LIMITS.tokenMax}
            value={token}
            onChange={(event) => {
              setToken(event.currentTarget.value);
              setError(undefined);
            }}
            error={error}
            name="slack_bot_token"
            data-path="slack_bot_token"
          />
          <FeedbackAlert feedback={feedback} testId="slack-token-feedback" />
          <Group gap="sm">
            <Button type="submit" loading={save.isPending && save.variables !== null}>
              {t('chat.slack.save')}
            </Button>
            {hasToken && (
              <Button
                variant="light"
                color="red"
                onClick={confirmRemove}
                loading={save.isPending && save.variables === null}
              >
                {t('chat.slack.remove')}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </PanelSection>
  );
}
