/**
 * "Nouvelle clé API" (issue 34): a name, the scopes it opens, and an optional last day. The
 * shared `apiKeyInputSchema` (the server's own) checks it here with the server's words; the
 * day becomes the last instant of that day in the reader's time zone.
 */
import {
  API_KEY_LIMITS,
  API_KEY_SCOPES,
  apiKeyInputSchema,
  type ApiKeyInput,
  type ApiKeyScope,
} from '@sesame/shared';
import { DateField } from '../../../components/DateField';
import type { Feedback } from '../../../components/FeedbackAlert';
import { InlineForm, col, useFocusOnOpen } from '../../../components/InlineForm';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { endOfDay, localToday } from '../lib/integrations';
import { ChoiceList } from './ChoiceList';
import { NameInput } from './NameInput';

interface ApiKeyValues {
  name: string;
  scopes: ApiKeyScope[];
  /** DD/MM/YYYY, or blank for a key that works until revoked. */
  expires_at: string;
}

export function ApiKeyForm(props: {
  feedback: Feedback | null;
  onSubmit: (input: ApiKeyInput) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('integrations');
  const { form, submit, summary, busy } = useSchemaForm(apiKeyInputSchema, {
    ns: 'integrations',
    keys: { errors: 'errors', fields: 'apiKeys.fields' },
    initialValues: { name: '', scopes: [], expires_at: '' } as ApiKeyValues,
    toInput: (values) => ({
      name: values.name,
      scopes: values.scopes,
      expires_at: endOfDay(values.expires_at) ?? null,
    }),
    check: (values) => ({
      expires_at:
        endOfDay(values.expires_at) === undefined ? t('apiKeys.create.dateInvalid') : undefined,
    }),
    onSubmit: (input) => props.onSubmit(input),
  });
  useFocusOnOpen(form, 'name');

  return (
    <InlineForm
      titleId="api-key-form-title"
      title={t('apiKeys.create.title')}
      summary={summary}
      feedback={props.feedback}
      submit={submit}
      busy={busy}
      submitLabel={t('apiKeys.create.submit')}
      cancelLabel={t('cancel')}
      onCancel={props.onCancel}
    >
      {col(
        <NameInput
          label={t('apiKeys.fields.name')}
          placeholder={t('apiKeys.create.nameHint')}
          maxLength={API_KEY_LIMITS.nameMax}
          input={form.getInputProps('name')}
        />,
      )}
      {col(
        <DateField
          label={t('apiKeys.fields.expires_at')}
          description={t('apiKeys.create.expiresHint')}
          placeholder={t('apiKeys.create.datePlaceholder')}
          calendarLabel={t('apiKeys.create.calendar')}
          language={i18n.language}
          minDate={localToday()}
          {...form.getInputProps('expires_at')}
          value={form.values.expires_at}
          onChange={(value) => form.setFieldValue('expires_at', value)}
          name="expires_at"
        />,
      )}
      {col(
        <ChoiceList
          label={t('apiKeys.fields.scopes')}
          description={t('apiKeys.create.scopesHint')}
          name="scopes"
          options={API_KEY_SCOPES}
          labelOf={(scope) => t(`apiKeys.scopes.${scope}`)}
          value={form.values.scopes}
          onChange={(scopes) => form.setFieldValue('scopes', scopes)}
          error={form.getInputProps('scopes').error}
        />,
        12,
      )}
    </InlineForm>
  );
}
