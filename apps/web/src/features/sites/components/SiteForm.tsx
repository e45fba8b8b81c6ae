/**
 * A site's form (issue 28): 'Nouveau site' and 'Modifier le site'. The shared
 * `siteInputSchema` (the server's own) checks it here and again on the server; the
 * server's field errors (a name or short code already taken) come back under their field.
 */
import { useMemo } from 'react';
import { Select, TextInput, Textarea } from '@mantine/core';
import { BADGE_SIZE_IDS, siteInputSchema, type Site, type SiteInput } from '@sesame/shared';
import { AddressFields } from '../../../components/AddressFields';
import type { Feedback } from '../../../components/FeedbackAlert';
import { InlineForm, col, useFocusOnOpen } from '../../../components/InlineForm';
import { arrivalEarlyInput } from '../../../lib/arrival-early';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import {
  browserTimeZone,
  emailList,
  invalidEmail,
  siteValues,
  timeZoneOptions,
  type SiteField,
  type SiteValues,
} from '../lib/sites';

/** The values as the schema's input: the security contacts as a list of addresses. */
const siteInput = (values: SiteValues) => ({
  ...values,
  security_emails: emailList(values.security_emails),
});

export function SiteForm(props: {
  /** The site edited; none for a new one. */
  site?: Site;
  feedback: Feedback | null;
  /** Sends; answers the server's field errors, if any. */
  onSubmit: (input: SiteInput) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
}) {
  const { t } = useTranslation('sites');
  const { site } = props;
  const zones = useMemo(
    () =>
      timeZoneOptions(site?.timezone).map((zone) => ({
        value: zone,
        label: zone.replaceAll('_', ' '),
      })),
    [site?.timezone],
  );
  const { form, submit, summary, busy } = useSchemaForm(siteInputSchema, {
    ns: 'sites',
    initialValues: siteValues(site, browserTimeZone()),
    toInput: siteInput,
    check: (values) => {
      const wrong = invalidEmail(emailList(values.security_emails));
      return {
        security_emails: wrong ? t('form.securityEmailsInvalid', { email: wrong }) : undefined,
      };
    },
    // The contacts go with the site's fields (issue 31), as the list the schema reads.
    onSubmit: (data, values) =>
      props.onSubmit(
        Object.assign({}, data, { security_emails: emailList(values.security_emails) }),
      ),
  });

  useFocusOnOpen(form, 'name');

  const text = (field: SiteField, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      {...form.getInputProps(field)}
      name={field}
      {...extra}
    />
  );
  const titleId = site ? `site-form-${site.id}` : 'site-form-new';

  return (
    <InlineForm
      titleId={titleId}
      title={site ? t('form.editTitle', { name: site.name }) : t('form.createTitle')}
      summary={summary}
      feedback={props.feedback}
      submit={submit}
      busy={busy}
      submitLabel={site ? t('form.save') : t('form.create')}
      cancelLabel={t('form.cancel')}
      onCancel={props.onCancel}
    >
      {col(text('name', { required: true, autoComplete: 'off' }))}
      {col(
        text('short_code', {
          description: t('form.shortCodeHint'),
          maxLength: 6,
          autoComplete: 'off',
        }),
      )}
      <AddressFields lines={['city', 'zipcode', 'country']} required={false} form={form} t={t} />
      {col(
        <Select
          label={t('fields.timezone')}
          description={t('form.timezoneHint')}
          {...form.getSelectProps('timezone')}
          data={zones}
          searchable
          required
          limit={50}
          nothingFoundMessage={t('form.noZone')}
          name="timezone"
        />,
      )}
      {col(
        text('front_desk_email', {
          type: 'email',
          autoComplete: 'email',
          description: t('form.frontDeskHint'),
        }),
        12,
      )}
      {col(
        <Textarea
          label={t('fields.security_emails')}
          description={t('form.securityEmailsHint')}
          autosize
          minRows={2}
          spellCheck={false}
          autoComplete="off"
          {...form.getInputProps('security_emails')}
          name="security_emails"
        />,
        12,
      )}
      {col(text('opens_at', { type: 'time', step: 60, description: t('form.opensAtHint') }), 4)}
      {col(text('day_end', { type: 'time', step: 60, description: t('form.dayEndHint') }), 4)}
      {col(text('arrival_early_minutes', arrivalEarlyInput(t)), 4)}
      {col(
        text('badge_printer_url', {
          description: t('form.badgePrinterHint'),
          placeholder: 'ipp://192.168.1.20/ipp/print',
          autoComplete: 'off',
          spellCheck: false,
          inputMode: 'url',
        }),
      )}
      {col(
        <Select
          label={t('fields.badge_size')}
          description={t('form.badgeSizeHint')}
          {...form.getSelectProps('badge_size')}
          data={BADGE_SIZE_IDS.map((size) => ({
            value: size,
            label: t(`form.badgeSizes.${size}`),
          }))}
          allowDeselect={false}
          name="badge_size"
        />,
      )}
    </InlineForm>
  );
}
