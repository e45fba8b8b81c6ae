/**
 * A webhook's form (issue 34): the receiver's address and the events it hears, and at its
 * creation an optional secret of the receiver's own (blank: the server draws one). The
 * shared schemas (the server's own) check it here with the server's words.
 */
import { PasswordInput } from '@mantine/core';
import {
  WEBHOOK_EVENTS,
  webhookInputSchema,
  webhookUpdateSchema,
  type Webhook,
  type WebhookEvent,
  type WebhookInput,
} from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { InlineForm, col, useFocusOnOpen } from '../../../components/InlineForm';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import type { WebhookUpdate } from '../api/webhooks';
import { ChoiceList } from './ChoiceList';
import { ReceiverUrlInput } from './ReceiverUrlInput';

interface WebhookValues {
  url: string;
  events: WebhookEvent[];
  secret: string;
}

export type WebhookSubmitted =
  | { mode: 'create'; input: WebhookInput }
  | { mode: 'edit'; webhook: Webhook; input: WebhookUpdate };

export function WebhookForm(props: {
  /** The endpoint changed; none: a new one. */
  webhook?: Webhook;
  feedback: Feedback | null;
  onSubmit: (submitted: WebhookSubmitted) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('integrations');
  const { webhook } = props;
  const { form, submit, summary, busy } = useSchemaForm<
    WebhookValues,
    WebhookInput | WebhookUpdate
  >(webhook ? webhookUpdateSchema : webhookInputSchema, {
    ns: 'integrations',
    keys: { errors: 'errors', fields: 'webhooks.fields' },
    initialValues: { url: webhook?.url ?? '', events: webhook?.events ?? [], secret: '' },
    toInput: (values) => ({
      url: values.url,
      events: values.events,
      ...(!webhook && values.secret.trim() ? { secret: values.secret } : {}),
    }),
    onSubmit: (input) =>
      props.onSubmit(
        webhook
          ? { mode: 'edit', webhook, input }
          : { mode: 'create', input: input as WebhookInput },
      ),
  });
  useFocusOnOpen(form, 'url');
  const titleId = webhook ? `webhook-form-${webhook.id}` : 'webhook-form-new';

  return (
    <InlineForm
      titleId={titleId}
      title={t(webhook ? 'webhooks.edit.title' : 'webhooks.create.title')}
      summary={summary}
      feedback={props.feedback}
      submit={submit}
      busy={busy}
      submitLabel={t(webhook ? 'webhooks.edit.submit' : 'webhooks.create.submit')}
      cancelLabel={t('cancel')}
      onCancel={props.onCancel}
    >
      {col(
        <ReceiverUrlInput
          label={t('webhooks.fields.url')}
          description={t('webhooks.create.urlHint')}
          input={form.getInputProps('url')}
        />,
        webhook ? 12 : 6,
      )}
      {!webhook &&
        col(
          <PasswordInput
            label={t('webhooks.fields.secret')}
            description={t('webhooks.create.secretHint')}
            autoComplete="off"
            {...form.getInputProps('secret')}
            name="secret"
          />,
        )}
      {col(
        <ChoiceList
          label={t('webhooks.fields.events')}
          description={t('webhooks.create.eventsHint')}
          name="events"
          options={WEBHOOK_EVENTS}
          labelOf={(event) => t(`webhooks.events.${event}`)}
          value={form.values.events}
          onChange={(events) => form.setFieldValue('events', events)}
          error={form.getInputProps('events').error}
        />,
        12,
      )}
    </InlineForm>
  );
}
