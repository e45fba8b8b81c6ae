/**
 * The user form of CreateUser and EditUser (spec §2 CreateUser, §5 User creation).
 * Role choices come from the shared matrix (spec §6): a role the signed-in user
 * may not assign is never offered. The company is chosen by ROLE_ADMIN and
 * ROLE_SESAME only; the others see their own, locked.
 */
import { useMemo } from 'react';
import {
  Button,
  Grid,
  MultiSelect,
  NativeSelect,
  Select,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import {
  PASSWORD_MIN_LENGTH,
  ROLES,
  activeRole,
  canAssignRole,
  mayChooseCompany,
  userCreateSchema,
  userUpdateSchema,
  type User,
} from '@sesame/shared';
import { CompanySelect } from '../../../components/CompanySelect';
import { FeedbackAlert } from '../../../components/FeedbackAlert';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { useCompanySites } from '../../../lib/site';
import type { Save } from '../../../lib/use-save';
import { useSchemaForm } from '../../../lib/use-schema-form';
import type { UserBody } from '../api/users';

/**
 * The form holds the body's fields; the department is added when it is sent. The home
 * site is '' for none.
 */
export type UserFormValues = Omit<UserBody, 'department_id' | 'home_site_id' | 'site_ids'> & {
  home_site_id: string;
  site_ids: string[];
};

/** What a user record says of their sites (issue 28). */
interface UserSites {
  home_site_id?: string | null;
  site_ids?: string[];
}

interface UserFormProps {
  mode: 'create' | 'edit';
  /** The user being edited. */
  initial?: User;
  /** The company of the page, preselected for those who choose. */
  pageCompanySlug?: string;
  /** The mutation is in flight. */
  sending: boolean;
  /** The save: its banner under the form, and the submit. */
  save: Save<UserBody>;
}

export function UserForm(props: UserFormProps) {
  const { t } = useTranslation('users');
  const { user, role } = useAuth();
  const chooses = !!role && mayChooseCompany(role, 'users.create');
  const pageCompany = useCompany(chooses ? props.pageCompanySlug : undefined);
  const initial = props.initial;
  const currentRole = initial ? activeRole(initial.roles) : 'ROLE_USER';

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

  const currentCompany = initial
    ? { id: initial.company_id, name: initial.company_name, slug: initial.company }
    : pageCompany.data;

  const initialSites = (initial ?? {}) as UserSites;
  const companyOf = (values: UserFormValues) =>
    chooses
      ? values.company_id || currentCompany?.id || user?.company_id || ''
      : (initial?.company_id ?? user?.company_id ?? '');
  /** The company's sites, once the form knows its company (below); read by `toBody`. */
  let sites: { id: string; archived_at: string | null }[] = [];
  let multiSite = false;

  const toBody = (values: UserFormValues): UserBody => ({
    name: values.name,
    firstname: values.firstname,
    email: values.email,
    password: values.password,
    title: values.title,
    contact: values.contact,
    role: roleOptions.includes(values.role) ? values.role : (roleOptions[0] ?? values.role),
    company_id: companyOf(values),
    status: values.status,
    department_id: initial?.department_id ?? null,
    // Issue 28: only for a company of several sites (one site: the spec's body, unchanged),
    // and only that company's sites (another company chosen since: none of the old ones).
    ...(multiSite
      ? {
          home_site_id: sites.some((site) => site.id === values.home_site_id)
            ? values.home_site_id
            : null,
          site_ids: values.site_ids.filter((id) => sites.some((site) => site.id === id)),
        }
      : {}),
  });

  const { form, submit } = useSchemaForm(
    props.mode === 'create' ? userCreateSchema : userUpdateSchema,
    {
      ns: 'users',
      initialValues: {
        name: initial?.name ?? '',
        firstname: initial?.firstname ?? '',
        email: initial?.email ?? '',
        password: '',
        title: initial?.title ?? '',
        contact: initial?.contact ?? '',
        role: currentRole,
        company_id: initial?.company_id ?? '',
        status: initial?.status ?? true,
        home_site_id: initialSites.home_site_id ?? '',
        site_ids: initialSites.site_ids ?? [],
      },
      toInput: toBody,
      onSubmit: (_data, values) => props.save.submit(toBody(values)),
    },
  );
  // The chosen company's sites, archived ones too: a user homed at an archived site keeps it.
  const siteQuery = useCompanySites(companyOf(form.values) || undefined, { archived: true });
  sites = siteQuery.data ?? [];
  multiSite = sites.filter((site) => !site.archived_at).length > 1;
  /** Active sites, and an archived one only while it is chosen. */
  const siteOptions = (chosen: readonly string[]) =>
    (siteQuery.data ?? [])
      .filter((site) => !site.archived_at || chosen.includes(site.id))
      .map((site) => ({
        value: site.id,
        label: site.archived_at ? t('form.archivedSite', { name: site.name }) : site.name,
      }));
  const body = toBody(form.getValues());
  const pending = props.sending || props.save.saved;

  // Spec §5 requires a title and a phone at creation; an edit may leave them blank
  // (userUpdateSchema; the seeded first admin has neither).
  const optionalOnEdit = (field: string) =>
    props.mode === 'edit' && (field === 'title' || field === 'contact');
  const text = (field: 'name' | 'firstname' | 'email' | 'title' | 'contact', extra = {}) => (
    <TextInput
      label={t(`fields.${field}`)}
      {...form.getInputProps(field)}
      required={!optionalOnEdit(field)}
      name={field}
      {...extra}
    />
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <form onSubmit={submit} noValidate>
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
                  props.mode === 'edit'
                    ? t('form.passwordKeep')
                    : t('form.passwordHint', { min: PASSWORD_MIN_LENGTH })
                }
                {...form.getInputProps('password')}
                required={props.mode === 'create'}
                autoComplete="new-password"
                name="password"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {text('title', { autoComplete: 'organization-title' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              {/* A '+' and spaces are typed too (issue 27): the phone keypad, not the digits one. */}
              {text('contact', { type: 'tel', inputMode: 'tel', autoComplete: 'tel' })}
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NativeSelect
                label={t('fields.role')}
                description={roleLocked ? t('form.roleLocked') : undefined}
                {...form.getInputProps('role')}
                value={body.role}
                data={roleOptions.map((r) => ({ value: r, label: t(`roles.${r}`) }))}
                disabled={roleLocked}
                required
                name="role"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <CompanySelect
                chooses={chooses}
                value={body.company_id}
                onChange={(id) => form.setFieldValue('company_id', id)}
                current={currentCompany}
                lockedName={initial?.company_name ?? user?.company_name ?? ''}
                label={t('fields.company_id')}
                placeholder={t('form.companyPlaceholder')}
                lockedDescription={t('form.companyLocked')}
                nothingFound="—"
                error={form.errors.company_id}
                required
                name="company_id"
              />
            </Grid.Col>
          </Grid>
          {multiSite && (
            <Grid gap="md">
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Select
                  label={t('fields.home_site_id')}
                  description={t('form.homeSiteHint')}
                  placeholder={t('form.noHomeSite')}
                  {...form.getSelectProps('home_site_id')}
                  data={siteOptions([form.values.home_site_id])}
                  clearable
                  name="home_site_id"
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <MultiSelect
                  label={t('fields.site_ids')}
                  description={t('form.siteIdsHint')}
                  placeholder={form.values.site_ids.length ? undefined : t('form.allSites')}
                  {...form.getInputProps('site_ids')}
                  value={form.values.site_ids}
                  onChange={(value) => form.setFieldValue('site_ids', value)}
                  data={siteOptions(form.values.site_ids)}
                  clearable
                  name="site_ids"
                />
              </Grid.Col>
            </Grid>
          )}
          {props.mode === 'edit' && (
            <Switch
              label={t('fields.status')}
              {...form.getInputProps('status', { type: 'checkbox' })}
              name="status"
            />
          )}
          <FeedbackAlert feedback={props.save.feedback} />
          <Button type="submit" loading={pending} disabled={pending} size="md">
            {t(`${props.mode}.submit`)}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
