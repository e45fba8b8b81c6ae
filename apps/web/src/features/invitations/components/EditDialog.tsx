/**
 * "Modifier" on "Mes visiteurs" (issue 30): an invitation's meeting changed in a dialog — the
 * same fields as the invite form, checked by the shared schedule schema; the server writes the
 * days again and sends each visitor the change.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import {
  invitationScheduleSchema,
  type InvitationSchedule,
  type InvitedVisit,
  type Site,
} from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { SubmitSummary } from '../../../components/FormFrame';
import { usePhoneLayout } from '../../../components/ResponsiveRows';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { DEFAULT_TIMEZONE, todayIn } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { updateInvitation } from '../api/invitations';
import {
  scheduleInput,
  scheduleProblems,
  scheduleValues,
  withDottedPaths,
  type ScheduleValues,
} from '../lib/invitations';
import { ScheduleFields } from './ScheduleFields';

const schema = withDottedPaths<InvitationSchedule>(invitationScheduleSchema);

export function EditDialog(props: {
  visit: InvitedVisit;
  /** The company's active sites (the invitation's own stays when archived). */
  sites: Site[];
  onClose: () => void;
  onSaved: (message: string) => void;
}) {
  const { t } = useTranslation('invitations');
  const { visit } = props;
  const phone = usePhoneLayout();
  const name = `${visit.firstname} ${visit.lastname}`.trim();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const sites = props.sites;
  const zoneOf = (siteId: string) =>
    sites.find((site) => site.id === siteId)?.timezone ??
    (siteId === visit.site.id ? visit.site.timezone : DEFAULT_TIMEZONE);

  const { form, submit, summary, busy } = useSchemaForm<ScheduleValues, InvitationSchedule>(
    schema,
    {
      ns: 'invitations',
      initialValues: scheduleValues(visit.site.id, visit),
      toInput: scheduleInput,
      check: (values) => {
        const problems = scheduleProblems(values, todayIn(zoneOf(values.site_id)), visit.date);
        return {
          date: problems.date && t(`form.errors.${problems.date}`),
          until: problems.until && t(`form.errors.${problems.until}`),
        };
      },
      onSubmit: async (data) => {
        setFeedback(null);
        try {
          const answer = await updateInvitation(visit.invitation_id, data);
          props.onSaved(answer.message);
          return undefined;
        } catch (error) {
          const status = error instanceof ApiError ? error.status : 0;
          setFeedback({
            color: 'red',
            title:
              serverMessageOf(error) ??
              (status === 0 ? t('edit.failed') : t('edit.failedStatus', { status })),
          });
          return error instanceof ApiError ? error.errors : undefined;
        }
      },
    },
  );

  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t('edit.title', { name })}
      size="lg"
      closeOnClickOutside={!busy}
      // 44 px on a phone, as every control there.
      closeButtonProps={{ size: phone ? 'xl' : 'md', 'aria-label': t('common:close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {visit.group_size > 1 && (
            <Text size="sm">{t('edit.group', { count: visit.group_size })}</Text>
          )}
          <ScheduleFields form={form} sites={sites} idPrefix={`edit-${visit.request_id}`} />
          <SubmitSummary summary={summary} feedback={feedback} />
          <FeedbackAlert feedback={feedback} />
          <Group>
            <Button type="submit" loading={busy}>
              {t('edit.save')}
            </Button>
            <Button variant="default" onClick={props.onClose} disabled={busy}>
              {t('edit.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
