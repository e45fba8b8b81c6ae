/**
 * The visitor form ('Demande de rendez-vous', spec §2), shared by CreateVisitor
 * (`/{domain}/meeting`) and JoinEvent (`/company/{domain}/event/{slug}`).
 *
 * Props:
 * - `event` (optional): event mode. The event's name is a heading; address, city,
 *   country, state, zipcode, date and time are read-only and filled from the event;
 *   host and reason are hidden and the reason is 'not applicable'.
 * - `onSubmit(formData)`: called with a FormData ready for `POST /api/visitor/create`
 *   (every visitor field of spec §3, `request_time` as HH:MM, `language`, the file as
 *   `request_image`, plus `host` and `reason` for `POST /api/requests/create`).
 *   The caller adds `company_id` (the company's id or slug). It is called only once
 *   the values pass `visitorFormSchema` (the server's schema), after the spec's 1 s
 *   submit delay. Throwing from it is fine: the caller shows its own message.
 * - `submitting`: the caller's request is in flight (the button shows it).
 */
import {
  ActionIcon,
  Button,
  FileInput,
  Grid,
  NativeSelect,
  Paper,
  Popover,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DatePicker } from '@mantine/dates';
import 'dayjs/locale/fr';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  COUNTRIES,
  EVENT_DEFAULT_REASON,
  HOURS,
  HOUR_PLACEHOLDER,
  ID_FILE_MAX_BYTES,
  isPastVisitDate,
  MINUTES,
  MINUTE_PLACEHOLDER,
  SUBMIT_DELAY_MS,
  VISITOR_MESSAGES,
  visitorFormSchema,
  type VisitorIssueKey,
} from '@sesame/shared';
import { DEFAULT_TIMEZONE, todayIn } from '../../lib/format';

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
  onSubmit: (formData: FormData) => Promise<void>;
  submitting?: boolean;
  /** The company's time zone: it decides which day is today (past days cannot be chosen). */
  timeZone?: string;
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

type Values = Record<TextField, string> & { hour: string; minute: string };

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
  reason: '',
  request_date: '',
  email: '',
  contact: '',
  hour: HOUR_PLACEHOLDER,
  minute: MINUTE_PLACEHOLDER,
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

/** 'YYYY-MM-DD' (the calendar) ↔ 'DD/MM/YYYY' (the field). */
const fromIso = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
const toIso = (ddmmyyyy: string) => {
  const [dd, mm, yyyy] = ddmmyyyy.split('/');
  return dd && mm && yyyy && yyyy.length === 4 ? `${yyyy}-${mm}-${dd}` : null;
};

const FILE_ACCEPT = 'image/jpeg,image/png,image/webp,application/pdf';

export function VisitorForm({
  event,
  onSubmit,
  submitting = false,
  timeZone = DEFAULT_TIMEZONE,
}: VisitorFormProps) {
  const { t, i18n } = useTranslation('visitors');
  const [values, setValues] = useState<Values>(() => ({
    ...EMPTY,
    ...(event ? valuesFromEvent(event) : {}),
  }));
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [calendarOpen, setCalendarOpen] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const busy = waiting || submitting;
  const readOnly = !!event;

  const set = (field: keyof Values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({
      ...e,
      [field === 'hour' || field === 'minute' ? 'request_time' : field]: undefined,
    }));
  };

  /** The issue's text in the visitor's language (French: the spec's exact words). */
  const issueText = (
    key: VisitorIssueKey | undefined,
    field: string | undefined,
    fallback: string,
  ) =>
    key
      ? t(`form.errors.${key}`, {
          label: field ? t(`form.fields.${field}`) : '',
          defaultValue: fallback,
        })
      : fallback;

  const pickFile = (picked: File | null) => {
    setFile(picked);
    if (!picked) return;
    if (picked.size === 0) {
      setErrors((e) => ({ ...e, request_image: t('form.errors.fileInvalid') }));
    } else if (picked.size > ID_FILE_MAX_BYTES) {
      setErrors((e) => ({ ...e, request_image: t('form.errors.fileTooLarge') }));
    } else {
      setErrors((e) => ({ ...e, request_image: undefined }));
    }
  };

  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const input = {
      ...values,
      request_time: `${values.hour}:${values.minute}`,
      language: i18n.language?.startsWith('en') ? 'en' : 'fr',
      request_image: file ?? undefined,
    };
    const parsed = visitorFormSchema.safeParse(input);
    const showErrors = (next: Record<string, string>, firstPath: string) => {
      setErrors(next);
      setFormError(next[firstPath] ?? null);
      const target = formRef.current?.querySelector<HTMLElement>(`[data-field="${firstPath}"]`);
      target?.focus();
    };
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const path = String(issue.path[0]);
        const params = (issue as { params?: { key?: VisitorIssueKey; field?: string } }).params;
        next[path] ??= issueText(params?.key, params?.field, issue.message);
      }
      showErrors(next, String(parsed.error.issues[0]?.path[0]));
      return;
    }
    // A meeting in the past (the company's day decides; the server checks it again).
    if (!event && isPastVisitDate(parsed.data.request_date, todayIn(timeZone))) {
      showErrors(
        { request_date: issueText('datePast', undefined, VISITOR_MESSAGES.datePast) },
        'request_date',
      );
      return;
    }
    setErrors({});
    setFormError(null);
    const data = new FormData();
    for (const [key, value] of Object.entries(parsed.data)) data.set(key, String(value ?? ''));
    data.set('request_image', file!);
    setWaiting(true);
    try {
      // Spec §4: the visitor is created after a 1 s delay.
      await new Promise((resolve) => setTimeout(resolve, SUBMIT_DELAY_MS));
      await onSubmit(data);
    } finally {
      setWaiting(false);
    }
  };

  const field = (name: TextField, extra: Partial<Parameters<typeof TextInput>[0]> = {}) => (
    <TextInput
      label={t(`form.fields.${name}`)}
      value={values[name]}
      onChange={(ev) => set(name)(ev.currentTarget.value)}
      error={errors[name]}
      data-field={name}
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
  const countryOptions = [
    { value: '', label: t('form.countryPlaceholder') },
    ...(values.country && !COUNTRIES.includes(values.country)
      ? [{ value: values.country, label: values.country }]
      : []),
    ...COUNTRIES.map((c) => ({ value: c, label: c })),
  ];
  const iso = toIso(values.request_date);

  return (
    <Paper component="section" withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form
        ref={formRef}
        onSubmit={(e) => void handleSubmit(e)}
        noValidate
        aria-labelledby="visitor-form-title"
      >
        <Stack gap="md">
          <div>
            <Title order={1} id="visitor-form-title" size="h2">
              {t('form.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('form.step', { step: 1, total: 5 })}
            </Text>
          </div>
          {event && (
            <div>
              <Title order={2} size="h3" data-testid="event-name">
                {event.name}
              </Title>
              <Text size="sm" c="dimmed">
                {event.location}
              </Text>
            </div>
          )}

          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {field('firstname', { required: true, autoComplete: 'given-name' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {field('lastname', { required: true, autoComplete: 'family-name' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>{field('id_number', { required: true })}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <FileInput
                label={t('form.fields.request_image')}
                description={t('form.fileHint')}
                placeholder={t('form.filePlaceholder')}
                accept={FILE_ACCEPT}
                value={file}
                onChange={pickFile}
                error={errors.request_image}
                clearable
                required
                data-field="request_image"
                name="request_image"
              />
            </Grid.Col>
            <Grid.Col span={12}>
              {field('address', { readOnly, autoComplete: 'street-address' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {field('city', { readOnly, autoComplete: 'address-level2' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NativeSelect
                label={t('form.fields.country')}
                data={countryOptions}
                value={values.country}
                onChange={(ev) => set('country')(ev.currentTarget.value)}
                disabled={readOnly}
                data-field="country"
                name="country"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>{field('state', { readOnly })}</Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {field('zipcode', { readOnly, autoComplete: 'postal-code' })}
            </Grid.Col>
            <Grid.Col span={12}>
              {field('organisation_name', { required: true, autoComplete: 'organization' })}
            </Grid.Col>
            {!event && (
              <>
                <Grid.Col span={{ base: 12, sm: 6 }}>{field('host')}</Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>{field('reason')}</Grid.Col>
              </>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('form.fields.request_date')}
                placeholder={t('form.datePlaceholder')}
                value={values.request_date}
                onChange={(ev) => set('request_date')(ev.currentTarget.value)}
                maxLength={10}
                inputMode="numeric"
                readOnly={readOnly}
                required
                error={errors.request_date}
                data-field="request_date"
                name="request_date"
                rightSection={
                  readOnly ? null : (
                    <Popover
                      opened={calendarOpen}
                      onChange={setCalendarOpen}
                      position="bottom-end"
                      withinPortal
                    >
                      <Popover.Target>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('form.openCalendar')}
                          onClick={() => setCalendarOpen((o) => !o)}
                        >
                          <CalendarIcon />
                        </ActionIcon>
                      </Popover.Target>
                      <Popover.Dropdown>
                        <DatePicker
                          locale={i18n.language?.startsWith('en') ? 'en' : 'fr'}
                          value={iso}
                          defaultDate={iso ?? undefined}
                          minDate={todayIn(timeZone)}
                          onChange={(picked) => {
                            if (picked) set('request_date')(fromIso(picked));
                            setCalendarOpen(false);
                          }}
                        />
                      </Popover.Dropdown>
                    </Popover>
                  )
                }
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <NativeSelect
                label={t('form.fields.hour')}
                data={hourOptions}
                value={values.hour}
                onChange={(ev) => set('hour')(ev.currentTarget.value)}
                disabled={readOnly}
                required
                error={
                  errors.request_time && values.hour === HOUR_PLACEHOLDER
                    ? errors.request_time
                    : undefined
                }
                data-field="request_time"
                name="hour"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 6, sm: 3 }}>
              <NativeSelect
                label={t('form.fields.minute')}
                data={minuteOptions}
                value={values.minute}
                onChange={(ev) => set('minute')(ev.currentTarget.value)}
                disabled={readOnly}
                required
                error={
                  errors.request_time && values.hour !== HOUR_PLACEHOLDER
                    ? errors.request_time
                    : undefined
                }
                name="minute"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {field('email', {
                required: true,
                type: 'email',
                autoComplete: 'email',
                inputMode: 'email',
              })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {field('contact', {
                required: true,
                type: 'tel',
                autoComplete: 'tel',
                inputMode: 'tel',
              })}
            </Grid.Col>
          </Grid>

          {formError && (
            <Text role="alert" c="red.8" fw={500} data-testid="visitor-form-error">
              {formError}
            </Text>
          )}
          <Button type="submit" size="md" loading={busy} fullWidth>
            {t('form.submit')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}

function CalendarIcon() {
  return (
    <svg
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M3 11h18" />
    </svg>
  );
}
