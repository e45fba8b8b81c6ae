/**
 * Undo a check (issue 14): 'Annuler' on a person's last arrival or departure, for
 * whoever may record checks, within UNDO_WINDOW_MINUTES, with a reason; and how an
 * undone check reads in a list (struck through, who undid it and why).
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n';
import {
  TEXT_MAX,
  UNDO_WINDOW_MINUTES,
  checkUndoSchema,
  mayPerform,
  type CheckUndoResult,
} from '@sesame/shared';
import { api, serverMessageOf } from '../lib/api-client';
import { useAuth } from '../lib/auth';
import { useSchemaForm } from '../lib/use-schema-form';

/** Whether a check made at `at` may still be undone now. */
export function undoable(at: string | null, now: number = Date.now()): boolean {
  return !!at && now - new Date(at).getTime() <= UNDO_WINDOW_MINUTES * 60_000;
}

/**
 * 'Annuler' for the check `checkId`, whose last event (the departure if any, else the
 * arrival) was at `madeAt`; nothing when too late or the role may not record checks.
 * `onUndone` hears the undo before the lists refetch (the on-site screen announces it).
 */
export function UndoCheckButton({
  checkId,
  madeAt,
  name,
  onUndone,
}: {
  checkId: string;
  madeAt: string;
  name: string;
  onUndone?: (result: CheckUndoResult) => void;
}) {
  const { t } = useTranslation('common');
  const { role } = useAuth();
  const [opened, setOpened] = useState(false);
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (reason: string) =>
      api.post<CheckUndoResult>(`/checks/${checkId}/undo`, { reason }),
    // Every list that shows checks (logs, on site) reads the change.
    onSuccess: (result) => {
      onUndone?.(result);
      return client.invalidateQueries();
    },
  });
  const { form, submit, summary, setSummary } = useSchemaForm(checkUndoSchema, {
    ns: 'common',
    keys: { errors: 'undo.errors', fields: 'undo.fields' },
    initialValues: { reason: '' },
    onSubmit: async (data) => {
      try {
        const result = await mutation.mutateAsync(data.reason);
        notifications.show({ color: 'teal', message: result.message });
        setOpened(false);
        form.reset();
      } catch (error) {
        setSummary(serverMessageOf(error) ?? t('undo.failed'));
      }
    },
  });
  if (!role || !mayPerform(role, 'checks.record') || !undoable(madeAt)) return null;
  return (
    <>
      <Button size="compact-sm" variant="subtle" color="red" onClick={() => setOpened(true)}>
        {t('undo.action')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('undo.title', { name })}>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('undo.intro', { minutes: UNDO_WINDOW_MINUTES })}
            </Text>
            <Textarea
              label={t('undo.fields.reason')}
              required
              autosize
              minRows={2}
              maxLength={TEXT_MAX.freeText}
              data-autofocus
              {...form.getInputProps('reason')}
              name="reason"
            />
            {summary && (
              <Text size="sm" c="red" role="alert">
                {summary}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t('close')}
              </Button>
              <Button type="submit" color="red" loading={mutation.isPending}>
                {t('undo.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** 'Annulé par X : raison' under an undone arrival or departure. */
export function UndoneNote({ by, reason }: { by: string | null; reason: string | null }) {
  const { t } = useTranslation('common');
  return (
    <Text size="xs" c="red.8" data-testid="undone-note">
      {by
        ? t('undo.undoneBy', { by, reason: reason ?? '' })
        : t('undo.undone', { reason: reason ?? '' })}
    </Text>
  );
}
