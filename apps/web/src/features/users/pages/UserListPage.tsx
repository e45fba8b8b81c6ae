/**
 * 'Liste des Utilisateurs' (spec §2 User list, §6 scope): ROLE_ADMIN reads every
 * company's users, the others their own company's; a supervisor's list has neither
 * admins nor themself (the server leaves them out). Edit for super admin and
 * ROLE_SESAME on the accounts they may edit; delete for the admin only.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import {
  USER_LIST_RULES,
  actsOnAllCompanies,
  canAssignRole,
  isRole,
  mayPerform,
  type Role,
  type User,
} from '@sesame/shared';
import { confirmDelete } from '../../../components/confirm-delete';
import { ListPage, deleteColumn, editColumn, numberColumn } from '../../../components/ListParts';
import type { Column } from '../../../components/ServerTable';
import { useAuth } from '../../../lib/auth';
import { formatLongDate } from '../../../lib/format';
import { deleteUser, getUsers } from '../api/users';

/** As the list and its confirmations name a user: first name, then name. */
const fullName = (row: User) => `${row.firstname} ${row.name}`;

/** The server's rule, mirrored to show the link only where it will work. */
function mayEdit(viewer: { id: string; role: Role }, row: User): boolean {
  if (row.id === viewer.id) return true;
  return row.roles.filter(isRole).every((r) => canAssignRole(viewer.role, r));
}

export default function UserListPage() {
  const { t, i18n } = useTranslation('users');
  const { domain = '' } = useParams();
  const { user, role } = useAuth();
  const queryClient = useQueryClient();
  const allCompanies = !!role && actsOnAllCompanies(role, 'users.list');
  const scope = allCompanies ? null : (user?.company ?? domain);
  const showEdit = !!role && USER_LIST_RULES.editLink.includes(role);
  const showDelete = !!role && USER_LIST_RULES.deleteColumn.includes(role);
  const mayCreate = !!role && mayPerform(role, 'users.create');

  const remove = async (row: User) => {
    if (await confirmDelete(fullName(row), () => deleteUser(row.id))) {
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    }
  };

  const columns: Column<User>[] = [
    numberColumn(t('list.columns.id')),
    {
      key: 'name',
      header: t('list.columns.name'),
      render: (row) => (
        <Stack gap={2}>
          <Text size="sm" fw={600}>
            {row.name} {row.firstname}
          </Text>
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              {t(`roles.${row.role}`)}
              {allCompanies ? ` · ${row.company_name}` : ''}
            </Text>
            {!row.status && (
              <Badge size="xs" color="gray" variant="light">
                {t('list.disabled')}
              </Badge>
            )}
          </Group>
        </Stack>
      ),
    },
    { key: 'email', header: t('list.columns.email'), render: (row) => row.email },
    {
      key: 'createdAt',
      header: t('list.columns.createdAt'),
      render: (row) => formatLongDate(row.created_at, undefined, i18n.language),
    },
  ];
  if (showEdit && user && role) {
    columns.push(
      editColumn({ header: t('list.columns.edit'), label: t('list.edit') }, (row) =>
        mayEdit({ id: user.id, role }, row)
          ? {
              to: `/${domain}/edit-user/${row.id}`,
              ariaLabel: t('list.editLabel', { name: fullName(row) }),
            }
          : null,
      ),
    );
  }
  if (showDelete) {
    columns.push(
      // Nobody deletes themself.
      deleteColumn({ header: t('list.columns.delete'), label: t('list.delete') }, (row) =>
        row.id === user?.id
          ? null
          : {
              ariaLabel: t('list.deleteLabel', { name: fullName(row) }),
              onDelete: () => void remove(row),
            },
      ),
    );
  }

  return (
    <ListPage
      title={t('list.title')}
      create={mayCreate ? { to: `/${domain}/create-user`, label: t('list.create') } : undefined}
      queryKey={['users', 'list', scope ?? 'all']}
      fetchPage={(params) => getUsers(params, scope)}
      columns={columns}
      rowKey={(row) => row.id}
      emptyMessage={t('list.empty')}
      errorMessage={t('list.loadFailed')}
    />
  );
}
