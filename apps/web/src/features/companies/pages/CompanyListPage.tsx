/**
 * 'Liste des Compagnies' (spec §2 Company list, §6 Company list scope): paged on the
 * server; a supervisor sees only their own company (the server scopes it). The edit
 * link opens the inline form (`?compid=`) for the roles of COMPANY_LIST_RULES; delete
 * is for the admin, and the server refuses a company that still holds data.
 */
import { Alert, Anchor, Code, Image, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  COMPANY_LIST_RULES,
  IMAGE_SIZES,
  actsOnAllCompanies,
  mayPerform,
  type Action,
  type CompanyListItem,
  type Role,
} from '@sesame/shared';
import { confirmDelete } from '../../../components/confirm-delete';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import { ListPage, deleteColumn, editColumn, numberColumn } from '../../../components/ListParts';
import { QrThumbnailLink } from '../../../components/QrThumbnailLink';
import { QueryState } from '../../../components/QueryState';
import type { Column } from '../../../components/ServerTable';
import { useAuth } from '../../../lib/auth';
import { useSave } from '../../../lib/use-save';
import {
  deleteCompany,
  getCompanies,
  useCompanyDetails,
  useInlineUpdateCompany,
} from '../api/companies';
import { useCompanyFailure, useEditableCompany } from '../components/feedback';
import { InlineCompanyForm } from '../components/InlineCompanyForm';
import '@mantine/core/styles/Code.css';

/** Spec §6: a one-company role (the supervisor) has its own edit-link rule. */
function showsEditLink(role: Role): boolean {
  const roles = COMPANY_LIST_RULES.ownCompanyOnly.includes(role)
    ? COMPANY_LIST_RULES.editLinkForOwnCompanyOnlyRoles
    : COMPANY_LIST_RULES.editLink;
  return roles.includes(role);
}

/** The inline form of `?compid=`: loads the company, saves with PUT, then closes after 1.5 s. */
function InlineEdit({ companyId, domain }: { companyId: string; domain: string }) {
  const { t } = useTranslation('companies');
  const navigate = useNavigate();
  const editable = useEditableCompany(useCompanyDetails(companyId));
  const mutation = useInlineUpdateCompany();
  const listPath = `/${domain}/company-list`;
  const save = useSave(
    (form: FormData) => mutation.mutateAsync({ id: editable.company?.id ?? '', form }),
    useCompanyFailure(),
    { success: t('edit.updated'), then: listPath },
  );

  if (editable.query.isError) {
    return (
      <Alert
        color="red"
        role="alert"
        title={t('status.loadFailed')}
        mb="lg"
        withCloseButton
        onClose={() => void navigate(listPath)}
        closeButtonLabel={t('list.inlineCancel')}
      >
        {editable.refusal(editable.query.error)}
      </Alert>
    );
  }
  return (
    <QueryState query={editable.query} errorText={editable.refusal}>
      {(company) => (
        <InlineCompanyForm
          key={company.id}
          company={company}
          fullEditPath={`/${domain}/edit-company/${company.slug}`}
          sending={mutation.isPending}
          save={save}
          onClose={() => void navigate(listPath)}
        />
      )}
    </QueryState>
  );
}

export default function CompanyListPage() {
  const { t } = useTranslation('companies');
  const { domain = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const compid = searchParams.get('compid');
  const { user, role } = useAuth();
  const queryClient = useQueryClient();
  const ownOnly = !!role && COMPANY_LIST_RULES.ownCompanyOnly.includes(role);
  const showEdit = !!role && showsEditLink(role);
  const showDelete = !!role && COMPANY_LIST_RULES.deleteButton.includes(role);
  const mayCreate = !!role && mayPerform(role, 'companies.create');
  const scope = ownOnly ? (user?.company ?? domain) : 'all';
  /**
   * A manager lists every company but reads only their own company's staff and members
   * (spec §6): the links show only where the server would answer, instead of leading
   * to 'Failed to fetch data.'.
   */
  const opens = (action: Action, row: CompanyListItem) =>
    !!role &&
    mayPerform(role, action) &&
    (actsOnAllCompanies(role, action) || row.id === user?.company_id);

  const remove = async (row: CompanyListItem) => {
    const deleted = await confirmDelete(row.name, () => deleteCompany(row.id), {
      success: t('list.deleted', { name: row.name }),
    });
    if (!deleted) return;
    if (compid === row.id) setSearchParams({});
    await queryClient.invalidateQueries({ queryKey: ['companies'] });
  };

  const columns: Column<CompanyListItem>[] = [
    numberColumn(t('list.columns.id')),
    {
      key: 'name',
      header: t('list.columns.name'),
      render: (row) => (
        <Text size="sm" fw={600}>
          {row.name}
        </Text>
      ),
    },
    {
      key: 'slug',
      header: t('list.columns.slug'),
      render: (row) => <Code style={{ whiteSpace: 'nowrap' }}>{row.slug}</Code>,
    },
    {
      key: 'link',
      header: t('list.columns.link'),
      render: (row) => <CopyLinkButton link={row.link} />,
    },
    {
      key: 'qrcode',
      header: t('list.columns.qrcode'),
      render: (row) => (
        <QrThumbnailLink
          to={`/${domain}/show-company-qrcode/${row.slug}`}
          src={row.qrcode_url}
          alt={t('list.qrAlt', { name: row.name })}
          label={t('list.qrOpen', { name: row.name })}
          size={IMAGE_SIZES.medium}
        />
      ),
    },
    {
      key: 'logo',
      header: t('list.columns.logo'),
      render: (row) =>
        row.logo_url ? (
          <Image
            src={row.logo_url}
            alt={t('list.logoAlt', { name: row.name })}
            w={IMAGE_SIZES.medium}
            h={IMAGE_SIZES.medium}
            fit="contain"
            radius="sm"
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('list.noLogo')}
          </Text>
        ),
    },
    {
      key: 'employees',
      header: t('list.columns.employees'),
      render: (row) =>
        opens('employees.list', row) ? (
          <Anchor component={Link} to={`/company/${row.slug}`} size="sm">
            {t('list.employees')}
          </Anchor>
        ) : null,
    },
    {
      key: 'members',
      header: t('list.columns.members'),
      render: (row) => {
        if (!opens('members.list', row)) return null;
        const count = t('list.memberCount', { count: row.member_count });
        return (
          <Tooltip label={count} withArrow>
            <Anchor component={Link} to={`/company/${row.slug}/members`} size="sm">
              {t('list.members')}
              <VisuallyHidden> ({count})</VisuallyHidden>
            </Anchor>
          </Tooltip>
        );
      },
    },
  ];
  if (showEdit) {
    columns.push(
      editColumn({ header: t('list.columns.edit'), label: t('list.edit') }, (row) =>
        // Only where the server would accept the update: a super admin edits their own company.
        opens('companies.update', row)
          ? {
              to: `/${domain}/company-list?compid=${row.id}`,
              ariaLabel: t('list.editLabel', { name: row.name }),
            }
          : null,
      ),
    );
  }
  if (showDelete) {
    columns.push(
      deleteColumn({ header: t('list.columns.delete'), label: t('list.delete') }, (row) => ({
        ariaLabel: t('list.deleteLabel', { name: row.name }),
        onDelete: () => void remove(row),
      })),
    );
  }

  return (
    <ListPage
      title={t('list.title')}
      create={mayCreate ? { to: `/${domain}/create-company`, label: t('list.create') } : undefined}
      queryKey={['companies', 'list', scope]}
      fetchPage={getCompanies}
      columns={columns}
      rowKey={(row) => row.id}
      emptyMessage={t('list.empty')}
      errorMessage={t('status.loadFailed')}
    >
      {compid && <InlineEdit key={compid} companyId={compid} domain={domain} />}
    </ListPage>
  );
}
