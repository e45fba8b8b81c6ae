/**
 * 'Clôturer les inscriptions' (issue 17): deleting an event with participants says
 * 'Clôturez-le plutôt', and this is where. A confirmation first; the button is
 * disabled while the call runs; the server's answer is the toast.
 */
import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import type { Event } from '@sesame/shared';
import { serverMessageOf } from '../../../lib/api-client';
import { useCloseEvent } from '../api/events';

export function CloseEventButton(props: {
  event: Pick<Event, 'id' | 'name' | 'closed'>;
  size?: 'xs' | 'sm' | 'md';
}) {
  const { t } = useTranslation('events');
  const mutation = useCloseEvent();
  if (props.event.closed) return null;

  const confirm = () =>
    modals.openConfirmModal({
      title: t('close.confirmTitle', { name: props.event.name }),
      children: <Text size="sm">{t('close.confirmBody')}</Text>,
      labels: { confirm: t('close.confirm'), cancel: t('close.cancel') },
      confirmProps: { color: 'orange' },
      onConfirm: () => {
        mutation.mutate(props.event.id, {
          onSuccess: (answer) => notifications.show({ color: 'teal', message: answer.message }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: serverMessageOf(error) ?? t('close.failed'),
            }),
        });
      },
    });

  return (
    <Button
      size={props.size ?? 'xs'}
      color="orange"
      variant="light"
      loading={mutation.isPending}
      onClick={confirm}
      aria-label={t('close.label', { name: props.event.name })}
    >
      {t('close.button')}
    </Button>
  );
}
