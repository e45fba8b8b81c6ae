/**
 * "Annuler" on "Mes visiteurs" (issue 30), asked first: the whole invitation, this visitor
 * only (a group), or one day (a recurring invitation: its upcoming days not yet cancelled).
 * The visitors concerned get the cancellation by mail.
 */
import { useState } from 'react';
import { Button, Group, Modal, NativeSelect, Radio, Stack, Text } from '@mantine/core';
import type { InvitationCancel, InvitedVisit } from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { usePhoneLayout } from '../../../components/ResponsiveRows';
import { serverMessageOf } from '../../../lib/api-client';
import { todayIn } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { cancelInvitation } from '../api/invitations';
import { cancellableDays, dayInWords, type Lang } from '../lib/invitations';
import '@mantine/core/styles/Radio.css';

type What = 'visitor' | 'invitation' | 'day';

export function CancelDialog(props: {
  visit: InvitedVisit;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t, i18n } = useTranslation('invitations');
  const lang: Lang = i18n.language.startsWith('en') ? 'en' : 'fr';
  const { visit } = props;
  const phone = usePhoneLayout();
  const name = `${visit.firstname} ${visit.lastname}`.trim();
  const days = visit.rrule ? cancellableDays(visit, todayIn(visit.site.timezone)) : [];
  const group = visit.group_size > 1;
  const choices: What[] = [
    ...(group ? (['visitor'] as const) : []),
    'invitation',
    ...(days.length > 1 ? (['day'] as const) : []),
  ];
  const [what, setWhat] = useState<What>(choices[0]!);
  const [day, setDay] = useState(days[0] ?? '');
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const body = (): InvitationCancel =>
    what === 'visitor' ? { request_id: visit.request_id } : what === 'day' ? { day } : {};

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    setFeedback(null);
    try {
      const answer = await cancelInvitation(visit.invitation_id, body());
      props.onDone(answer.message);
    } catch (error) {
      setFeedback({ color: 'red', title: serverMessageOf(error) ?? t('cancel.failed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('cancel.title', { name })}
      size="md"
      // 44 px on a phone, as every control there.
      closeButtonProps={{ size: phone ? 'xl' : 'md', 'aria-label': t('common:close') }}
    >
      <Stack gap="md">
        {choices.length === 1 ? (
          <Text>{t('cancel.body', { name })}</Text>
        ) : (
          <Radio.Group
            label={t('cancel.what')}
            value={what}
            onChange={(value) => setWhat(value as What)}
          >
            <Stack gap="sm" mt="xs">
              {choices.map((choice) => (
                <Radio
                  key={choice}
                  value={choice}
                  // A phone's finger needs the row's 44 px, its words included.
                  styles={{ body: { minHeight: '2.75rem', alignItems: 'center' } }}
                  label={
                    choice === 'visitor'
                      ? t('cancel.visitor', { name })
                      : choice === 'invitation'
                        ? group
                          ? t('cancel.group', { count: visit.group_size })
                          : t('cancel.series')
                        : t('cancel.day')
                  }
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {what === 'day' && (
          <NativeSelect
            label={t('cancel.dayLabel')}
            data={days.map((d) => ({ value: d, label: dayInWords(d, lang) }))}
            value={day}
            onChange={(e) => setDay(e.currentTarget.value)}
          />
        )}
        <Text size="sm" c="dimmed">
          {t('cancel.mail')}
        </Text>
        <FeedbackAlert feedback={feedback} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} disabled={busy}>
            {t('cancel.keep')}
          </Button>
          <Button
            color="red.9"
            onClick={() => void confirm()}
            loading={busy}
            data-testid="cancel-confirm"
          >
            {what === 'day' ? t('cancel.confirmDay') : t('cancel.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
