/**
 * "Autoriser cette fois" or "Refuser" a held visit (issue 31): the reviewer gives a reason,
 * kept with the decision and in the audit log. The shared `holdDecisionSchema` checks it.
 */
import { Modal, Stack, Text, Textarea } from '@mantine/core';
import {
  WATCHLIST_LIMITS,
  holdDecisionSchema,
  type HoldDecision,
  type WatchlistHold,
} from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { SaveOrCancel, SubmitSummary } from '../../../components/FormFrame';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';

export function DecisionModal(props: {
  hold: WatchlistHold;
  decision: 'allow' | 'deny';
  feedback: Feedback | null;
  onSubmit: (input: HoldDecision) => Promise<Record<string, string> | undefined>;
  onClose: () => void;
}) {
  const { t } = useTranslation('watchlist');
  const { hold, decision } = props;
  const name = `${hold.visitor.firstname} ${hold.visitor.lastname}`.trim() || hold.visitor.email;
  const { form, submit, summary, busy } = useSchemaForm(holdDecisionSchema, {
    ns: 'watchlist',
    keys: { fields: 'reviews.fields' },
    initialValues: { decision, reason: '' },
    onSubmit: (data) => props.onSubmit(data),
  });

  return (
    <Modal
      opened
      onClose={props.onClose}
      title={t(`reviews.decide.${decision}Title`, { name })}
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <form onSubmit={submit} noValidate data-testid="hold-decision-form">
        <Stack gap="md">
          <Text size="sm">{t(`reviews.decide.${decision}Body`)}</Text>
          <SubmitSummary summary={summary} feedback={props.feedback} />
          <Textarea
            label={t('reviews.fields.reason')}
            required
            autosize
            minRows={3}
            maxLength={WATCHLIST_LIMITS.reasonMax}
            data-autofocus
            {...form.getInputProps('reason')}
            name="reason"
          />
          <SaveOrCancel
            feedback={props.feedback}
            busy={busy}
            submitLabel={t(`reviews.${decision}`)}
            submitColor={decision === 'deny' ? 'red.9' : 'teal.9'}
            cancelLabel={t('form.cancel')}
            onCancel={props.onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
