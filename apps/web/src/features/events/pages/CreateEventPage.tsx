/**
 * 'Création Événement' (spec §2 Event creation, §5 Event form, §6 company choice):
 * a supervisor's company is locked and shown by name; ROLE_ADMIN and ROLE_SESAME
 * choose it. The shared schema checks the fields here and again on the server.
 * Once created, the organiser lands on the event's page with its share link and QR
 * poster (issue 17); one save at a time, and none once saved (useSave).
 * A company of several sites (issue 28): a required 'Site' select, the header's site
 * chosen first; the event's day is that site's.
 */
import { useState } from 'react';
import { Container, Grid, NativeSelect, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import {
  HOURS,
  HOUR_PLACEHOLDER,
  MINUTES,
  MINUTE_PLACEHOLDER,
  eventCreateSchema,
  mayChooseCompany,
  type EventField,
} from '@sesame/shared';
import { CompanySelect } from '../../../components/CompanySelect';
import { CountrySelect } from '../../../components/CountrySelect';
import { DateField } from '../../../components/DateField';
import { FeedbackAlert } from '../../../components/FeedbackAlert';
import { FormSubmit } from '../../../components/FormSubmit';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { DEFAULT_TIMEZONE, todayIn } from '../../../lib/format';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { useCompanySites, useSiteChoice } from '../../../lib/site';
import { useSave, type SaveFailure } from '../../../lib/use-save';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useCreateEvent } from '../api/events';

type TextField = Exclude<
  EventField,
  'company_id' | 'country' | 'date_event' | 'time_event' | 'site_id'
>;

interface Values {
  company_id: string;
  /** The event's site (issue 28); '' until one is chosen. */
  site_id: string;
  name: string;
  location: string;
  address_name: string;
  city: string;
  country: string;
  state: string;
  zipcode: string;
  date_event: string;
  hour: string;
  minute: string;
}

const EMPTY: Values = {
  company_id: '',
  site_id: '',
  name: '',
  location: '',
  address_name: '',
  city: '',
  country: '',
  state: '',
  zipcode: '',
  date_event: '',
  hour: HOUR_PLACEHOLDER,
  minute: MINUTE_PLACEHOLDER,
};

export default function CreateEventPage() {
  const { t, i18n } = useTranslation('events');
  const { domain = '' } = useParams();
  const navigateLater = useDelayedNavigate();
  const { user, role, isAuthenticated } = useAuth();
  const chooses = !!role && mayChooseCompany(role, 'events.create');
  const mutation = useCreateEvent();
  // The time zone of the company picked (it decides which days are past).
  const [pickedZone, setPickedZone] = useState<string | undefined>(undefined);

  // The page's company: pre-selected for those who choose, the locked one for the others.
  const pageCompany = useCompany(domain);
  const ownCompany = useCompany(user?.company);
  // The header's site: the event's, unless another is chosen (issue 28).
  const { siteId: headerSite } = useSiteChoice();
  const [siteCompany, setSiteCompany] = useState<string | undefined>(undefined);
  const sites = useCompanySites(siteCompany ?? (chooses ? pageCompany.data?.id : user?.company_id));
  const siteList = sites.data ?? [];

  /** The site chosen, else the header's when it is one of the company's (blank otherwise). */
  const siteIdOf = (values: Values) =>
    values.site_id ||
    (headerSite && siteList.some((site) => site.id === headerSite) ? headerSite : '') ||
    (siteList.length === 1 ? siteList[0]!.id : '');
  const bodyOf = (values: Values) => ({
    // Until someone picks one, the chooser's company is the page's.
    company_id: chooses
      ? values.company_id || pageCompany.data?.id || ''
      : (user?.company_id ?? ''),
    name: values.name,
    location: values.location,
    address_name: values.address_name,
    city: values.city,
    country: values.country,
    state: values.state,
    zipcode: values.zipcode,
    date_event: values.date_event,
    time_event: `${values.hour}:${values.minute}`,
    site_id: siteIdOf(values),
  });

  /** Spec §8: 'Erreur: {status} - {message}', or the network sentence. */
  const failure = (error: unknown): SaveFailure => {
    if (!(error instanceof ApiError) || error.status === 0) {
      return { feedback: { color: 'red', title: t('create.network') }, fieldErrors: {} };
    }
    return {
      feedback: {
        color: 'red',
        title: t('create.failure', {
          status: error.status,
          message: error.serverMessage ?? t('create.failureFallback'),
        }),
      },
      fieldErrors: error.errors ?? {},
    };
  };
  const save = useSave(mutation.mutateAsync, failure, {
    success: t('create.added'),
    toast: t('create.created'),
    then: ({ data }) => `/${data.company.slug}/list-qrcode-events/${data.slug}`,
  });

  const { form, submit, summary, busy } = useSchemaForm(eventCreateSchema, {
    ns: 'events',
    keys: { errors: 'create.errors' },
    initialValues: EMPTY,
    toInput: bodyOf,
    // The time is checked as one field; the hour shows its message.
    fieldOf: { time_event: 'hour' },
    check: (values) => ({
      site_id: siteList.length > 1 && !siteIdOf(values) ? t('create.errors.siteChoose') : undefined,
    }),
    onSubmit: (_data, values) => save.submit(bodyOf(values)),
  });
  const companyId = bodyOf(form.getValues()).company_id;
  const chosenSite = siteList.find((site) => site.id === siteIdOf(form.values));
  const timeZone =
    chosenSite?.timezone ??
    (chooses
      ? (pickedZone ?? (pageCompany.data?.id === companyId ? pageCompany.data.timezone : undefined))
      : ownCompany.data?.timezone) ??
    DEFAULT_TIMEZONE;

  const handleSubmit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!isAuthenticated) {
      notifications.show({ message: t('create.mustBeLoggedIn'), color: 'red' });
      navigateLater(`/${domain}/request-meeting`);
      return;
    }
    submit();
  };

  const field = (
    name: TextField,
    required: boolean,
    extra: Partial<Parameters<typeof TextInput>[0]> = {},
  ) => (
    <TextInput
      label={t(`fields.${name}`)}
      description={required ? undefined : t('create.optional')}
      {...form.getInputProps(name)}
      required={required}
      name={name}
      {...extra}
    />
  );

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('create.title')}</PageTitle>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form onSubmit={handleSubmit} noValidate>
          <Stack gap="md">
            <CompanySelect
              chooses={chooses}
              value={companyId}
              onChange={(id, company) => {
                form.setFieldValue('company_id', id);
                form.setFieldValue('site_id', '');
                setSiteCompany(id || undefined);
                setPickedZone(company?.timezone);
              }}
              current={pageCompany.data}
              lockedName={user?.company_name ?? ''}
              label={t('fields.company_id')}
              placeholder={t('create.companyPlaceholder')}
              lockedDescription={t('create.companyLocked')}
              nothingFound="—"
              required
              error={form.errors.company_id}
              name="company_id"
            />
            <Grid gap="md">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                {field('name', true, { maxLength: 150 })}
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>{field('location', true)}</Grid.Col>
              <Grid.Col span={12}>
                {field('address_name', true, { autoComplete: 'street-address' })}
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                {field('city', false, { autoComplete: 'address-level2' })}
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <CountrySelect
                  label={t('fields.country')}
                  description={t('create.optional')}
                  placeholder={t('create.countryPlaceholder')}
                  {...form.getSelectProps('country')}
                  clearable
                  name="country"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>{field('state', false)}</Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                {field('zipcode', false, { autoComplete: 'postal-code' })}
              </Grid.Col>
              {siteList.length > 1 && (
                <Grid.Col span={12}>
                  <NativeSelect
                    label={t('fields.site_id')}
                    data={[
                      { value: '', label: t('create.sitePlaceholder') },
                      ...siteList.map((site) => ({ value: site.id, label: site.name })),
                    ]}
                    {...form.getInputProps('site_id')}
                    value={siteIdOf(form.values)}
                    required
                    name="site_id"
                    data-testid="event-site"
                  />
                </Grid.Col>
              )}
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <DateField
                  label={t('fields.date_event')}
                  placeholder={t('create.datePlaceholder')}
                  {...form.getInputProps('date_event')}
                  value={form.values.date_event}
                  onChange={(value: string) => form.setFieldValue('date_event', value)}
                  calendarLabel={t('create.openCalendar')}
                  language={i18n.language}
                  minDate={todayIn(timeZone)}
                  required
                  name="date_event"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <NativeSelect
                  label={t('fields.hour')}
                  data={[HOUR_PLACEHOLDER, ...HOURS]}
                  {...form.getInputProps('hour')}
                  onChange={(ev) => {
                    form.setFieldValue('hour', ev.currentTarget.value);
                    form.clearFieldError('minute');
                  }}
                  required
                  name="hour"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <NativeSelect
                  label={t('fields.minute')}
                  data={[MINUTE_PLACEHOLDER, ...MINUTES]}
                  value={form.values.minute}
                  onChange={(ev) => {
                    form.setFieldValue('minute', ev.currentTarget.value);
                    form.clearFieldError('hour');
                  }}
                  required
                  error={!!form.errors.hour}
                  name="minute"
                />
              </Grid.Col>
            </Grid>
            {save.saved && <FeedbackAlert feedback={save.feedback} testId="event-form-saved" />}
            <FormSubmit
              error={summary ?? (save.saved ? null : save.feedback?.title)}
              errorTestId="event-form-error"
              pending={busy || save.saved}
              label={t('create.submit')}
            />
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
