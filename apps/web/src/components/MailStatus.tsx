/**
 * A visitor's mails as staff see them (issue 12 §5, issue 15): the code mail: queued, sending, sent,
 * retrying or failed with the mail server's reason, and Renvoyer for those who
 * may confirm requests or run events. Shown on the request list, the event's
 * participants and the meeting card.
 */
import { Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n';
import type { MailState, MailStatus as Mail } from '@sesame/shared';
import { api, ApiError } from '../lib/api-client';

const COLORS: Record<MailState, string> = {
  queued: 'gray',
  sending: 'blue',
  sent: 'teal',
  retrying: 'yellow',
  failed: 'red',
  cancelled: 'gray',
};

type Target = { visitorId: string } | { uidn: string };

function fetchMails(target: Target): Promise<{ data: Mail[]; visitor_id?: string }> {
  return 'visitorId' in target
    ? api.get(`/mail/visitor/${encodeURIComponent(target.visitorId)}`)
    : api.get(`/mail/code/${encodeURIComponent(target.uidn)}`);
}

export function MailStatus({ canResend, ...target }: Target & { canResend: boolean }) {
  // The host loop's mail kinds are named in its namespace (issue 27: the list showed raw keys).
  const { t, ready } = useTranslation(['common', 'hostLoop'], { useSuspense: false });
  const queryClient = useQueryClient();
  const key = ['mail', 'visitorId' in target ? target.visitorId : target.uidn];
  const mails = useQuery({ queryKey: key, queryFn: () => fetchMails(target), retry: false });
  const resend = useMutation({
    mutationFn: (visitorId: string) =>
      api.post<{ message: string }>(`/mail/visitor/${encodeURIComponent(visitorId)}/resend`),
    onSuccess: async (answer) => {
      notifications.show({ message: answer.message, color: 'teal' });
      await queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => {
      notifications.show({
        message: error instanceof ApiError ? error.message : t('mail.resendFailed'),
        color: 'red',
      });
    },
  });

  if (mails.isPending || mails.isError || !ready) return null;
  // The code mail's state first (the one Renvoyer sends again); the host loop's other
  // mails (issue 15: acknowledgement, host request, decline, reminder, arrival) beneath.
  const code = mails.data.data.find((m) => m.kind === 'visitor_code');
  const latest = code ?? mails.data.data[0];
  if (!latest) {
    return (
      <Text size="xs" c="dimmed">
        {t('mail.none')}
      </Text>
    );
  }
  const visitorId = 'visitorId' in target ? target.visitorId : mails.data.visitor_id;
  const badge = (
    <Badge color={COLORS[latest.state]} variant="light" data-mail-state={latest.state}>
      {t(`mail.states.${latest.state}`)}
    </Badge>
  );
  return (
    <Stack gap={2} align="flex-start">
      {/* Renvoyer goes under the state when the column or the card is narrow (issue 27). */}
      <Group gap="xs">
        {latest.last_error ? (
          <Tooltip label={latest.last_error} multiline w={280}>
            {badge}
          </Tooltip>
        ) : (
          badge
        )}
        {canResend && visitorId && code && latest.state !== 'sending' && (
          <Button
            size="compact-xs"
            variant="subtle"
            loading={resend.isPending}
            onClick={() => resend.mutate(visitorId)}
            aria-label={t('mail.resendLabel', { to: latest.to })}
          >
            {t('mail.resend')}
          </Button>
        )}
      </Group>
      {latest.state === 'failed' && latest.last_error && (
        <Text size="xs" c="red.8">
          {latest.last_error}
        </Text>
      )}
      {mails.data.data.length > 1 && (
        <Text size="xs" c="dimmed" data-testid="other-mails">
          {mails.data.data
            .filter((m) => m !== latest)
            .slice(0, 5)
            .map(
              (m) =>
                `${t(`hostLoop:mailKinds.${m.kind}`)}${t('hostLoop:colon')}${t(`mail.states.${m.state}`)}`,
            )
            .join(' · ')}
        </Text>
      )}
    </Stack>
  );
}
