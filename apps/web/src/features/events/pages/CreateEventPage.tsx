/**
 * 'Création Événement' (spec §2 Event creation, §5 Event form, §6 company choice):
 * a supervisor's company is locked and shown by name; ROLE_ADMIN and ROLE_SESAME
 * choose it. The shared schema checks the fields here and again on the server.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Container, Grid, NativeSelect, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  API_MESSAGES,
  EVENT_FIELD_LABELS,
  EVENT_MESSAGES,
  HOURS,
  HOUR_PLACEHOLDER,
  MINUTES,
  MINUTE_PLACEHOLDER,
  REDIRECT_DELAY_MS,
  eventCreateSchema,
  mayChooseCompany,
  type EventField,
} from '@sesame/shared';
import { FormSubmit } from '../../../components/FormSubmit';
import { CountrySelect } from '../../../components/CountrySelect';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { DEFAULT_TIMEZONE, todayIn } from '../../../lib/format';
import { useCompanyOptions, useCreateEvent } from '../api/events';
import { DateField } from '../components/DateField';

type TextField = Exclude<EventField, 'company_id' | 'country' | 'date_event' | 'time_event'>;

interface Values {
  company_id: string;
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

/** The shared schema's French messages → this screen's locale keys (English follows the language). */
const MESSAGE_KEYS: Record<string, string> = {
  [EVENT_MESSAGES.dateInvalid]: 'create.errors.dateInvalid',
  [EVENT_MESSAGES.timeInvalid]: 'create.errors.timeInvalid',
  [EVENT_MESSAGES.datePast]: 'create.errors.datePast',
  [API_MESSAGES.badRequest]: 'create.errors.badRequest',
};

export default function CreateEventPage() {
  const { t, i18n } = useTranslation('events');
  const { domain = '' } = useParams();
  const navigate = useNavigate();
  const { user, role, isAuthenticated } = useAuth();
  const chooses = !!role && mayChooseCompany(role, 'events.create');
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [companySearch, setCompanySearch] = useState('');
  const [q] = useDebouncedValue(companySearch, 300);
  const formRef = useRef<HTMLFormElement>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  const mutation = useCreateEvent();

  // The page's company: pre-selected for those who choose, the locked one for the others.
  const pageCompany = useCompany(domain);
  const ownCompany = useCompany(user?.company);
  const options = useCompanyOptions(chooses, q);

  useEffect(() => () => clearTimeout(redirect.current), []);

  // Until someone picks one, the chooser's company is the page's.
  const companyId = chooses
    ? values.company_id || pageCompany.data?.id || ''
    : (user?.company_id ?? '');
  const companyData = useMemo(() => {
    const list = options.data ?? [];
    const picked =
      pageCompany.data && !list.some((c) => c.id === pageCompany.data.id)
        ? [pageCompany.data, ...list]
        : list;
    return picked.map((c) => ({ value: c.id, label: c.name }));
  }, [options.data, pageCompany.data]);
  const timeZone =
    (chooses
      ? (options.data?.find((c) => c.id === companyId)?.timezone ??
        (pageCompany.data?.id === companyId ? pageCompany.data.timezone : undefined))
      : ownCompany.data?.timezone) ?? DEFAULT_TIMEZONE;

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    const errorField = field === 'hour' || field === 'minute' ? 'time_event' : field;
    setErrors((e) => ({ ...e, [errorField]: undefined }));
  };

  const messageText = (message: string, field?: string) => {
    if (
      field &&
      field in EVENT_FIELD_LABELS &&
      message === EVENT_MESSAGES.required(field as EventField)
    ) {
      return t('create.errors.required', { label: t(`fields.${field}`) });
    }
    const key = MESSAGE_KEYS[message];
    return key ? t(key) : message;
  };

  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (mutation.isPending) return;
    if (!isAuthenticated) {
      notifications.show({ message: t('create.mustBeLoggedIn'), color: 'red' });
      redirect.current = setTimeout(
        () => void navigate(`/${domain}/request-meeting`),
        REDIRECT_DELAY_MS,
      );
      return;
    }
    const body = {
      company_id: companyId,
      name: values.name,
      location: values.location,
      address_name: values.address_name,
      city: values.city,
      country: values.country,
      state: values.state,
      zipcode: values.zipcode,
      date_event: values.date_event,
      time_event: `${values.hour}:${values.minute}`,
    };
    const parsed = eventCreateSchema.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        next[field] ??= messageText(issue.message, field);
      }
      const first = String(parsed.error.issues[0]?.path[0]);
      setErrors(next);
      setFormError(next[first] ?? null);
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    setFormError(null);
    try {
      await mutation.mutateAsync(body);
      notifications.show({ title: t('create.added'), message: t('create.created'), color: 'teal' });
      redirect.current = setTimeout(() => void navigate(`/${domain}/menu`), REDIRECT_DELAY_MS);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) {
        setFormError(t('create.network'));
      } else if (error instanceof ApiError) {
        const serverErrors: Record<string, string> = {};
        for (const [field, message] of Object.entries(error.errors ?? {})) {
          serverErrors[field] = messageText(message, field);
        }
        setErrors(serverErrors);
        const message =
          error.message && !error.message.startsWith('HTTP ') ? messageText(error.message) : '';
        setFormError(
          t('create.failure', {
            status: error.status,
            message: message || t('create.failureFallback'),
          }),
        );
      } else {
        setFormError(t('create.network'));
      }
    }
  };

  const field = (
    name: TextField,
    required: boolean,
    extra: Partial<Parameters<typeof TextInput>[0]> = {},
  ) => (
    <TextInput
      label={t(`fields.${name}`)}
      description={required ? undefined : t('create.optional')}
      value={values[name]}
      onChange={(ev) => set(name)(ev.currentTarget.value)}
      error={errors[name]}
      required={required}
      data-field={name}
      name={name}
      {...extra}
    />
  );

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('create.title')}</PageTitle>
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <form ref={formRef} onSubmit={(e) => void handleSubmit(e)} noValidate>
          <Stack gap="md">
            {chooses ? (
              <Select
                label={t('fields.company_id')}
                placeholder={t('create.companyPlaceholder')}
                data={companyData}
                value={companyId || null}
                onChange={(v) => set('company_id')(v ?? '')}
                searchable
                onSearchChange={setCompanySearch}
                nothingFoundMessage="—"
                required
                error={errors.company_id}
                data-field="company_id"
                name="company_id"
              />
            ) : (
              <TextInput
                label={t('fields.company_id')}
                description={t('create.companyLocked')}
                value={user?.company_name ?? ''}
                readOnly
                required
                error={errors.company_id}
                data-field="company_id"
                name="company_name"
              />
            )}
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
                  value={values.country || null}
                  onChange={(v) => set('country')(v ?? '')}
                  clearable
                  data-field="country"
                  name="country"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>{field('state', false)}</Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                {field('zipcode', false, { autoComplete: 'postal-code' })}
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <DateField
                  label={t('fields.date_event')}
                  placeholder={t('create.datePlaceholder')}
                  value={values.date_event}
                  onChange={set('date_event')}
                  calendarLabel={t('create.openCalendar')}
                  language={i18n.language}
                  minDate={todayIn(timeZone)}
                  required
                  error={errors.date_event}
                  data-field="date_event"
                  name="date_event"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <NativeSelect
                  label={t('fields.hour')}
                  data={[HOUR_PLACEHOLDER, ...HOURS]}
                  value={values.hour}
                  onChange={(ev) => set('hour')(ev.currentTarget.value)}
                  required
                  error={errors.time_event}
                  data-field="time_event"
                  name="hour"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 6, sm: 3 }}>
                <NativeSelect
                  label={t('fields.minute')}
                  data={[MINUTE_PLACEHOLDER, ...MINUTES]}
                  value={values.minute}
                  onChange={(ev) => set('minute')(ev.currentTarget.value)}
                  required
                  error={!!errors.time_event}
                  name="minute"
                />
              </Grid.Col>
            </Grid>
            <FormSubmit
              error={formError}
              errorTestId="event-form-error"
              pending={mutation.isPending}
              label={t('create.submit')}
            />
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
