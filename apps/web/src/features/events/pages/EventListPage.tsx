/**
 * 'Liste des Événements' (spec §2 Event list, §6 scope): ROLE_ADMIN and ROLE_SESAME
 * see every company's events, the other roles their own company's; paged on the server.
 * The name opens the event page; those who may delete an event may also close it
 * (issue 17: a delete refused for its participants says to close it instead).
 */
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { IMAGE_SIZES, actsOnAllCompanies, mayPerform, type Event } from '@sesame/shared';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import { DeleteRowButton, ListPage } from '../../../components/ListParts';
import { QrThumbnailLink } from '../../../components/QrThumbnailLink';
import type { Column } from '../../../components/ServerTable';
import { confirmDelete } from '../../../components/confirm-delete';
import { useAuth } from '../../../lib/auth';
import { useListSite } from '../../../lib/list-site';
import { withZone } from '../../../lib/zone-label';
import { deleteEvent, getEvents } from '../api/events';
import { CloseEventButton } from '../components/CloseEventButton';
import { formatCreatedAt, formatEventDate, formatEventTime } from '../lib/format';

export default function EventListPage() {
  const { t, i18n } = useTranslation('events');
  const { domain = '' } = useParams();
  const { user, role } = useAuth();
  const queryClient = useQueryClient();
  const allCompanies = !!role && actsOnAllCompanies(role, 'events.list');
  const scope = allCompanies ? null : (user?.company ?? domain);
  const mayDelete = !!role && mayPerform(role, 'events.delete');
  const mayCreate = !!role && mayPerform(role, 'events.create');
  const lang = i18n.language;
  // The header's site (issue 28); every site of a company of several: a Site column.
  const { site: siteId, showSite } = useListSite();

  const remove = async (event: Event) => {
    const deleted = await confirmDelete(event.name, () => deleteEvent(event.id), {
      confirm: t('list.deleteConfirm', { name: event.name }),
      pending: t('list.deleting', { name: event.name }),
      success: t('list.deleted'),
      failure: (said) => said ?? t('list.deleteFailed'),
    });
    if (deleted) await queryClient.invalidateQueries({ queryKey: ['events'] });
  };

  const columns: Column<Event>[] = [
    { key: 'id', header: t('list.columns.id'), card: 'number', render: (_row, index) => index + 1 },
    { key: 'company', header: t('list.columns.company'), render: (row) => row.company.name },
    {
      key: 'name',
      header: t('list.columns.name'),
      card: 'title',
      render: (row) => (
        <Stack gap={2}>
          <Anchor
            component={Link}
            to={`/${row.company.slug}/list-qrcode-events/${row.slug}`}
            fw={600}
            size="sm"
          >
            {row.name}
          </Anchor>
          {row.closed && (
            <Badge color="gray" variant="light" size="sm">
              {t('list.closed')}
            </Badge>
          )}
        </Stack>
      ),
    },
    ...(showSite
      ? [{ key: 'site', header: t('list.columns.site'), render: (row: Event) => row.site?.name }]
      : []),
    { key: 'location', header: t('list.columns.location'), render: (row) => row.location },
    {
      key: 'date',
      header: t('list.columns.date'),
      render: (row) => formatEventDate(row.date_event, lang),
    },
    {
      key: 'time',
      header: t('list.columns.time'),
      // The event's site's time, with its zone when it is not the reader's.
      render: (row) => withZone(formatEventTime(row.time_event, lang), row.site?.timezone, lang),
    },
    {
      key: 'createdAt',
      header: t('list.columns.createdAt'),
      render: (row) => formatCreatedAt(row.created_at, row.company.timezone, lang),
    },
    {
      key: 'link',
      header: t('list.columns.link'),
      card: 'actions',
      render: (row) => <CopyLinkButton link={row.link} />,
    },
    {
      key: 'participants',
      header: t('list.columns.participants'),
      render: (row) => (
        <Anchor
          component={Link}
          to={`/${row.company.slug}/list-qrcode-events/${row.slug}`}
          size="sm"
        >
          {t('list.participants')}{' '}
          <Text span c="dimmed" size="xs">
            ({t('list.participantCount', { count: row.participant_count })})
          </Text>
        </Anchor>
      ),
    },
    {
      key: 'qrcode',
      header: t('list.columns.qrcode'),
      card: 'aside',
      render: (row) =>
        row.qrcode_url ? (
          <QrThumbnailLink
            to={`/${row.company.slug}/show-event-qrcode/${row.slug}`}
            src={row.qrcode_url}
            alt={t('list.qrAlt', { name: row.name })}
            size={IMAGE_SIZES.small}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('list.noQr')}
          </Text>
        ),
    },
  ];
  if (mayDelete) {
    columns.push({
      key: 'actions',
      header: t('list.columns.actions'),
      card: 'actions',
      // One above the other when the column is narrow: side by side, they pushed the
      // delete button out of a 1280 px screen (issue 27).
      render: (row) => (
        <Group gap="xs">
          <CloseEventButton event={row} />
          <DeleteRowButton
            label={t('list.delete')}
            ariaLabel={t('list.deleteLabel', { name: row.name })}
            onDelete={() => void remove(row)}
          />
        </Group>
      ),
    });
  }

  return (
    <ListPage
      title={t('list.title')}
      create={mayCreate ? { to: `/${domain}/create-event`, label: t('list.create') } : undefined}
      queryKey={['events', 'list', scope ?? 'all', siteId ?? 'all-sites']}
      fetchPage={(params) => getEvents(scope, params, siteId)}
      columns={columns}
      rowKey={(row) => row.id}
      emptyMessage={t('list.empty')}
      errorMessage={t('list.loadFailed')}
    />
  );
}
