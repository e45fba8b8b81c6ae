/**
 * The form of 'Créer une Entreprise' and 'Editer l'Entreprise' (spec §2, §5 Company
 * create and edit). Create: every field of spec §5 and the logo are required. Edit:
 * the name is read-only, the logo optional. The shared schemas check the fields
 * here and again on the server; the logo's type is checked by content there.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  Button,
  FileInput,
  Grid,
  Group,
  Image,
  NativeSelect,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  ARRIVAL_EARLY_MAX_MINUTES,
  COMPANY_FIELD_LABELS,
  COMPANY_MESSAGES,
  EMPLOYEE_COUNT_RANGES,
  IMAGE_SIZES,
  LOGO_MAX_BYTES,
  LOGO_MEDIA_TYPES,
  companyCreateSchema,
  companyUpdateSchema,
  type Company,
  type CompanyField,
} from '@sesame/shared';
import { CountrySelect } from '../../../components/CountrySelect';

const TEXT_FIELDS = [
  'name',
  'description',
  'number_of_employee',
  'id_number',
  'company_field',
  'point_contact',
  'title',
  'email',
  'phone_number',
  'address',
  'city',
  'state',
  'country',
  'zipcode',
  'arrival_early_minutes',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Values = Record<TextField, string>;

/** The shared schema's French messages → this screen's locale keys (English follows the language). */
const MESSAGE_KEYS: Record<string, string> = {
  [COMPANY_MESSAGES.emailInvalid]: 'form.errors.emailInvalid',
  [COMPANY_MESSAGES.phoneInvalid]: 'form.errors.phoneInvalid',
  [COMPANY_MESSAGES.employeeRangeInvalid]: 'form.errors.employeeRangeInvalid',
  [COMPANY_MESSAGES.arrivalEarlyInvalid]: 'form.errors.arrivalEarlyInvalid',
  [COMPANY_MESSAGES.kioskEmailInvalid]: 'form.errors.kioskEmailInvalid',
  'La taille du fichier ne doit pas dépasser 2 Mo.': 'form.errors.fileTooLarge',
  'Veuillez selectionnez un fichier valide': 'form.errors.fileInvalid',
  "Ce type de fichier n'est pas accepté.": 'form.errors.fileType',
};

export function useCompanyMessageText() {
  const { t } = useTranslation('companies');
  return (message: string, field?: string) => {
    if (
      field &&
      field in COMPANY_FIELD_LABELS &&
      message === COMPANY_MESSAGES.required(field as CompanyField)
    ) {
      return t('form.errors.required', { label: t(`fields.${field}`) });
    }
    const key = MESSAGE_KEYS[message];
    return key ? t(key) : message;
  };
}

interface CompanyFormProps {
  mode: 'create' | 'edit';
  initial?: Company;
  submitLabel: string;
  /** False hides the submit button (spec §2: creation needs a signed-in user). */
  canSubmit: boolean;
  /** Shown instead of the button when it is hidden. */
  cannotSubmitNote?: ReactNode;
  pending: boolean;
  serverErrors: Record<string, string>;
  feedback?: ReactNode;
  onSubmit: (form: FormData) => void;
}

export function CompanyForm(props: CompanyFormProps) {
  const { t } = useTranslation('companies');
  const messageText = useCompanyMessageText();
  const formRef = useRef<HTMLFormElement>(null);
  const initial = props.initial;
  const [values, setValues] = useState<Values>(() => {
    const start = {} as Values;
    for (const field of TEXT_FIELDS) start[field] = String(initial?.[field] ?? '');
    // A new company lets visitors in from the start of their day (0 minutes before).
    start.arrival_early_minutes = String(initial?.arrival_early_minutes ?? 0);
    return start;
  });
  // The kiosk's e-mail presence (ARCHITECTURE §6): off unless the company turns it on.
  const [kioskEmail, setKioskEmail] = useState(initial?.kiosk_email_enabled ?? false);
  const [logo, setLogo] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = { ...props.serverErrors, ...errors };

  const set = (field: TextField | 'logo') => (value: string) => {
    if (field !== 'logo') setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => {
      const next = { ...e };
      delete next[field];
      return next;
    });
  };

  const logoError = (): string | undefined => {
    if (!logo) return props.mode === 'create' ? COMPANY_MESSAGES.required('logo') : undefined;
    if (logo.size === 0) return 'Veuillez selectionnez un fichier valide';
    if (logo.size > LOGO_MAX_BYTES) return 'La taille du fichier ne doit pas dépasser 2 Mo.';
    if (!(LOGO_MEDIA_TYPES as readonly string[]).includes(logo.type)) {
      return "Ce type de fichier n'est pas accepté.";
    }
    return undefined;
  };

  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (props.pending) return;
    const fields: Record<string, string> = {
      ...values,
      kiosk_email_enabled: String(kioskEmail),
    };
    if (props.mode === 'edit') delete fields.name;
    const schema = props.mode === 'create' ? companyCreateSchema : companyUpdateSchema;
    const parsed = schema.safeParse(fields);
    const next: Record<string, string> = {};
    const fileProblem = logoError();
    if (fileProblem) next.logo = messageText(fileProblem, 'logo');
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        next[field] ??= messageText(issue.message, field);
      }
    }
    const first = Object.keys(next)[0];
    if (first) {
      setErrors(next);
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    const form = new FormData();
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    if (logo) form.append('logo', logo);
    props.onSubmit(form);
  };

  const required = (field: TextField) =>
    !(
      field === 'description' ||
      field === 'number_of_employee' ||
      field === 'arrival_early_minutes'
    );
  const text = (field: TextField, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      value={values[field]}
      onChange={(ev) => set(field)(ev.currentTarget.value)}
      error={shown[field]}
      required={required(field)}
      data-field={field}
      name={field}
      {...extra}
    />
  );
  const col = (node: ReactNode, span = 6) => (
    <Grid.Col span={{ base: 12, sm: span }}>{node}</Grid.Col>
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form ref={formRef} onSubmit={handleSubmit} noValidate>
        <Stack gap="lg">
          <Title order={2} size="h4">
            {t('form.sections.identity')}
          </Title>
          <Grid gap="md">
            {col(
              <Group align="flex-end" wrap="nowrap" gap="md">
                {initial?.logo_url && (
                  <Image
                    src={initial.logo_url}
                    alt={t('form.currentLogo')}
                    w={IMAGE_SIZES.medium}
                    h={IMAGE_SIZES.medium}
                    fit="contain"
                    radius="sm"
                  />
                )}
                <FileInput
                  style={{ flex: 1 }}
                  label={t('fields.logo')}
                  description={props.mode === 'edit' ? t('form.logoKeep') : t('form.logoHint')}
                  accept={LOGO_MEDIA_TYPES.join(',')}
                  value={logo}
                  onChange={(file) => {
                    setLogo(file);
                    set('logo')('');
                  }}
                  clearable
                  error={shown.logo}
                  required={props.mode === 'create'}
                  data-field="logo"
                  name="logo"
                />
              </Group>,
              12,
            )}
            {col(
              text('name', {
                readOnly: props.mode === 'edit',
                description: props.mode === 'edit' ? t('form.nameReadOnly') : undefined,
                required: props.mode === 'create',
                autoComplete: 'organization',
              }),
            )}
            {col(
              <NativeSelect
                label={t('fields.number_of_employee')}
                description={t('form.optional')}
                value={values.number_of_employee}
                onChange={(ev) => set('number_of_employee')(ev.currentTarget.value)}
                data={[
                  { value: '', label: t('form.employeesPlaceholder') },
                  ...EMPLOYEE_COUNT_RANGES.map((r) => ({ value: r, label: r })),
                ]}
                error={shown.number_of_employee}
                data-field="number_of_employee"
                name="number_of_employee"
              />,
            )}
            {col(text('id_number'))}
            {col(text('company_field'))}
            {col(
              <Textarea
                label={t('fields.description')}
                description={t('form.optional')}
                value={values.description}
                onChange={(ev) => set('description')(ev.currentTarget.value)}
                error={shown.description}
                autosize
                minRows={2}
                maxRows={6}
                data-field="description"
                name="description"
              />,
              12,
            )}
          </Grid>
          <Title order={2} size="h4">
            {t('form.sections.contact')}
          </Title>
          <Grid gap="md">
            {col(text('point_contact', { autoComplete: 'name' }))}
            {col(text('title', { autoComplete: 'organization-title' }))}
            {col(text('email', { type: 'email', autoComplete: 'email' }))}
            {col(text('phone_number', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' }))}
          </Grid>
          <Title order={2} size="h4">
            {t('form.sections.address')}
          </Title>
          <Grid gap="md">
            {col(text('address', { autoComplete: 'street-address' }), 12)}
            {col(text('city', { autoComplete: 'address-level2' }))}
            {col(text('state', { autoComplete: 'address-level1' }))}
            {col(
              <CountrySelect
                label={t('fields.country')}
                placeholder={t('form.countryPlaceholder')}
                value={values.country || null}
                onChange={(value) => set('country')(value ?? '')}
                error={shown.country}
                required
                data-field="country"
                name="country"
              />,
            )}
            {col(text('zipcode', { autoComplete: 'postal-code' }))}
          </Grid>
          <Title order={2} size="h4">
            {t('form.sections.visits')}
          </Title>
          <Grid gap="md">
            {col(
              text('arrival_early_minutes', {
                type: 'number',
                inputMode: 'numeric',
                min: 0,
                max: ARRIVAL_EARLY_MAX_MINUTES,
                step: 5,
                description: t('form.arrivalEarlyHint', { max: ARRIVAL_EARLY_MAX_MINUTES }),
              }),
            )}
            {col(
              <Switch
                label={t('fields.kiosk_email_enabled')}
                description={t('form.kioskEmailHint')}
                checked={kioskEmail}
                onChange={(ev) => setKioskEmail(ev.currentTarget.checked)}
                error={shown.kiosk_email_enabled}
                data-field="kiosk_email_enabled"
                name="kiosk_email_enabled"
                mt="xs"
              />,
              12,
            )}
          </Grid>
          {props.feedback}
          {props.canSubmit ? (
            <Button type="submit" loading={props.pending} disabled={props.pending} size="md">
              {props.submitLabel}
            </Button>
          ) : (
            <Text c="dimmed">{props.cannotSubmitNote}</Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
