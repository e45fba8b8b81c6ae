/**
 * 'Liste Check in / Check out Participants' (`/{domain}/user-check-ins`, spec §2
 * User attendance): the QR users and members, each with their checks inside the
 * chosen date-time range; View lists those checks in a modal, Edit leads to the
 * expiry page. Spec §6: ROLE_ADMIN sees every company's, the others their own.
 */
import { useState } from 'react';
import { Anchor, Badge, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { USER_CHECK_LOGS_PER_ROW, mayPerform, type UserCheckRow } from '@sesame/shared';
import { useAuth } from '../../../lib/auth';
import { formatDateTime, formatLongDate } from '../../../lib/format';
import { useUserAttendance } from '../api/logs';
import { ViewDocument } from '../../../components/ViewDocument';
import { CheckOutTime, CheckTime } from '../components/CheckCells';
import { FilteredLog, LogScreen, indexColumn } from '../components/LogScreen';
import type { LogColumn } from '../components/LogTable';
import { formatWallTime as wall, type WallRange } from '../lib/log-range';
import { useLogFilters, useLogTimeZone } from '../lib/use-log-filters';
import '@mantine/core/styles/Table.css';

const nameOf = (row: UserCheckRow) => row.user_name || row.user_email || row.uidn;

/** The checks of one person inside the range, newest first. */
function ChecksModal({
  row,
  range,
  timeZone,
  onClose,
}: {
  row: UserCheckRow | null;
  range: WallRange;
  timeZone: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('checkinLogs');
  const [start, end] = range;
  const period =
    start && end
      ? t('attendance.modalRange', { from: wall(start), to: wall(end) })
      : start
        ? t('attendance.modalFrom', { from: wall(start) })
        : end
          ? t('attendance.modalTo', { to: wall(end) })
          : null;
  return (
    <Modal
      opened={row !== null}
      onClose={onClose}
      title={row ? t('attendance.modalTitle', { name: nameOf(row) }) : ''}
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': t('close', { ns: 'common' }) }}
    >
      {row && (
        <Stack gap="sm">
          {period && (
            <Text size="sm" c="dimmed">
              {period}
            </Text>
          )}
          {row.check_logs.length === 0 ? (
            <Text c="dimmed">{t('attendance.modalEmpty')}</Text>
          ) : (
            <Table
              striped
              verticalSpacing="xs"
              aria-label={t('attendance.modalTitle', { name: nameOf(row) })}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('attendance.checkIn')}</Table.Th>
                  <Table.Th>{t('attendance.checkOut')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {row.check_logs.map((check) => (
                  <Table.Tr key={check.check_in}>
                    <Table.Td>
                      <CheckTime at={check.check_in} method={null} by={null} timeZone={timeZone} />
                    </Table.Td>
                    <Table.Td>
                      <CheckOutTime
                        at={check.check_out}
                        method={null}
                        by={null}
                        timeZone={timeZone}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {row.check_logs.length >= USER_CHECK_LOGS_PER_ROW && (
            <Text size="sm" c="dimmed">
              {t('attendance.modalLimit', { count: USER_CHECK_LOGS_PER_ROW })}
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}

function UserAttendance({ domain, canEdit }: { domain: string; canEdit: boolean }) {
  const { t, i18n } = useTranslation('checkinLogs');
  const lang = i18n.language;
  const timeZone = useLogTimeZone(domain);
  const log = useLogFilters(timeZone);
  const query = useUserAttendance(log.params);
  const [viewed, setViewed] = useState<UserCheckRow | null>(null);

  const columns: LogColumn<UserCheckRow>[] = [
    indexColumn(t('attendance.columns.index')),
    {
      key: 'name',
      header: t('attendance.columns.name'),
      card: 'title',
      render: (row) => {
        const expired = row.date_exp !== null && new Date(row.date_exp).getTime() < Date.now();
        return (
          <Stack gap={2}>
            <Text size="sm" fw={500}>
              {nameOf(row)}
            </Text>
            <Group gap={6}>
              <Badge size="xs" variant="light" color={row.kind === 'member' ? 'grape' : 'gray'}>
                {t(`kinds.${row.kind}`)}
              </Badge>
              {row.date_exp && (
                <Text size="xs" c={expired ? 'red.8' : 'dimmed'}>
                  {t('attendance.expires', {
                    date: formatLongDate(row.date_exp, timeZone, lang),
                  })}
                </Text>
              )}
            </Group>
          </Stack>
        );
      },
    },
    {
      key: 'email',
      header: t('attendance.columns.email'),
      render: (row) => row.user_email ?? '',
      card: 'wide',
    },
    {
      key: 'contact',
      header: t('attendance.columns.contact'),
      render: (row) => row.user_phone ?? '',
    },
    {
      key: 'image',
      header: t('attendance.columns.image'),
      card: 'aside',
      render: (row) => (
        <ViewDocument
          src={row.image}
          type={row.image_type}
          name={nameOf(row)}
          alt={t('attendance.imageAlt', { name: nameOf(row) })}
          photo={row.kind === 'member'}
        />
      ),
    },
    {
      key: 'checks',
      header: t('attendance.columns.checks'),
      render: (row) => {
        const last = row.check_logs[0];
        if (!last)
          return (
            <Text size="sm" c="dimmed">
              {t('attendance.noChecks')}
            </Text>
          );
        return (
          <Stack gap={2}>
            <Group gap={6}>
              <Text size="sm">{t('attendance.checkCount', { count: row.check_logs.length })}</Text>
              {!last.check_out && (
                <Badge color="teal" variant="light" c="teal.9" size="sm">
                  {t('onSite')}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('attendance.lastCheckIn', {
                time: formatDateTime(last.check_in, timeZone, lang),
              })}
            </Text>
          </Stack>
        );
      },
    },
    {
      key: 'actions',
      header: t('attendance.columns.actions'),
      card: 'wide',
      render: (row) => (
        <Group gap="md" wrap="nowrap">
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => setViewed(row)}
            aria-label={t('attendance.viewLabel', { name: nameOf(row) })}
          >
            {t('attendance.view')}
          </Anchor>
          {canEdit && (
            <Anchor
              component={Link}
              to={`/${domain}/disable-user-qrcode/${encodeURIComponent(row.user_id)}`}
              size="sm"
              aria-label={t('attendance.editLabel', { name: nameOf(row) })}
            >
              {t('attendance.edit')}
            </Anchor>
          )}
        </Group>
      ),
    },
  ];

  return (
    <>
      <FilteredLog
        log={log}
        query={query}
        columns={columns}
        rowKey={(row) => row.user_id}
        emptyMessage={t('attendance.empty')}
        totalLabel={(count, total) => t('attendance.people', { count, total })}
        label={t('attendance.title')}
        minWidth={900}
      />
      <ChecksModal
        row={viewed}
        range={log.range}
        timeZone={timeZone}
        onClose={() => setViewed(null)}
      />
    </>
  );
}

export default function UserAttendancePage() {
  const { domain = '' } = useParams();
  const { t } = useTranslation('checkinLogs');
  const { user, role } = useAuth();
  const allowed = !!user && !!role && mayPerform(role, 'userChecks.list');
  return (
    <LogScreen title={t('attendance.title')} allowed={allowed}>
      {allowed && (
        <UserAttendance domain={domain} canEdit={mayPerform(role, 'qrUsers.updateExpiry')} />
      )}
    </LogScreen>
  );
}
