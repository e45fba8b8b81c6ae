/**
 * Event attendance (spec §2 Event attendance list, §6): ROLE_ADMIN sees every
 * company's events, the other roles their own company's; one row per participant.
 */
import { Container } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { ViewDocument } from '../../../components/ViewDocument';
import { PageTitle } from '../../../components/PageTitle';
import { ServerTable, type Column } from '../../../components/ServerTable';
import { getAttendance, type AttendanceRow } from '../api/events';
import { formatCreatedAt } from '../lib/format';
import { useListSite } from '../../../lib/list-site';

export default function EventAttendancePage() {
  const { t, i18n } = useTranslation('events');
  const lang = i18n.language;
  // The header's site (issue 28): that site's events' participants.
  const { site: siteId } = useListSite();

  const columns: Column<AttendanceRow>[] = [
    { key: 'index', header: t('attendance.columns.index'), render: (_row, index) => index + 1 },
    {
      key: 'firstname',
      header: t('attendance.columns.firstname'),
      render: (row) => row.visitor.firstname,
    },
    { key: 'email', header: t('attendance.columns.email'), render: (row) => row.visitor.email },
    {
      key: 'image',
      header: t('attendance.columns.image'),
      // Opened on demand, never drawn: the list shows nobody's ID (issue 27). The row does not
      // say the document's type, so it opens in a new tab (an image inline, a PDF downloaded).
      render: (row) => {
        const name = `${row.visitor.firstname} ${row.visitor.lastname}`;
        return (
          <ViewDocument
            src={row.visitor.request_image}
            type={null}
            name={name}
            alt={t('attendance.imageAlt', { name })}
          />
        );
      },
    },
    {
      key: 'address',
      header: t('attendance.columns.address'),
      render: (row) => row.visitor.address ?? '',
    },
    { key: 'event', header: t('attendance.columns.event'), render: (row) => row.event.name },
    {
      key: 'location',
      header: t('attendance.columns.location'),
      render: (row) => row.event.location,
    },
    {
      key: 'createdAt',
      header: t('attendance.columns.createdAt'),
      render: (row) => formatCreatedAt(row.event.created_at, row.event.company.timezone, lang),
    },
  ];

  return (
    <Container size="xl" py="lg">
      <PageTitle>{t('attendance.title')}</PageTitle>
      <ServerTable
        queryKey={['events', 'attendance', siteId ?? 'all-sites']}
        fetchPage={(params) => getAttendance({ ...params, site: siteId })}
        columns={columns}
        rowKey={(row) => `${row.event.id}:${row.visitor.id}`}
        emptyMessage={t('attendance.empty')}
        errorMessage={t('attendance.loadFailed')}
        searchable
      />
    </Container>
  );
}
