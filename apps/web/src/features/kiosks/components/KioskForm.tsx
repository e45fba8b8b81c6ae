/**
 * A kiosk's form (issue 29): 'Nouvelle borne' and 'Modifier la borne'. The shared
 * `kioskInputSchema` (the server's own) checks it here and again on the server; the
 * server's field errors come back under their field.
 */
import { Checkbox, Group, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import {
  KIOSK_LIMITS,
  LANGUAGES,
  kioskInputSchema,
  type Kiosk,
  type KioskInput,
  type Site,
} from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { InlineForm, col, useFocusOnOpen } from '../../../components/InlineForm';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { BADGE_SIZE_OPTIONS, kioskInput, kioskValues, type KioskValues } from '../lib/kiosks';
import '@mantine/core/styles/Switch.css';

export function KioskForm(props: {
  /** The kiosk edited; none for a new one. */
  kiosk?: Kiosk;
  /** The company's active sites (the kiosk's own stays choosable when archived). */
  sites: Site[];
  feedback: Feedback | null;
  /** Sends; answers the server's field errors, if any. */
  onSubmit: (input: KioskInput) => Promise<Record<string, string> | undefined>;
  onCancel: () => void;
}) {
  const { t } = useTranslation(['kiosks', 'badges']);
  const { kiosk, sites } = props;
  // A company of one site: that site, already chosen.
  const onlySite = sites.length === 1 ? sites[0]!.id : '';
  const { form, submit, summary, busy } = useSchemaForm(kioskInputSchema, {
    ns: 'kiosks',
    initialValues: kioskValues(kiosk, onlySite),
    toInput: kioskInput,
    onSubmit: (data) => props.onSubmit(data),
  });

  useFocusOnOpen(form, 'name');

  const siteOptions = sites.map((site) => ({ value: site.id, label: site.name }));
  if (kiosk && !sites.some((site) => site.id === kiosk.site.id)) {
    siteOptions.push({ value: kiosk.site.id, label: kiosk.site.name });
  }
  const text = (field: keyof KioskValues, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      {...form.getInputProps(field)}
      name={field}
      {...extra}
    />
  );
  const seconds = (
    field: 'idle_seconds' | 'host_wait_seconds',
    range: { min: number; max: number },
    hint: string,
  ) =>
    text(field, {
      type: 'number',
      inputMode: 'numeric',
      min: range.min,
      max: range.max,
      step: 5,
      required: true,
      description: t(hint, { min: range.min, max: range.max }),
    });
  const titleId = kiosk ? `kiosk-form-${kiosk.id}` : 'kiosk-form-new';
  const languages = form.getInputProps('languages');

  return (
    <InlineForm
      titleId={titleId}
      title={kiosk ? t('form.editTitle', { name: kiosk.name }) : t('form.createTitle')}
      summary={summary}
      feedback={props.feedback}
      submit={submit}
      busy={busy}
      submitLabel={kiosk ? t('form.save') : t('form.create')}
      cancelLabel={t('form.cancel')}
      onCancel={props.onCancel}
    >
      {col(text('name', { required: true, autoComplete: 'off', maxLength: 100 }))}
      {col(
        <Select
          label={t('fields.site_id')}
          {...form.getSelectProps('site_id')}
          data={siteOptions}
          required
          allowDeselect={false}
          nothingFoundMessage={t('form.noSite')}
          name="site_id"
        />,
      )}
      {col(
        <Checkbox.Group
          label={t('fields.languages')}
          description={t('form.languagesHint')}
          value={form.values.languages}
          onChange={(value) => form.setFieldValue('languages', value)}
          error={languages.error}
          required
        >
          <Group gap="lg" mt={6}>
            {LANGUAGES.map((language, i) => (
              <Checkbox
                key={language}
                value={language}
                label={t(`languages.${language}`)}
                name="languages"
                // A refused list puts the focus on its first box.
                data-path={i === 0 ? 'languages' : undefined}
              />
            ))}
          </Group>
        </Checkbox.Group>,
      )}
      {col(
        <Stack gap="xs" role="group" aria-labelledby={`${titleId}-steps`}>
          <Text id={`${titleId}-steps`} size="sm" fw={700}>
            {t('form.steps')}
          </Text>
          <Switch
            label={t('fields.ask_photo')}
            description={t('form.askPhotoHint')}
            {...form.getInputProps('ask_photo', { type: 'checkbox' })}
            name="ask_photo"
          />
          <Switch
            label={t('fields.print_badge')}
            description={t('form.printBadgeHint')}
            {...form.getInputProps('print_badge', { type: 'checkbox' })}
            name="print_badge"
          />
        </Stack>,
      )}
      {col(seconds('idle_seconds', KIOSK_LIMITS.idleSeconds, 'form.idleHint'))}
      {col(seconds('host_wait_seconds', KIOSK_LIMITS.hostWaitSeconds, 'form.hostWaitHint'))}
      {col(
        <Select
          label={t('fields.badge_size')}
          {...form.getSelectProps('badge_size')}
          data={BADGE_SIZE_OPTIONS.map((size) => ({
            value: size,
            label: t(`badges:sizes.${size}`),
          }))}
          allowDeselect={false}
          name="badge_size"
        />,
      )}
      {col(
        text('printer_url', {
          description: t('form.printerHint'),
          placeholder: 'ipp://192.168.1.20/ipp/print',
          autoComplete: 'off',
          spellCheck: false,
          inputMode: 'url',
        }),
      )}
    </InlineForm>
  );
}
