/**
 * 'Liste des demandes' (spec §2 Request list): pages of 10 served by the server, the
 * image in a full-size modal, 'Confirmé' / 'En attente', the action column for those
 * who may validate (never supervisors), delete for admin only (in the action column, issue
 * 27). An event's participants ('Liste Participants') are the events feature's event page.
 */
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import {
  EVENT_DEFAULT_REASON,
  actsOnAllCompanies,
  mayPerform,
  type RequestRow,
  type Role,
} from '@sesame/shared';
import { BadgeButton } from '../../../components/BadgeButton';
import { ServerTable, type Column } from '../../../components/ServerTable';
import {
  CardLink,
  actionsColumns,
  mailColumn,
  requestFullName,
  showsOwnActions,
  statusColumn,
  useDeleteRequest,
  visitorColumns,
  type RowAction,
} from '../../../components/request-columns';
import { formatShortDate } from '../../../lib/format';
import { useListSite } from '../../../lib/list-site';
import { withZone } from '../../../lib/zone-label';
import { deleteVisitor, fetchRequests, type RequestListScope } from '../api/requests';

export interface RequestTableProps {
  /** The company slug of the screen's URL. */
  domain: string;
  role: Role;
  /** The signed-in user's company slug. */
  userCompany: string;
}

export function RequestTable({ domain, role, userCompany }: RequestTableProps) {
  const { t, i18n } = useTranslation('requests');
  const isAdmin = role === 'ROLE_ADMIN';
  // The header's site (issue 28); every site of a company of several: a Site column.
  const { site: siteId, showSite } = useListSite();
  const scope: RequestListScope = { company: isAdmin ? undefined : userCompany, site: siteId };
  const remove = useDeleteRequest(deleteVisitor, 'requests');

  const columns: Column<RequestRow>[] = [
    ...visitorColumns({
      visitor: t('columns.visitor'),
      image: t('columns.image'),
    }),
    // Issue 14: the meeting's day and time (one column: the list fits 1280 px), and
    // whose company for roles that see several.
    {
      key: 'meeting',
      header: t('columns.meeting'),
      render: (row: RequestRow) => (
        <Stack gap={0}>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {row.request_date ?? ''}
          </Text>
          <Text size="sm">
            {withZone(row.request_time ?? '', row.site?.timezone, i18n.language)}
          </Text>
        </Stack>
      ),
    },
    ...(showSite
      ? [
          {
            key: 'site',
            header: t('columns.site'),
            render: (row: RequestRow) => row.site?.name ?? '',
          },
        ]
      : []),
    ...(actsOnAllCompanies(role, 'requests.list')
      ? [
          {
            key: 'company',
            header: t('columns.company'),
            render: (row: RequestRow) => row.company.name,
          },
        ]
      : []),
    {
      key: 'host',
      header: t('columns.host'),
      card: 'wide',
      // A host with an account is a person Sésame knows (issue 15): a link to the user
      // for whoever may edit users, their name otherwise.
      render: (row) =>
        row.host_user && mayPerform(role, 'users.update') ? (
          <Anchor component={Link} to={`/${row.company.slug}/edit-user/${row.host_user.id}`}>
            {row.host_user.name}
          </Anchor>
        ) : (
          (row.host_user?.name ?? row.host ?? '')
        ),
    },
    {
      key: 'reason',
      header: t('columns.reason'),
      card: 'wide',
      // An event registration's stored reason is a code, said in the reader's language.
      render: (row) =>
        row.reason === EVENT_DEFAULT_REASON ? t('reasonNotApplicable') : (row.reason ?? ''),
    },
  ];
  columns.push(
    statusColumn(t('columns.status'), {
      confirmed: t('status.confirmed'),
      pending: t('status.pending'),
      declined: t('status.declined'),
      cancelled: t('status.cancelled'),
    }),
    // Issue 12 §5: the code mail's state, and Renvoyer.
    mailColumn(t('common:mail.title'), mayPerform(role, 'requests.validate')),
    {
      key: 'created',
      header: t('columns.createdAt'),
      render: (row) => formatShortDate(row.created_at, undefined, i18n.language),
    },
  );
  // The row's actions, in one column (issue 27): validate or the card, then delete.
  const actions: RowAction[] = [];
  if (showsOwnActions(role)) {
    actions.push((row) =>
      row.state === 'pending' ? (
        <Button component={Link} to={`/${domain}/waiting-validation/${row.id}`} size="xs">
          {t('action.validate')}
        </Button>
      ) : row.confirmed && row.visitor.uidn ? (
        <CardLink row={row} label={t('action.card')} />
      ) : null,
    );
  }
  // Issue 29: a confirmed visit's badge, printed or reprinted from the list.
  if (mayPerform(role, 'badges.print')) {
    actions.push((row) =>
      row.state === 'confirmed' && !row.visitor.evenements ? (
        <BadgeButton
          requestId={row.id}
          name={requestFullName(row)}
          company={row.company.id}
          site={row.site}
        />
      ) : null,
    );
  }
  columns.push(
    ...actionsColumns(role, actions, remove, {
      header: t('columns.action'),
      delete: t('action.delete'),
      deleteLabel: (name) => t('action.deleteLabel', { name }),
    }),
  );

  return (
    <ServerTable<RequestRow>
      queryKey={['requests', 'list', scope]}
      fetchPage={(params) => fetchRequests(scope, params)}
      columns={columns}
      rowKey={(row) => row.id}
      emptyMessage={t('empty.requests')}
      searchable
    />
  );
}
