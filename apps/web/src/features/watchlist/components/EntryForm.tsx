/**
 * A watchlist entry's form (issue 31): a person by name, e-mail, phone or ID number (at least
 * a full name or one identifier), the reason and the last day it holds. The shared
 * `watchlistEntryInputSchema` checks it here and again on the server.
 */
import { Textarea, TextInput } from '@mantine/core';
import {
  TEXT_MAX,
  WATCHLIST_LIMITS,
  watchlistEntryInputSchema,
  type WatchlistEntry,
  type WatchlistEntryInput,
} from '@sesame/shared';
import { DateField } from '../../../components/DateField';
import type { Feedback } from '../../../components/FeedbackAlert';
import { InlineForm, col, useFocusOnOpen } from '../../../components/InlineForm';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { entryName, entryValues, type EntryValues } from '../lib/watchlist';

export function EntryForm(props: {
  entry?: WatchlistEntry;
  feedback: Feedback | null;
  onSubmit: (input: WatchlistEntryInput) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation('watchlist');
  const { entry } = props;
  const { form, submit, summary, busy } = useSchemaForm(watchlistEntryInputSchema, {
    ns: 'watchlist',
    initialValues: entryValues(entry),
    onSubmit: (data) => props.onSubmit(data),
  });
  useFocusOnOpen(form, 'lastname');
  const text = (field: keyof EntryValues, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      autoComplete="off"
      {...form.getInputProps(field)}
      name={field}
      {...extra}
    />
  );
  const titleId = entry ? `watchlist-form-${entry.id}` : 'watchlist-form-new';

  return (
    <InlineForm
      titleId={titleId}
      title={
        entry
          ? t('form.editTitle', { name: entryName(entry) || entry.email || '' })
          : t('form.createTitle')
      }
      summary={summary}
      feedback={props.feedback}
      submit={submit}
      busy={busy}
      submitLabel={entry ? t('form.save') : t('form.create')}
      cancelLabel={t('form.cancel')}
      onCancel={props.onCancel}
    >
      {col(text('lastname', { maxLength: TEXT_MAX.name, description: t('form.identifierHint') }))}
      {col(text('firstname', { maxLength: TEXT_MAX.name }))}
      {col(text('email', { type: 'email', maxLength: TEXT_MAX.email, spellCheck: false }))}
      {col(text('phone', { type: 'tel', description: t('form.phoneHint') }))}
      {col(text('id_number', { maxLength: TEXT_MAX.identifier, spellCheck: false }))}
      {col(
        <DateField
          label={t('fields.until')}
          description={t('form.untilHint')}
          calendarLabel={t('form.untilCalendar')}
          language={i18n.language}
          placeholder="JJ/MM/AAAA"
          {...form.getInputProps('until')}
          value={form.values.until}
          onChange={(value) => form.setFieldValue('until', value)}
          name="until"
        />,
      )}
      {col(
        <Textarea
          label={t('fields.reason')}
          description={t('form.reasonHint')}
          required
          autosize
          minRows={2}
          maxLength={WATCHLIST_LIMITS.reasonMax}
          {...form.getInputProps('reason')}
          name="reason"
        />,
        12,
      )}
    </InlineForm>
  );
}
