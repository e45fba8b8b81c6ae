/**
 * `/user-check-in-out` (spec §2 "User check-in and check-out screen"): every check
 * of the permanent QR codes and member cards, one row per check, newest first;
 * searched, limited to a date-time range and paged by the server. Spec §6 user
 * check-ins: ROLE_ADMIN sees every company's, the others their own.
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { mayPerform, type UserLogRow } from '@sesame/shared';
import { useAuth } from '../../../lib/auth';
import { useUserLog } from '../api/logs';
import { checkColumns, siteColumn } from '../components/CheckCells';
import { useListSite } from '../../../lib/list-site';
import { FilteredLog, LogScreen, indexColumn } from '../components/LogScreen';
import type { LogColumn } from '../components/LogTable';
import { useLogFilters, useLogTimeZone } from '../lib/use-log-filters';

function UserLog({ company, showCompany }: { company: string; showCompany: boolean }) {
  const { t } = useTranslation('checkinLogs');
  const timeZone = useLogTimeZone(company);
  const log = useLogFilters(timeZone);
  const query = useUserLog(log.params);
  // Every site of a company of several (issue 28): each row says where it was scanned.
  const { showSite } = useListSite();

  const columns: LogColumn<UserLogRow>[] = [
    indexColumn(t('userLog.columns.index')),
    {
      key: 'name',
      header: t('userLog.columns.name'),
      card: 'title',
      render: (row) => (
        <Stack gap={2}>
          <Text size="sm" fw={500}>
            {row.user_name || row.uidn}
          </Text>
          <Group gap={6}>
            <Badge size="xs" variant="light" color={row.kind === 'member' ? 'grape' : 'gray'}>
              {t(`kinds.${row.kind}`)}
            </Badge>
          </Group>
        </Stack>
      ),
    },
    {
      key: 'email',
      header: t('userLog.columns.email'),
      render: (row) => row.user_email ?? '',
      card: 'wide',
    },
  ];
  if (showCompany) {
    columns.push({
      key: 'company',
      header: t('userLog.columns.company'),
      render: (row) => row.company.name,
      card: 'wide',
    });
  }
  if (showSite) columns.push(siteColumn<UserLogRow>(t('userLog.columns.site')));
  columns.push(
    ...checkColumns<UserLogRow>(
      { checkIn: t('userLog.columns.checkIn'), checkOut: t('userLog.columns.checkOut') },
      timeZone,
      (row) => row.user_name || row.uidn,
    ),
  );

  return (
    <FilteredLog
      log={log}
      query={query}
      columns={columns}
      rowKey={(row) => row.id}
      emptyMessage={t('userLog.empty')}
      label={t('userLog.title')}
      minWidth={showCompany ? 880 : 760}
    />
  );
}

export default function UserLogPage() {
  const { t } = useTranslation('checkinLogs');
  const { user, role } = useAuth();
  const allowed = !!user && !!role && mayPerform(role, 'userChecks.list');
  return (
    <LogScreen title={t('userLog.title')} intro={t('userLog.intro')} allowed={allowed}>
      {allowed && <UserLog company={user.company} showCompany={role === 'ROLE_ADMIN'} />}
    </LogScreen>
  );
}
