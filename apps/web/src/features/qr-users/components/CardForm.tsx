/**
 * The form of 'Créer un QRCode' and 'Créer une Carte Membre' (spec §2, §5):
 * first name, last name, contact (digits only, as typed), email, title, QR type
 * (permanent only), expiry date (QR only), company (spec §6 company choice) and
 * the document (QR: pdf, doc, docx or image; member: the photo). The shared
 * schemas check the fields here and again on the server.
 */
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { FileInput, Grid, NativeSelect, Paper, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import {
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  digitsOnly,
  mayChooseCompany,
  MEMBER_PHOTO_TYPES,
  QR_TYPES,
  QR_USER_DOCUMENT_TYPES,
  QR_USER_FIELD_LABELS,
  QR_USER_MESSAGES,
  UPLOAD_MAX_BYTES,
  type QrUserCard,
  type QrUserField,
} from '@sesame/shared';
import { FormSubmit } from '../../../components/FormSubmit';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { useCompanyOptions, useCreateMember, useCreateQrUser } from '../api/qr-users';
import { DayInput } from './DayInput';

export type CardFormMode = 'qr' | 'member';

interface Values {
  firstname: string;
  lastname: string;
  contact: string;
  email: string;
  title: string;
  type: string;
  dateExp: string | null;
  company_id: string;
}

const EMPTY: Values = {
  firstname: '',
  lastname: '',
  contact: '',
  email: '',
  title: '',
  type: 'permanent',
  dateExp: null,
  company_id: '',
};

/** The shared schema's messages → this feature's locale keys (English follows the language). */
const MESSAGE_KEYS: Record<string, string> = {
  [QR_USER_MESSAGES.emailInvalid]: 'form.errors.emailInvalid',
  [QR_USER_MESSAGES.contactInvalid]: 'form.errors.contactInvalid',
  [QR_USER_MESSAGES.typeInvalid]: 'form.errors.typeInvalid',
  [QR_USER_MESSAGES.dateInvalid]: 'form.errors.dateInvalid',
  [QR_USER_MESSAGES.companyInvalid]: 'form.errors.companyInvalid',
};

const EXTENSIONS = {
  qr: ['pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png', 'webp'],
  member: ['jpg', 'jpeg', 'png', 'webp'],
};
const ACCEPT = {
  qr: [...QR_USER_DOCUMENT_TYPES, '.pdf', '.doc', '.docx'].join(','),
  member: MEMBER_PHOTO_TYPES.join(','),
};
const FIELD_ORDER: QrUserField[] = [
  'firstname',
  'lastname',
  'contact',
  'email',
  'title',
  'dateExp',
  'company_id',
  'user_document',
];

export function CardForm({
  mode,
  domain,
  onCreated,
}: {
  mode: CardFormMode;
  domain: string;
  onCreated: (card: QrUserCard) => void;
}) {
  const { t, i18n } = useTranslation('qrUsers');
  const { user, role } = useAuth();
  const ns = mode === 'qr' ? 'createQr' : 'createMember';
  const action = mode === 'qr' ? 'qrUsers.create' : 'members.create';
  const chooses = !!role && mayChooseCompany(role, action);
  const [values, setValues] = useState<Values>(EMPTY);
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [companySearch, setCompanySearch] = useState('');
  const [q] = useDebouncedValue(companySearch, 300);
  const formRef = useRef<HTMLFormElement>(null);
  const createQr = useCreateQrUser();
  const createMember = useCreateMember();
  const mutation = mode === 'qr' ? createQr : createMember;

  const pageCompany = useCompany(domain);
  const options = useCompanyOptions(chooses, q);

  // Those who choose start on the page's company until they pick another; the others
  // have theirs, locked.
  const companyId = chooses
    ? values.company_id || pageCompany.data?.id || ''
    : (user?.company_id ?? '');
  const companyData = useMemo(() => {
    const list = options.data ?? [];
    const page = pageCompany.data;
    const all = page && !list.some((c) => c.id === page.id) ? [page, ...list] : list;
    return all.map((c) => ({ value: c.id, label: c.name }));
  }, [options.data, pageCompany.data]);

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
    // The summary banner names a field the person is now correcting: it goes; field errors stay.
    setFormError(null);
  };

  const label = (field: QrUserField) =>
    t(`fields.${field === 'user_document' && mode === 'member' ? 'photo' : field}`);

  const messageText = (message: string, field?: string) => {
    if (
      field &&
      field in QR_USER_FIELD_LABELS &&
      message === QR_USER_MESSAGES.required(field as QrUserField)
    ) {
      return t('form.errors.required', { label: label(field as QrUserField) });
    }
    const key = MESSAGE_KEYS[message];
    return key ? t(key) : message;
  };

  const checkFile = (): string | undefined => {
    if (!file || file.size === 0)
      return t('form.errors.required', { label: label('user_document') });
    if (file.size > UPLOAD_MAX_BYTES) return t('form.errors.fileTooLarge');
    const allowed: readonly string[] = mode === 'qr' ? QR_USER_DOCUMENT_TYPES : MEMBER_PHOTO_TYPES;
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!allowed.includes(file.type) && !EXTENSIONS[mode].includes(extension)) {
      return t(mode === 'qr' ? 'form.errors.documentType' : 'form.errors.photoType');
    }
    return undefined;
  };

  const showErrors = (next: Record<string, string>) => {
    setErrors(next);
    const first = FIELD_ORDER.find((f) => next[f]);
    setFormError(first ? (next[first] ?? null) : null);
    if (first) formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
  };

  const statusText = (status: number) =>
    [400, 401, 403, 404, 500].includes(status)
      ? t(`${ns}.status.${status}`)
      : t(`${ns}.status.other`, { status });

  const handleSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (mutation.isPending) return;
    const fields = {
      firstname: values.firstname,
      lastname: values.lastname,
      contact: values.contact,
      email: values.email,
      title: values.title,
      type: values.type,
      company_id: companyId,
      ...(mode === 'qr' ? { dateExp: values.dateExp ?? '' } : {}),
    };
    const parsed = (mode === 'qr' ? createQrUserFieldsSchema : createMemberFieldsSchema).safeParse(
      fields,
    );
    const next: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        next[field] ??= messageText(issue.message, field);
      }
    }
    const fileError = checkFile();
    if (fileError) next.user_document = fileError;
    if (Object.keys(next).length > 0) {
      showErrors(next);
      return;
    }
    setErrors({});
    setFormError(null);
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) {
      if (value) form.set(key, key === 'contact' ? digitsOnly(value) : value);
    }
    form.set('user_document', file!);
    try {
      const answer = await mutation.mutateAsync(form);
      notifications.show({ color: 'teal', message: t(`${ns}.status.success`) });
      onCreated(answer.data);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status === 0) {
        notifications.show({ color: 'red', message: t(`${ns}.status.exception`) });
        setFormError(t(`${ns}.status.exception`));
        return;
      }
      notifications.show({ color: 'red', message: statusText(error.status) });
      const serverErrors: Record<string, string> = {};
      for (const [field, message] of Object.entries(error.errors ?? {})) {
        serverErrors[field] = messageText(message, field);
      }
      // A refused upload (too large, wrong type) is the document's fault.
      if (error.status === 413 || error.status === 415) serverErrors.user_document = error.message;
      if (Object.keys(serverErrors).length > 0) showErrors(serverErrors);
      else setFormError(statusText(error.status));
    }
  };

  const text = (
    field: 'firstname' | 'lastname' | 'email' | 'title',
    extra: Partial<Parameters<typeof TextInput>[0]> = {},
  ) => (
    <TextInput
      label={label(field)}
      description={mode === 'qr' ? t('form.optional') : undefined}
      required={mode === 'member'}
      value={values[field]}
      onChange={(ev) => set(field, ev.currentTarget.value)}
      error={errors[field]}
      data-field={field}
      name={field}
      maxLength={200}
      {...extra}
    />
  );

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form ref={formRef} onSubmit={(e) => void handleSubmit(e)} noValidate>
        <Stack gap="md">
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('firstname', { autoComplete: 'given-name' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('lastname', { autoComplete: 'family-name' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={label('contact')}
                description={mode === 'qr' ? t('form.optional') : t('form.contactHint')}
                required={mode === 'member'}
                value={values.contact}
                onChange={(ev) => set('contact', digitsOnly(ev.currentTarget.value))}
                error={errors.contact}
                inputMode="numeric"
                autoComplete="tel"
                maxLength={15}
                data-field="contact"
                name="contact"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('email', { type: 'email', autoComplete: 'email', maxLength: 254 })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('title', { autoComplete: 'organization-title' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NativeSelect
                label={t('fields.type')}
                data={QR_TYPES.map((type) => ({ value: type, label: t(`types.${type}`) }))}
                value={values.type}
                onChange={(ev) => set('type', ev.currentTarget.value)}
                name="type"
                data-field="type"
              />
            </Grid.Col>
            {mode === 'qr' && (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <DayInput
                  language={i18n.language}
                  label={label('dateExp')}
                  description={t('form.noExpiry')}
                  placeholder={t('form.datePlaceholder')}
                  value={values.dateExp}
                  onChange={(value) => set('dateExp', value ? String(value) : null)}
                  clearable
                  error={errors.dateExp}
                  data-field="dateExp"
                  name="dateExp"
                />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {chooses ? (
                <Select
                  label={label('company_id')}
                  placeholder={t('form.companyPlaceholder')}
                  data={companyData}
                  value={companyId || null}
                  onChange={(v) => set('company_id', v ?? '')}
                  searchable
                  onSearchChange={setCompanySearch}
                  nothingFoundMessage={t('form.nothingFound')}
                  required={mode === 'member'}
                  error={errors.company_id}
                  data-field="company_id"
                  name="company_id"
                />
              ) : (
                <TextInput
                  label={label('company_id')}
                  description={t('form.companyLocked')}
                  value={user?.company_name ?? ''}
                  readOnly
                  required={mode === 'member'}
                  error={errors.company_id}
                  data-field="company_id"
                  name="company_name"
                />
              )}
            </Grid.Col>
            <Grid.Col span={12}>
              <FileInput
                label={label('user_document')}
                description={t(mode === 'qr' ? 'form.documentHint' : 'form.photoHint')}
                placeholder={t('form.filePlaceholder')}
                accept={ACCEPT[mode]}
                value={file}
                onChange={(picked) => {
                  setFile(picked);
                  setErrors((e) => ({ ...e, user_document: undefined }));
                  setFormError(null);
                }}
                clearable
                required
                error={errors.user_document}
                data-field="user_document"
                name="user_document"
              />
            </Grid.Col>
          </Grid>
          <FormSubmit
            error={formError}
            errorTestId="card-form-error"
            pending={mutation.isPending}
            label={t('form.submit')}
          />
        </Stack>
      </form>
    </Paper>
  );
}
