/**
 * The user form of CreateUser and EditUser (spec §2 CreateUser, §5 User creation).
 * Role choices come from the shared matrix (spec §6): a role the signed-in user
 * may not assign is never offered. The company is chosen by ROLE_ADMIN and
 * ROLE_SESAME only; the others see their own, locked.
 */
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  Button,
  Grid,
  NativeSelect,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  ROLES,
  USER_FIELD_LABELS,
  USER_MESSAGES,
  activeRole,
  canAssignRole,
  mayChooseCompany,
  userCreateSchema,
  userUpdateSchema,
  type Role,
  type User,
  type UserField,
} from '@sesame/shared';
import { useAuth } from '../../../lib/auth';
import { useCompanyChoices, type UserBody } from '../api/users';

export interface UserFormValues {
  name: string;
  firstname: string;
  email: string;
  password: string;
  title: string;
  contact: string;
  role: Role;
  company_id: string;
  status: boolean;
}

/** The shared schema's French messages → this screen's locale keys (English follows the language). */
const MESSAGE_KEYS: Record<string, string> = {
  [USER_MESSAGES.emailInvalid]: 'form.errors.emailInvalid',
  [USER_MESSAGES.contactInvalid]: 'form.errors.contactInvalid',
  [USER_MESSAGES.passwordTooShort]: 'form.errors.passwordTooShort',
  [USER_MESSAGES.passwordWeak]: 'form.errors.passwordWeak',
  [USER_MESSAGES.companyInvalid]: 'form.errors.companyInvalid',
  [USER_MESSAGES.roleInvalid]: 'form.errors.roleInvalid',
};

export function useUserMessageText() {
  const { t } = useTranslation('users');
  return (message: string, field?: string) => {
    if (
      field &&
      field in USER_FIELD_LABELS &&
      message === USER_MESSAGES.required(field as UserField)
    ) {
      return t('form.errors.required', { label: t(`fields.${field}`) });
    }
    const key = MESSAGE_KEYS[message];
    return key ? t(key) : message;
  };
}

interface UserFormProps {
  mode: 'create' | 'edit';
  /** The user being edited. */
  initial?: User;
  /** The company of the page, preselected for those who choose. */
  pageCompanySlug?: string;
  submitLabel: string;
  pending: boolean;
  /** Field errors from the server, already in the screen's language. */
  serverErrors: Record<string, string>;
  /** Shown under the form: the status message of the last attempt. */
  feedback?: ReactNode;
  onSubmit: (body: UserBody) => void;
}

export function UserForm(props: UserFormProps) {
  const { t } = useTranslation('users');
  const { user, role } = useAuth();
  const messageText = useUserMessageText();
  const formRef = useRef<HTMLFormElement>(null);
  const chooses = !!role && mayChooseCompany(role, 'users.create');
  const choices = useCompanyChoices(chooses);
  const initial = props.initial;
  const currentRole = initial ? activeRole(initial.roles) : 'ROLE_USER';

  const [values, setValues] = useState<UserFormValues>(() => ({
    name: initial?.name ?? '',
    firstname: initial?.firstname ?? '',
    email: initial?.email ?? '',
    password: '',
    title: initial?.title ?? '',
    contact: initial?.contact ?? '',
    role: currentRole,
    company_id: initial?.company_id ?? '',
    status: initial?.status ?? true,
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shownErrors = { ...props.serverErrors, ...errors };

  // Spec §6: the roles this user may give; on one's own account or a role above one's
  // own, the role stays as it is (the server refuses the change too).
  const roleOptions = useMemo(() => {
    if (!role) return [];
    const assignable = ROLES.filter((r) => canAssignRole(role, r));
    if (props.mode === 'edit' && !assignable.includes(currentRole)) return [currentRole];
    return assignable;
  }, [role, props.mode, currentRole]);
  const roleLocked =
    props.mode === 'edit' && roleOptions.length === 1 && roleOptions[0] === currentRole;
  const roleValue = roleOptions.includes(values.role)
    ? values.role
    : (roleOptions[0] ?? values.role);

  const companyData = useMemo(() => {
    const list = (choices.data ?? []).map((c) => ({ value: c.id, label: c.name }));
    if (initial && !list.some((c) => c.value === initial.company_id)) {
      list.unshift({ value: initial.company_id, label: initial.company_name });
    }
    return list;
  }, [choices.data, initial]);
  const pageCompanyId = choices.data?.find(
    (c) => c.slug.toLowerCase() === props.pageCompanySlug?.toLowerCase(),
  )?.id;
  const companyId = chooses
    ? values.company_id || pageCompanyId || user?.company_id || ''
    : (initial?.company_id ?? user?.company_id ?? '');
  const lockedCompanyName = initial?.company_name ?? user?.company_name ?? '';

  const set =
    <K extends keyof UserFormValues>(field: K) =>
    (value: UserFormValues[K]) => {
      setValues((v) => ({ ...v, [field]: value }));
      setErrors((e) => {
        const next = { ...e };
        delete next[field];
        return next;
      });
    };

  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (props.pending) return;
    const body: UserBody = {
      name: values.name,
      firstname: values.firstname,
      email: values.email,
      password: values.password,
      title: values.title,
      contact: values.contact,
      role: roleValue,
      company_id: companyId,
      status: values.status,
      department_id: initial?.department_id ?? null,
    };
    const schema = props.mode === 'create' ? userCreateSchema : userUpdateSchema;
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        next[field] ??= messageText(issue.message, field);
      }
      setErrors(next);
      const first = String(parsed.error.issues[0]?.path[0]);
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    props.onSubmit(body);
  };

  const text = (field: 'name' | 'firstname' | 'email' | 'title' | 'contact', extra = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      value={values[field]}
      onChange={(ev) => set(field)(ev.currentTarget.value)}
      error={shownErrors[field]}
      required
      data-field={field}
      name={field}
      {...extra}
    />
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form ref={formRef} onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('name', { autoComplete: 'family-name' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('firstname', { autoComplete: 'given-name' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('email', { type: 'email', autoComplete: 'off' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <PasswordInput
                label={t('fields.password')}
                description={
                  props.mode === 'edit' ? t('form.passwordKeep') : t('form.passwordHint')
                }
                value={values.password}
                onChange={(ev) => set('password')(ev.currentTarget.value)}
                error={shownErrors.password}
                required={props.mode === 'create'}
                autoComplete="new-password"
                data-field="password"
                name="password"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('title', { autoComplete: 'organization-title' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('contact', { type: 'tel', inputMode: 'numeric', autoComplete: 'tel' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NativeSelect
                label={t('fields.role')}
                description={roleLocked ? t('form.roleLocked') : undefined}
                value={roleValue}
                onChange={(ev) => set('role')(ev.currentTarget.value as Role)}
                data={roleOptions.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                error={shownErrors.role}
                disabled={roleLocked}
                required
                data-field="role"
                name="role"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {chooses ? (
                <Select
                  label={t('fields.company_id')}
                  placeholder={t('form.companyPlaceholder')}
                  data={companyData}
                  value={companyId || null}
                  onChange={(value) => set('company_id')(value ?? '')}
                  error={shownErrors.company_id}
                  searchable
                  required
                  nothingFoundMessage="—"
                  data-field="company_id"
                  name="company_id"
                />
              ) : (
                <TextInput
                  label={t('fields.company_id')}
                  description={t('form.companyLocked')}
                  value={lockedCompanyName}
                  readOnly
                  error={shownErrors.company_id}
                  data-field="company_id"
                />
              )}
            </Grid.Col>
          </Grid>
          {props.mode === 'edit' && (
            <Switch
              label={t('fields.status')}
              checked={values.status}
              onChange={(ev) => set('status')(ev.currentTarget.checked)}
              name="status"
            />
          )}
          {props.feedback}
          <Button type="submit" loading={props.pending} disabled={props.pending} size="md">
            {props.submitLabel}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
