/**
 * The form of 'Créer une Entreprise' and 'Éditer l'Entreprise' (spec §2, §5 Company
 * create and edit). Create: every field of spec §5 and the logo are required. Edit:
 * the name is read-only, the logo optional. The shared schemas check the fields
 * here and again on the server; the logo's type is checked by content there.
 */
import type { ReactNode } from 'react';
import {
  Button,
  Grid,
  NativeSelect,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import {
  DEFAULT_DAY_END,
  EMPLOYEE_COUNT_RANGES,
  companyCreateSchema,
  companyUpdateSchema,
  type Company,
} from '@sesame/shared';
import { AddressFields } from '../../../components/AddressFields';
import { FeedbackAlert } from '../../../components/FeedbackAlert';
import { col } from '../../../components/InlineForm';
import { arrivalEarlyInput } from '../../../lib/arrival-early';
import type { Save } from '../../../lib/use-save';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { LOGO_MO, logoProblem } from '../lib/logo';
import { LogoField } from './LogoField';

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
  'day_end',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];
type Values = Record<TextField, string> & { kiosk_email_enabled: boolean; logo: File | null };

interface CompanyFormProps {
  mode: 'create' | 'edit';
  initial?: Company;
  submitLabel: string;
  /** False hides the submit button (spec §2: creation needs a signed-in user). */
  canSubmit: boolean;
  /** Shown instead of the button when it is hidden. */
  cannotSubmitNote?: ReactNode;
  /** The mutation is in flight. */
  sending: boolean;
  /** The save: its banner under the form, and the submit. */
  save: Save<FormData>;
}

export function CompanyForm(props: CompanyFormProps) {
  const { t } = useTranslation('companies');
  const initial = props.initial;

  /** The text fields as the schema and the server read them (the name is read-only on edit). */
  const fieldsOf = (values: Values): Record<string, string> => {
    const fields: Record<string, string> = {
      kiosk_email_enabled: String(values.kiosk_email_enabled),
    };
    for (const field of TEXT_FIELDS) fields[field] = values[field];
    if (props.mode === 'edit') delete fields.name;
    return fields;
  };

  const initialValues = () => {
    const start = { logo: null } as Values;
    for (const field of TEXT_FIELDS) start[field] = String(initial?.[field] ?? '');
    // A new company lets visitors in from the start of their day (0 minutes before).
    start.arrival_early_minutes = String(initial?.arrival_early_minutes ?? 0);
    // 'Fin de journée': whoever is still inside is checked out then (23:59 by default).
    start.day_end = initial?.day_end ?? DEFAULT_DAY_END;
    // The kiosk's e-mail presence (ARCHITECTURE §6): off unless the company turns it on.
    start.kiosk_email_enabled = initial?.kiosk_email_enabled ?? false;
    return start;
  };

  const pending = props.sending || props.save.saved;
  const { form, submit } = useSchemaForm(
    props.mode === 'create' ? companyCreateSchema : companyUpdateSchema,
    {
      ns: 'companies',
      initialValues: initialValues(),
      toInput: fieldsOf,
      check: (values) => ({ logo: logoProblem(values.logo, props.mode === 'create', t) }),
      onSubmit: (_data, values) => {
        const body = new FormData();
        for (const [field, value] of Object.entries(fieldsOf(values))) body.append(field, value);
        if (values.logo) body.append('logo', values.logo);
        return props.save.submit(body);
      },
    },
  );

  const required = (field: TextField) =>
    !(
      field === 'description' ||
      field === 'number_of_employee' ||
      field === 'arrival_early_minutes' ||
      field === 'day_end'
    );
  const text = (field: TextField, extra: Record<string, unknown> = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      {...form.getInputProps(field)}
      required={required(field)}
      name={field}
      {...extra}
    />
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Title order={2} size="h4">
            {t('form.sections.identity')}
          </Title>
          <Grid gap="md">
            {col(
              <LogoField
                currentUrl={initial?.logo_url}
                description={
                  props.mode === 'edit' ? t('form.logoKeep') : t('form.logoHint', { mo: LOGO_MO })
                }
                required={props.mode === 'create'}
                inputProps={form.getInputProps('logo')}
              />,
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
                {...form.getInputProps('number_of_employee')}
                data={[
                  { value: '', label: t('form.employeesPlaceholder') },
                  ...EMPLOYEE_COUNT_RANGES.map((r) => ({ value: r, label: r })),
                ]}
                name="number_of_employee"
              />,
            )}
            {col(text('id_number'))}
            {col(text('company_field'))}
            {col(
              <Textarea
                label={t('fields.description')}
                description={t('form.optional')}
                {...form.getInputProps('description')}
                autosize
                minRows={2}
                maxRows={6}
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
            <AddressFields
              lines={['city', 'state', 'country', 'zipcode']}
              required
              form={form}
              t={t}
            />
          </Grid>
          <Title order={2} size="h4">
            {t('form.sections.visits')}
          </Title>
          <Grid gap="md">
            {col(text('arrival_early_minutes', arrivalEarlyInput(t)))}
            {col(
              text('day_end', {
                type: 'time',
                step: 60,
                description: t('form.dayEndHint'),
              }),
            )}
            {col(
              <Switch
                label={t('fields.kiosk_email_enabled')}
                description={t('form.kioskEmailHint')}
                {...form.getInputProps('kiosk_email_enabled', { type: 'checkbox' })}
                name="kiosk_email_enabled"
                mt="xs"
              />,
              12,
            )}
          </Grid>
          <FeedbackAlert feedback={props.save.feedback} />
          {props.canSubmit ? (
            <Button type="submit" loading={pending} disabled={pending} size="md">
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
