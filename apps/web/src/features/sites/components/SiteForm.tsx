/**
 * A site's form (issue 28): 'Nouveau site' and 'Modifier le site'. The shared
 * `siteInputSchema` (the server's own) checks it here and again on the server; the
 * server's field errors (a name or short code already taken) come back under their field.
 */
import { useEffect, useMemo, type ReactNode } from 'react';
import { Button, Grid, Group, Paper, Select, Stack, TextInput, Title } from '@mantine/core';
import {
  ARRIVAL_EARLY_MAX_MINUTES,
  BADGE_SIZE_IDS,
  siteInputSchema,
  type Site,
  type SiteInput,
} from '@sesame/shared';
import { CountrySelect } from '../../../components/CountrySelect';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { browserTimeZone, siteValues, timeZoneOptions, type SiteField } from '../lib/sites';

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
    onSubmit: (data) => props.onSubmit(data),
  });

  // Opened from the list's buttons: the keyboard lands in the form, on its first field.
  useEffect(() => {
    const name = form.getInputNode('name');
    name?.focus();
    name?.scrollIntoView?.({ block: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the form opens
  }, []);

  const text = (field: SiteField, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      {...form.getInputProps(field)}
      name={field}
      {...extra}
    />
  );
  const col = (node: ReactNode, span = 6) => (
    <Grid.Col span={{ base: 12, sm: span }}>{node}</Grid.Col>
  );
  const titleId = site ? `site-form-${site.id}` : 'site-form-new';

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      component="section"
      aria-labelledby={titleId}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id={titleId}>
            {site ? t('form.editTitle', { name: site.name }) : t('form.createTitle')}
          </Title>
          {summary && !props.feedback && (
            <FeedbackAlert feedback={{ color: 'red', title: summary }} />
          )}
          <Grid gap="md">
            {col(text('name', { required: true, autoComplete: 'off' }))}
            {col(
              text('short_code', {
                description: t('form.shortCodeHint'),
                maxLength: 6,
                autoComplete: 'off',
              }),
            )}
            {col(text('address', { autoComplete: 'street-address' }), 12)}
            {col(text('city', { autoComplete: 'address-level2' }))}
            {col(text('zipcode', { autoComplete: 'postal-code' }))}
            {col(
              <CountrySelect
                label={t('fields.country')}
                placeholder={t('form.countryPlaceholder')}
                {...form.getInputProps('country')}
                value={form.values.country || null}
                onChange={(value) => form.setFieldValue('country', value ?? '')}
                clearable
                name="country"
              />,
            )}
            {col(
              <Select
                label={t('fields.timezone')}
                description={t('form.timezoneHint')}
                {...form.getInputProps('timezone')}
                value={form.values.timezone || null}
                onChange={(value) => form.setFieldValue('timezone', value ?? '')}
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
              text('opens_at', { type: 'time', step: 60, description: t('form.opensAtHint') }),
              4,
            )}
            {col(text('day_end', { type: 'time', step: 60, description: t('form.dayEndHint') }), 4)}
            {col(
              text('arrival_early_minutes', {
                type: 'number',
                inputMode: 'numeric',
                min: 0,
                max: ARRIVAL_EARLY_MAX_MINUTES,
                step: 5,
                description: t('form.arrivalEarlyHint', { max: ARRIVAL_EARLY_MAX_MINUTES }),
              }),
              4,
            )}
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
                {...form.getInputProps('badge_size')}
                value={form.values.badge_size || null}
                onChange={(value) => form.setFieldValue('badge_size', value ?? '')}
                data={BADGE_SIZE_IDS.map((size) => ({
                  value: size,
                  label: t(`form.badgeSizes.${size}`),
                }))}
                allowDeselect={false}
                name="badge_size"
              />,
            )}
          </Grid>
          <FeedbackAlert feedback={props.feedback} />
          <Group>
            <Button type="submit" loading={busy} disabled={busy}>
              {site ? t('form.save') : t('form.create')}
            </Button>
            <Button variant="default" onClick={props.onCancel} disabled={busy}>
              {t('form.cancel')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
