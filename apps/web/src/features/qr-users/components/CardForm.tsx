/**
 * The form of 'Créer un QRCode' and 'Créer une Carte Membre' (spec §2, §5):
 * first name, last name, contact (a phone number as people write it, stored in E.164 by the
 * server as every phone field: issue 27), email, title, QR type
 * (permanent only), expiry date (QR only), company (spec §6 company choice) and
 * the document (QR: pdf, doc, docx or image; member: the photo). The shared
 * schemas check the fields here and again on the server.
 */
import { FileInput, Grid, NativeSelect, Paper, Stack, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import {
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  extensionsOf,
  mayChooseCompany,
  megabytes,
  MEMBER_PHOTO_TYPES,
  phoneCharacters,
  QR_TYPES,
  QR_USER_DOCUMENT_TYPES,
  TEXT_MAX,
  UPLOAD_MAX_BYTES,
  type QrUserCard,
  type QrUserField,
} from '@sesame/shared';
import { CompanySelect } from '../../../components/CompanySelect';
import { FormSubmit } from '../../../components/FormSubmit';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useCreateMember, useCreateQrUser } from '../api/qr-users';
import { DayInput } from './DayInput';
import { DEFAULT_TIMEZONE, todayIn } from '../../../lib/format';

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
  user_document: File | null;
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
  user_document: null,
};

/** The names a file may go by when the browser gives no media type. */
const EXTENSIONS = {
  qr: extensionsOf(QR_USER_DOCUMENT_TYPES),
  member: extensionsOf(MEMBER_PHOTO_TYPES),
};
const ACCEPT = {
  qr: [...QR_USER_DOCUMENT_TYPES, '.pdf', '.doc', '.docx'].join(','),
  member: MEMBER_PHOTO_TYPES.join(','),
};
/** The upload limit, as the hints and the message quote it. */
const MO = megabytes(UPLOAD_MAX_BYTES);

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
  const createQr = useCreateQrUser();
  const createMember = useCreateMember();
  const mutation = mode === 'qr' ? createQr : createMember;
  const pageCompany = useCompany(domain);

  const today = todayIn(pageCompany.data?.timezone ?? DEFAULT_TIMEZONE);

  const label = (field: QrUserField) =>
    t(`fields.${field === 'user_document' && mode === 'member' ? 'photo' : field}`);

  /** The text fields as the schema and the server read them. */
  const fieldsOf = (values: Values) => ({
    firstname: values.firstname,
    lastname: values.lastname,
    contact: values.contact,
    email: values.email,
    title: values.title,
    type: values.type,
    // Those who choose start on the page's company until they pick another; the others
    // have theirs, locked.
    company_id: chooses
      ? values.company_id || pageCompany.data?.id || ''
      : (user?.company_id ?? ''),
    ...(mode === 'qr' ? { dateExp: values.dateExp ?? '' } : {}),
  });

  /** What the schema cannot see: the file (type by name or media type, size by the limit). */
  const checkFile = ({ user_document: file }: Values): string | undefined => {
    if (!file || file.size === 0)
      return t('form.errors.required', { label: label('user_document') });
    if (file.size > UPLOAD_MAX_BYTES) return t('form.errors.fileTooLarge', { mo: MO });
    const allowed: readonly string[] = mode === 'qr' ? QR_USER_DOCUMENT_TYPES : MEMBER_PHOTO_TYPES;
    const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
    if (!allowed.includes(file.type) && !EXTENSIONS[mode].includes(extension)) {
      return t(mode === 'qr' ? 'form.errors.documentType' : 'form.errors.photoType');
    }
    return undefined;
  };

  const statusText = (status: number) =>
    [400, 401, 403, 404, 500].includes(status)
      ? t(`${ns}.status.${status}`)
      : t(`${ns}.status.other`, { status });

  const { form, submit, summary, showErrors, setSummary } = useSchemaForm(
    mode === 'qr' ? createQrUserFieldsSchema : createMemberFieldsSchema,
    {
      ns: 'qrUsers',
      initialValues: EMPTY,
      toInput: fieldsOf,
      check: (values) => ({
        user_document: checkFile(values),
        // The server refuses it too, in the company's zone: a code born expired.
        dateExp:
          mode === 'qr' && values.dateExp && values.dateExp < today
            ? t('form.errors.dateExpPast')
            : undefined,
      }),
      onSubmit: async (_data, values) => {
        const body = new FormData();
        for (const [key, value] of Object.entries(fieldsOf(values))) {
          if (value) body.set(key, value);
        }
        body.set('user_document', values.user_document!);
        try {
          const answer = await mutation.mutateAsync(body);
          notifications.show({ color: 'teal', message: t(`${ns}.status.success`) });
          onCreated(answer.data);
        } catch (error) {
          if (!(error instanceof ApiError) || error.status === 0) {
            notifications.show({ color: 'red', message: t(`${ns}.status.exception`) });
            setSummary(t(`${ns}.status.exception`));
            return;
          }
          notifications.show({ color: 'red', message: statusText(error.status) });
          const serverErrors = { ...error.errors };
          // A refused upload (too large, wrong type) is the document's fault.
          if ((error.status === 413 || error.status === 415) && error.serverMessage) {
            serverErrors.user_document = error.serverMessage;
          }
          if (Object.keys(serverErrors).length > 0) showErrors(serverErrors);
          else setSummary(statusText(error.status));
        }
      },
    },
  );

  const text = (
    field: 'firstname' | 'lastname' | 'email' | 'title',
    extra: Partial<Parameters<typeof TextInput>[0]> = {},
  ) => (
    <TextInput
      label={label(field)}
      description={mode === 'qr' ? t('form.optional') : undefined}
      required={mode === 'member'}
      {...form.getInputProps(field)}
      name={field}
      maxLength={200}
      {...extra}
    />
  );

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form onSubmit={submit} noValidate>
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
                {...form.getInputProps('contact')}
                onChange={(ev) =>
                  form.setFieldValue('contact', phoneCharacters(ev.currentTarget.value))
                }
                type="tel"
                inputMode="tel"
                autoComplete="tel"
                maxLength={TEXT_MAX.phone}
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
                {...form.getInputProps('type')}
                name="type"
              />
            </Grid.Col>
            {mode === 'qr' && (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <DayInput
                  language={i18n.language}
                  label={label('dateExp')}
                  description={t('form.noExpiry')}
                  placeholder={t('form.datePlaceholder')}
                  {...form.getInputProps('dateExp')}
                  onChange={(value) => form.setFieldValue('dateExp', value ? String(value) : null)}
                  clearable
                  name="dateExp"
                />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <CompanySelect
                chooses={chooses}
                value={fieldsOf(form.getValues()).company_id}
                onChange={(id) => form.setFieldValue('company_id', id)}
                current={pageCompany.data}
                lockedName={user?.company_name ?? ''}
                label={label('company_id')}
                placeholder={t('form.companyPlaceholder')}
                lockedDescription={t('form.companyLocked')}
                nothingFound={t('form.nothingFound')}
                required={mode === 'member'}
                error={form.errors.company_id}
                name="company_id"
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <FileInput
                label={label('user_document')}
                description={t(mode === 'qr' ? 'form.documentHint' : 'form.photoHint', { mo: MO })}
                placeholder={t('form.filePlaceholder')}
                accept={ACCEPT[mode]}
                {...form.getInputProps('user_document')}
                clearable
                required
                name="user_document"
              />
            </Grid.Col>
          </Grid>
          <FormSubmit
            error={summary}
            errorTestId="card-form-error"
            pending={mutation.isPending}
            label={t('form.submit')}
          />
        </Stack>
      </form>
    </Paper>
  );
}
