/**
 * The visitor form ('Demande de rendez-vous', spec §2), shared by CreateVisitor
 * (`/{domain}/meeting`) and JoinEvent (`/company/{domain}/event/{slug}`).
 *
 * Props:
 * - `event` (optional): event mode (issue 17: a registration page, not a meeting
 *   request). The page shows the event (its name as the title, day, time and place as
 *   text); the form has no title of its own and no place, date or time inputs (their
 *   values are the event's, and the server takes the event's anyway);
 *   host and reason are hidden and the reason is 'not applicable'.
 * - `onSubmit(formData)`: called with a FormData ready for `POST /api/visitor/create`
 *   (every visitor field of spec §3, `request_time` as HH:MM, `language`, the file as
 *   `request_image`, plus `host`, `host_user_id` and `reason` for `POST /api/requests/create`).
 * - `companySlug` (optional): "Nom de l'hôte" searches that company's staff.
 *   The caller adds `company_id` (the company's id or slug). It is called only once
 *   the values pass `visitorFormSchema` (the server's schema), after the spec's 1 s
 *   submit delay. Throwing from it is fine: the caller shows its own message.
 * - `submitting`: the caller's request is in flight (the button shows it).
 * - `sites` (optional, issue 28): the company's active sites. With more than one, a
 *   required 'Site' select comes before the date, unless `siteId` (a site's own link or
 *   poster, `?site=`) names one of them: the form then says that site and asks nothing.
 *   The chosen site is sent as `site_id`; its zone decides today, and the date says
 *   the zone ('Heure de Nouméa') when it is not the browser's.
 * - `visitorTypes` (optional, issue 31): the site's visitor types. With more than one, a
 *   'Type de visite' select (the first chosen); the type decides which of the organisation,
 *   the phone, the ID number and the identity document are required (visitorFormSchemaFor)
 *   and the documents signed before sending (the signing step, loaded only then). The type is
 *   sent as `visitor_type_id`, the signatures as `signatures` (a JSON string field).
 *   `onSiteChange` tells the page which site's types to read.
 */
import { startTransition, useEffect, useState } from 'react';
import { Button, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../lib/i18n';
import type {
  PublicSite,
  PublicVisitorType,
  SignatureInput,
  VisitorTypeField,
} from '@sesame/shared';
import {
  EVENT_DEFAULT_REASON,
  HOURS,
  HOUR_PLACEHOLDER,
  isPastVisitDate,
  isVisitDate,
  MINUTES,
  MINUTE_PLACEHOLDER,
  SUBMIT_DELAY_MS,
} from '@sesame/shared';
import { useCountryOptions } from '../../lib/country-options';
import { DEFAULT_TIMEZONE, todayIn } from '../../lib/format';
import { useSchemaForm } from '../../lib/use-schema-form';
import { zoneCity, zoneDiffers } from '../../lib/zone-label';
import { DateField } from '../DateField';
import { HostField } from './HostField';
import { ID_FILE_MO, IdentityDocumentField } from './IdentityDocumentField';
import { PrivacyNotice } from './PrivacyNotice';
import { DocumentsToSign } from '../signing/DocumentsToSign';
import { documentsOfType, signaturesField } from '../signing/signatures';
import visitorsWords from '../../locales/fr/visitors.json';
import cells from './VisitorForm.module.css';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ visitors: visitorsWords });

/**
 * A public form: its schema (and zod) comes as the visitor types, at the latest on submit.
 * Issue 31: the schema of the visitor type chosen, whose required fields come with the input
 * (`type_fields`, which the schema does not keep); none: every field, the spec's form.
 */
const loadVisitorSchema = () =>
  import('./visitor-schema').then((m) => {
    const schemas = new Map<string, ReturnType<typeof m.visitorFormSchemaFor>>();
    const schemaOf = (fields: readonly VisitorTypeField[] | undefined) => {
      const key = fields ? fields.join(',') : '*';
      let schema = schemas.get(key);
      if (!schema) schemas.set(key, (schema = m.visitorFormSchemaFor(fields)));
      return schema;
    };
    return {
      safeParse: (input: unknown) =>
        schemaOf((input as { type_fields?: readonly VisitorTypeField[] }).type_fields).safeParse(
          input,
        ),
    };
  });

export interface VisitorFormEvent {
  name: string;
  location: string;
  address_name: string;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
  /** DD/MM/YYYY */
  date_event: string;
  /** HH:MM */
  time_event: string;
}

export interface VisitorFormProps {
  event?: VisitorFormEvent;
  /** May answer the server's field errors (a refused document), shown under their fields. */
  onSubmit: (formData: FormData) => Promise<Record<string, string> | void>;
  submitting?: boolean;
  /** The company's time zone: it decides which day is today (past days cannot be chosen). */
  timeZone?: string;
  /** The company's slug: "Nom de l'hôte" then searches its staff (issue 15). */
  companySlug?: string;
  /** The company whose privacy notice is shown (issue 16); the company's slug by default. */
  privacySlug?: string;
  /** The submit button's words ('S'inscrire' for an event); the form's own by default. */
  submitLabel?: string;
  /** Event mode: the id of the page's heading that names the form. */
  labelledBy?: string;
  /** The company's active sites (issue 28): with more than one, the visitor chooses. */
  sites?: PublicSite[];
  /** The site of the page's link (`?site=`): chosen for the visitor. */
  siteId?: string;
  /** The visit's site's visitor types (issue 31), in order; none: every field required. */
  visitorTypes?: PublicVisitorType[];
  /** The site chosen changed (the page reads that site's visitor types). */
  onSiteChange?: (siteId: string | undefined) => void;
}

/** A site as the select names it: its name, and its city when it has one. */
export function siteOptionLabel(site: Pick<PublicSite, 'name' | 'city'>): string {
  return site.city ? `${site.name} — ${site.city}` : site.name;
}

type TextField =
  | 'firstname'
  | 'lastname'
  | 'id_number'
  | 'address'
  | 'city'
  | 'country'
  | 'state'
  | 'zipcode'
  | 'organisation_name'
  | 'host'
  | 'reason'
  | 'request_date'
  | 'email'
  | 'contact';

type Values = Record<TextField, string> & {
  /** The host's account, when chosen in the staff search (issue 15); '' for a free-text host. */
  host_user_id: string;
  hour: string;
  minute: string;
  request_image: File | null;
  /** The privacy notice accepted (issue 16). */
  privacy_accepted: boolean;
  /** The site of the visit (issue 28); '' while none is chosen. */
  site_id: string;
};

const EMPTY: Values = {
  firstname: '',
  lastname: '',
  id_number: '',
  address: '',
  city: '',
  country: '',
  state: '',
  zipcode: '',
  organisation_name: '',
  host: '',
  host_user_id: '',
  reason: '',
  request_date: '',
  email: '',
  contact: '',
  hour: HOUR_PLACEHOLDER,
  minute: MINUTE_PLACEHOLDER,
  request_image: null,
  privacy_accepted: false,
  site_id: '',
};

function valuesFromEvent(event: VisitorFormEvent): Partial<Values> {
  const [hour = HOUR_PLACEHOLDER, minute = MINUTE_PLACEHOLDER] = event.time_event.split(':');
  return {
    address: event.address_name,
    city: event.city ?? '',
    country: event.country ?? '',
    state: event.state ?? '',
    zipcode: event.zipcode ?? '',
    request_date: event.date_event,
    hour,
    minute,
    host: '',
    reason: EVENT_DEFAULT_REASON,
  };
}

export function VisitorForm({
  event,
  onSubmit,
  submitting = false,
  timeZone = DEFAULT_TIMEZONE,
  companySlug,
  privacySlug = companySlug,
  submitLabel,
  labelledBy,
  sites = [],
  siteId,
  visitorTypes,
  onSiteChange,
}: VisitorFormProps) {
  const { t, i18n } = useTranslation('visitors');
  const language = i18n.language?.startsWith('en') ? 'en' : 'fr';
  // The link's site when it is one of the company's active sites; else the only one.
  const fixedSite =
    sites.find((site) => site.id === siteId) ?? (sites.length === 1 ? sites[0] : undefined);
  const asksSite = !event && !fixedSite && sites.length > 1;

  const zoneOf = (chosen: string) =>
    sites.find((site) => site.id === chosen)?.timezone ?? fixedSite?.timezone ?? timeZone;

  // Issue 31: the type chosen (the first until the visitor picks another) and its signatures.
  const [typeId, setTypeId] = useState('');
  const type =
    visitorTypes?.find((candidate) => candidate.id === typeId) ?? visitorTypes?.[0] ?? null;
  const [signatures, setSignatures] = useState<SignatureInput[] | null>(null);
  const documents = event ? [] : documentsOfType(type, language);
  /** Whether the form asks a field: required by the type (every one without types). */
  const requires = (field: VisitorTypeField) => !type || type.required_fields.includes(field);

  const { form, submit, summary, validateField } = useSchemaForm(loadVisitorSchema, {
    ns: 'visitors',
    keys: { errors: 'form.errors', fields: 'form.fields' },
    initialValues: {
      ...EMPTY,
      ...(event ? valuesFromEvent(event) : {}),
      site_id: event ? '' : (fixedSite?.id ?? ''),
    },
    toInput: (values) => ({
      ...values,
      request_time: `${values.hour}:${values.minute}`,
      language,
      request_image: values.request_image ?? undefined,
      // The server says when a site must be chosen; the form says it first.
      site_id: event ? undefined : values.site_id || fixedSite?.id || undefined,
      // An event's place is the server's to write: its country (shown read-only) may be a
      // name stored before countries were codes, which is no visitor input to check.
      ...(event ? { country: '' } : {}),
      visitor_type_id: event ? undefined : type?.id,
      signatures: signatures ?? [],
      type_fields: event || !type ? undefined : type.required_fields,
    }),
    // A meeting in the past (the company's day decides; the server checks it again).
    check: (values) => ({
      site_id: asksSite && !values.site_id ? t('form.errors.siteChoose') : undefined,
      // The documents of the type, signed before sending (the server asks them again).
      signatures: documents.length && !signatures ? t('form.errors.toSign') : undefined,
      request_date:
        !event &&
        isVisitDate(values.request_date) &&
        isPastVisitDate(values.request_date, todayIn(zoneOf(values.site_id)))
          ? t('form.errors.datePast')
          : undefined,
    }),
    onSubmit: async (data, values) => {
      const body = new FormData();
      for (const [key, value] of Object.entries(data)) {
        if (key !== 'signatures') body.set(key, String(value ?? ''));
      }
      if (values.request_image) body.set('request_image', values.request_image);
      if (type && !event) body.set('visitor_type_id', type.id);
      else body.delete('visitor_type_id');
      const signed = signaturesField(signatures ?? []);
      if (signed) body.set('signatures', signed);
      // The schema has checked it: the server checks it again.
      body.set('privacy_accepted', 'true');
      if (values.host_user_id) body.set('host_user_id', values.host_user_id);
      // Spec §4: the visitor is created after a 1 s delay.
      await new Promise((resolve) => setTimeout(resolve, SUBMIT_DELAY_MS));
      return onSubmit(body);
    },
  });
  const busy = form.submitting || submitting;
  const values = form.values;
  const chosenSite = fixedSite ?? sites.find((site) => site.id === values.site_id);
  const chosenSiteId = chosenSite?.id;
  // The page reads the visitor types of the site chosen (issue 31).
  useEffect(() => {
    if (!event) onSiteChange?.(chosenSiteId);
  }, [event, chosenSiteId, onSiteChange]);
  const visitZone = chosenSite?.timezone ?? timeZone;
  // The date and the hour are the site's: said with its zone when not the browser's.
  const zoneCityName = zoneCity(visitZone, language);
  // French elides 'de' before a vowel: "Heure d'Abidjan", "Heure de Nouméa".
  const zoneHint = zoneDiffers(visitZone)
    ? t(/^[aeiouyàâéèêîôûh]/i.test(zoneCityName) ? 'form.siteZoneElided' : 'form.siteZone', {
        city: zoneCityName,
      })
    : undefined;
  // The country list (~250 options) is not part of the form's first render, which it made
  // much longer on a phone (issue 19): it is built once the browser is idle after it, in a
  // transition (React renders it in slices, no long task), or at once when the form is
  // used first — a focus in any of its fields (keyboard, autofill) or a touch on the list.
  // Until then the list holds the placeholder and the current value: the field looks the same.
  const [allCountries, setAllCountries] = useState(false);
  const wantCountries = () => {
    if (!allCountries) setAllCountries(true);
  };
  useEffect(() => {
    if (allCountries) return;
    const build = () => startTransition(() => setAllCountries(true));
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(build, { timeout: 3000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(build, 1000);
    return () => window.clearTimeout(id);
  }, [allCountries]);
  const countries = useCountryOptions(values.country, allCountries);

  /** The hour and the minute are checked as one time. */
  const setTime = (field: 'hour' | 'minute') => (ev: React.ChangeEvent<HTMLSelectElement>) => {
    form.setFieldValue(field, ev.currentTarget.value);
    form.clearFieldError('request_time');
  };

  const field = (name: TextField, extra: Partial<Parameters<typeof TextInput>[0]> = {}) => (
    <TextInput
      label={t(`form.fields.${name}`)}
      {...form.getInputProps(name)}
      name={name}
      {...extra}
    />
  );

  const hourOptions = [
    { value: HOUR_PLACEHOLDER, label: HOUR_PLACEHOLDER },
    ...HOURS.map((h) => ({ value: h, label: h })),
  ];
  const minuteOptions = [
    { value: MINUTE_PLACEHOLDER, label: MINUTE_PLACEHOLDER },
    ...MINUTES.map((m) => ({ value: m, label: m })),
  ];
  const countryOptions = [{ value: '', label: t('form.countryPlaceholder') }, ...countries];

  return (
    <Paper component="section" withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form
        onSubmit={busy ? (e) => e.preventDefault() : submit}
        noValidate
        aria-labelledby={event ? labelledBy : 'visitor-form-title'}
        onFocus={wantCountries}
        onPointerDown={wantCountries}
      >
        <Stack gap="md">
          {!event && (
            <Title order={1} id="visitor-form-title" size="h2">
              {t('form.title')}
            </Title>
          )}

          <div className={cells.grid}>
            <div className={cells.half}>
              {field('firstname', { required: true, autoComplete: 'given-name' })}
            </div>
            <div className={cells.half}>
              {field('lastname', { required: true, autoComplete: 'family-name' })}
            </div>
            {!event && visitorTypes && visitorTypes.length > 1 && (
              <div className={cells.full}>
                <NativeSelect
                  label={t('form.fields.visitor_type_id')}
                  data={visitorTypes.map((option) => ({
                    value: option.id,
                    label: language === 'en' ? option.name_en : option.name_fr,
                  }))}
                  value={type?.id ?? ''}
                  onChange={(ev) => {
                    setTypeId(ev.currentTarget.value);
                    setSignatures(null);
                    form.clearErrors();
                  }}
                  required
                  name="visitor_type_id"
                  data-testid="visitor-type"
                />
              </div>
            )}
            <div className={cells.half}>
              {field('id_number', { required: requires('id_number') })}
            </div>
            <div className={cells.half}>
              <IdentityDocumentField
                schemaForm={{ form, validateField }}
                label={t('form.fields.request_image')}
                description={t('form.fileHint', { mo: ID_FILE_MO })}
                placeholder={t('form.filePlaceholder')}
                clearLabel={t('form.clearFile')}
                required={requires('id_document')}
              />
            </div>
            {!event && (
              <>
                <div className={cells.full}>
                  {field('address', { autoComplete: 'street-address' })}
                </div>
                <div className={cells.half}>
                  {field('city', { autoComplete: 'address-level2' })}
                </div>
                <div className={cells.half}>
                  <NativeSelect
                    label={t('form.fields.country')}
                    data={countryOptions}
                    {...form.getInputProps('country')}
                    name="country"
                  />
                </div>
                <div className={cells.half}>{field('state')}</div>
                <div className={cells.half}>
                  {field('zipcode', { autoComplete: 'postal-code' })}
                </div>
              </>
            )}
            <div className={cells.full}>
              {field('organisation_name', {
                required: requires('organisation'),
                autoComplete: 'organization',
              })}
            </div>
            {!event && (
              <>
                <div className={cells.half}>
                  {companySlug ? (
                    <HostField
                      companySlug={companySlug}
                      siteId={chosenSite?.id}
                      label={t('form.fields.host')}
                      value={values.host}
                      hostUserId={values.host_user_id}
                      error={form.errors.host}
                      onChange={({ name, userId }) =>
                        form.setValues({ host: name, host_user_id: userId })
                      }
                    />
                  ) : (
                    field('host')
                  )}
                </div>
                <div className={cells.half}>{field('reason')}</div>
              </>
            )}
            {asksSite && (
              <div className={cells.full}>
                <NativeSelect
                  label={t('form.fields.site_id')}
                  data={[
                    { value: '', label: t('form.sitePlaceholder') },
                    ...sites.map((site) => ({ value: site.id, label: siteOptionLabel(site) })),
                  ]}
                  {...form.getInputProps('site_id')}
                  required
                  name="site_id"
                  data-testid="visitor-site"
                />
              </div>
            )}
            {!event && fixedSite && sites.length > 1 && (
              <Text className={cells.full} fw={500} data-testid="visitor-site-fixed">
                {t('form.siteFixed', { name: siteOptionLabel(fixedSite) })}
              </Text>
            )}
            {!event && (
              <>
                <div className={cells.half}>
                  <DateField
                    label={t('form.fields.request_date')}
                    placeholder={t('form.datePlaceholder')}
                    {...form.getInputProps('request_date')}
                    value={values.request_date}
                    onChange={(value) => form.setFieldValue('request_date', value)}
                    calendarLabel={t('form.openCalendar')}
                    language={language}
                    minDate={todayIn(visitZone)}
                    description={zoneHint}
                    required
                    name="request_date"
                  />
                </div>
                <div className={cells.quarter}>
                  <NativeSelect
                    label={t('form.fields.hour')}
                    data={hourOptions}
                    value={values.hour}
                    onChange={setTime('hour')}
                    required
                    error={values.hour === HOUR_PLACEHOLDER ? form.errors.request_time : undefined}
                    data-path="request_time"
                    name="hour"
                  />
                </div>
                <div className={cells.quarter}>
                  <NativeSelect
                    label={t('form.fields.minute')}
                    data={minuteOptions}
                    value={values.minute}
                    onChange={setTime('minute')}
                    required
                    error={values.hour !== HOUR_PLACEHOLDER ? form.errors.request_time : undefined}
                    name="minute"
                  />
                </div>
              </>
            )}
            <div className={cells.half}>
              {field('email', {
                required: true,
                type: 'email',
                autoComplete: 'email',
                inputMode: 'email',
              })}
            </div>
            <div className={cells.half}>
              {field('contact', {
                required: requires('phone'),
                description: t('form.contactHint'),
                type: 'tel',
                autoComplete: 'tel',
                inputMode: 'tel',
              })}
            </div>
          </div>

          {documents.length > 0 && (
            <section aria-labelledby="visitor-signing-title" data-path="signatures">
              <Stack gap="sm">
                <Title order={2} size="h3" id="visitor-signing-title">
                  {t('form.signingTitle')}
                </Title>
                <DocumentsToSign
                  resetKey={type?.id}
                  documents={documents}
                  name={`${values.firstname.trim()} ${values.lastname.trim()}`.trim()}
                  loadingLabel={t('common:loading')}
                  form={form}
                  onSigned={setSignatures}
                />
              </Stack>
            </section>
          )}
          <PrivacyNotice
            companySlug={privacySlug}
            checked={values.privacy_accepted}
            error={form.errors.privacy_accepted}
            onChange={(checked) => form.setFieldValue('privacy_accepted', checked)}
          />
          {summary && (
            <Text role="alert" c="red.8" fw={500} data-testid="visitor-form-error">
              {summary}
            </Text>
          )}
          <Button type="submit" size="md" loading={busy} fullWidth>
            {submitLabel ?? t('form.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
