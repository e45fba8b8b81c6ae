/**
 * '{company} - Liste des Employés' at /company/{slug} (spec §2 Employee list): the staff
 * of one company, paged on the server (GET /api/user/list/{slug}). Roles read as the user
 * list names them, in the screen's language (issue 27: a French screen said "Employee");
 * a role Sésame does not know reads without its ROLE_ prefix. Another company's staff answer 404 unless the role
 * reaches every company (ACTIONS['employees.list']).
 */
import { Container, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { isRole, roleDisplayName, type User } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { ServerTable, type Column } from '../../../components/ServerTable';
import { getEmployees, useCompanyDetails } from '../api/companies';

export default function EmployeeListPage() {
  const { t } = useTranslation(['companies', 'users']);
  const { slug = '' } = useParams();
  const company = useCompanyDetails(slug);
  const companyName = company.data?.name ?? slug;

  const columns: Column<User>[] = [
    { key: 'id', header: t('employees.columns.id'), render: (_row, index) => index + 1 },
    {
      key: 'name',
      header: t('employees.columns.name'),
      render: (row) => (
        <Text size="sm" fw={600}>
          {row.name} {row.firstname}
        </Text>
      ),
    },
    {
      key: 'role',
      header: t('employees.columns.role'),
      render: (row) => {
        const names = row.roles
          .map((role) => (isRole(role) ? t(`users:roles.${role}`) : roleDisplayName(role)))
          .filter((n): n is string => !!n);
        return names.length ? (
          names.join(', ')
        ) : (
          <Text size="sm" c="dimmed">
            {t('employees.noRole')}
          </Text>
        );
      },
    },
    { key: 'email', header: t('employees.columns.email'), render: (row) => row.email },
  ];

  return (
    <Container size="lg" py="lg">
      <PageTitle>{t('employees.title', { company: companyName })}</PageTitle>
      <ServerTable
        queryKey={['companies', 'employees', slug.toLowerCase()]}
        fetchPage={(params) => getEmployees(slug, params)}
        columns={columns}
        rowKey={(row) => row.id}
        emptyMessage={t('employees.empty')}
        errorMessage={t('employees.loadFailed')}
        searchable
      />
    </Container>
  );
}
