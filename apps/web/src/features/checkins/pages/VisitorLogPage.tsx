/**
 * 'Liste Check in' (`/{domain}/display-logs`, spec §2 Visitor log): each visitor's
 * check-in and check-out, newest first, with how and by whom they were recorded;
 * searched, limited to a date-time range and paged by the server; the same
 * filters export as CSV. Spec §6: ROLE_ADMIN reads every company's log, the other
 * roles their own company's.
 */
import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { mayPerform, type VisitorLogRow } from '@sesame/shared';
import { useAuth } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { downloadVisitorLogCsv, useVisitorLog, type VisitorLogScope } from '../api/logs';
import { ViewDocument } from '../../../components/ViewDocument';
import { checkColumns, siteColumn } from '../components/CheckCells';
import { useListSite } from '../../../lib/list-site';
import { withZone } from '../../../lib/zone-label';
import { FilteredLog, LogScreen, indexColumn } from '../components/LogScreen';
import type { LogColumn } from '../components/LogTable';
import { useLogFilters, useLogTimeZone } from '../lib/use-log-filters';

function VisitorLog({ scope, showCompany }: { scope: VisitorLogScope; showCompany: boolean }) {
  const { t, i18n } = useTranslation('checkinLogs');
  const { domain = '' } = useParams();
  const timeZone = useLogTimeZone(scope.company ?? domain);
  const log = useLogFilters(timeZone);
  const query = useVisitorLog(scope, log.params);
  // Every site of a company of several (issue 28): each row says its site.
  const { showSite } = useListSite();
  const [exporting, setExporting] = useState(false);
  const fullName = (row: VisitorLogRow) => `${row.visitor_name} ${row.visitor_lastname}`.trim();

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadVisitorLogCsv(scope, log.filters);
    } catch (error) {
      notifications.show({
        color: 'red',
        message: t('visitorLog.exportFailed', { message: (error as Error).message }),
      });
    } finally {
      setExporting(false);
    }
  };

  const columns: LogColumn<VisitorLogRow>[] = [
    indexColumn(t('visitorLog.columns.index')),
    {
      key: 'name',
      header: t('visitorLog.columns.name'),
      card: 'title',
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {fullName(row)}
          </Text>
          {/* Who they are with (issue 27): their own organisation, as their form says it. */}
          {row.organisation_name && (
            <Text size="xs" data-testid="visitor-organisation">
              {row.organisation_name}
            </Text>
          )}
          {showCompany && (
            <Text size="xs" c="dimmed">
              {t('visitorLog.company', { company: row.company.name })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'email',
      header: t('visitorLog.columns.email'),
      render: (row) => row.visitor_email,
      card: 'wide',
    },
    {
      key: 'image',
      header: t('visitorLog.columns.image'),
      card: 'aside',
      render: (row) => (
        <ViewDocument
          src={row.image}
          type={row.image_type}
          name={fullName(row)}
          alt={t('visitorLog.imageAlt', { name: fullName(row) })}
        />
      ),
    },
    {
      key: 'createdAt',
      header: t('visitorLog.columns.createdAt'),
      card: 'wide',
      render: (row) => (
        <Text size="sm">
          {withZone(
            formatDateTime(row.created_at, row.site?.timezone ?? timeZone, i18n.language),
            row.site?.timezone,
            i18n.language,
          )}
        </Text>
      ),
    },
    ...(showSite ? [siteColumn<VisitorLogRow>(t('visitorLog.columns.site'))] : []),
    ...checkColumns<VisitorLogRow>(
      { checkIn: t('visitorLog.columns.checkIn'), checkOut: t('visitorLog.columns.checkOut') },
      timeZone,
      (row) => `${row.visitor_name} ${row.visitor_lastname}`.trim(),
    ),
  ];

  return (
    <FilteredLog
      log={log}
      actions={
        <Button
          variant="light"
          onClick={() => void exportCsv()}
          loading={exporting}
          disabled={!query.data || query.data.meta.total === 0}
          title={t('visitorLog.exportLabel')}
        >
          {t('visitorLog.export')}
        </Button>
      }
      query={query}
      columns={columns}
      rowKey={(row) => row.id}
      emptyMessage={t('visitorLog.empty')}
      label={t('visitorLog.title')}
      minWidth={960}
    />
  );
}

export default function VisitorLogPage() {
  const { t } = useTranslation('checkinLogs');
  const { user, role } = useAuth();
  const allowed = !!user && !!role && mayPerform(role, 'visitorLogs.list');
  const isAdmin = role === 'ROLE_ADMIN';
  return (
    <LogScreen title={t('visitorLog.title')} allowed={allowed}>
      {allowed && (
        <VisitorLog scope={isAdmin ? {} : { company: user.company }} showCompany={isAdmin} />
      )}
    </LogScreen>
  );
}
