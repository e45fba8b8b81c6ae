/**
 * The audit log (issue 16): every view of an identity document and every staff change,
 * newest first; searched, filtered by actor, action, origin and period, paged, exported to
 * CSV. What the Sésame platform's own staff did to the company carries a badge, and the
 * origin filter shows only that (issue 26 §9).
 */
import { useState } from 'react';
import {
  Badge,
  Button,
  Code,
  Container,
  Group,
  Pagination,
  Select,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import {
  AUDIT_ACTIONS,
  AUDIT_ORIGINS,
  actsOnAllCompanies,
  type AuditAction,
  type AuditOrigin,
} from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { TableScroll } from '../../../components/TableScroll';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { downloadAuditCsv, useAuditActors, useAuditLog, type AuditFilters } from '../api/audit';
import '@mantine/core/styles/Code.css';

const PER_PAGE = 25;

/** A local date (YYYY-MM-DD) as the instant its day starts or ends, in the browser's zone. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export default function AuditPage() {
  const { t, i18n } = useTranslation('privacy');
  const { role } = useAuth();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [actor, setActor] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [origin, setOrigin] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const filters: AuditFilters = {
    q: q || undefined,
    actor: actor ?? undefined,
    action: (action as AuditAction | null) ?? undefined,
    by: (origin as AuditOrigin | null) ?? undefined,
    from: dayBound(from, false),
    to: dayBound(to, true),
  };
  const log = useAuditLog(filters, page, PER_PAGE);
  const actors = useAuditActors();
  const allCompanies = role ? actsOnAllCompanies(role, 'audit.list') : false;
  const total = log.data?.meta.total ?? 0;
  const reset =
    <T,>(set: (v: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(filters);
    } catch (error) {
      notifications.show({
        color: 'red',
        message: serverMessageOf(error) ?? t('audit.exportFailed'),
      });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Container size="xl" py="md">
      <PageTitle>{t('audit.title')}</PageTitle>
      <Group align="flex-end" mb="md" wrap="wrap">
        <TextInput
          label={t('audit.search')}
          value={search}
          maxLength={200}
          onChange={(e) => reset(setSearch)(e.currentTarget.value)}
          w={240}
        />
        <Select
          label={t('audit.actor')}
          placeholder={t('audit.anyone')}
          data={(actors.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
          value={actor}
          onChange={reset(setActor)}
          searchable
          clearable
          w={220}
        />
        <Select
          label={t('audit.action')}
          placeholder={t('audit.anyAction')}
          data={AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.actions.${a}`) }))}
          value={action}
          onChange={reset(setAction)}
          searchable
          clearable
          w={260}
        />
        <Select
          label={t('audit.origin')}
          placeholder={t('audit.anyOrigin')}
          data={AUDIT_ORIGINS.map((o) => ({ value: o, label: t(`audit.origins.${o}`) }))}
          value={origin}
          onChange={reset(setOrigin)}
          clearable
          w={200}
        />
        <TextInput
          type="date"
          label={t('audit.from')}
          value={from}
          onChange={(e) => reset(setFrom)(e.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('audit.to')}
          value={to}
          onChange={(e) => reset(setTo)(e.currentTarget.value)}
        />
        <Button variant="outline" loading={exporting} onClick={() => void exportCsv()}>
          {t('audit.export')}
        </Button>
      </Group>
      <QueryState
        query={log}
        errorText={(error) => serverMessageOf(error) ?? t('audit.loadFailed')}
        isEmpty={(answer) => answer.data.length === 0}
        empty={t('audit.empty')}
      >
        {(answer) => (
          <TableScroll label={t('audit.title')}>
            <Table striped verticalSpacing="sm" miw={760} data-testid="audit-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('audit.columns.at')}</Table.Th>
                  {allCompanies && <Table.Th>{t('audit.columns.company')}</Table.Th>}
                  <Table.Th>{t('audit.columns.actor')}</Table.Th>
                  <Table.Th>{t('audit.columns.action')}</Table.Th>
                  <Table.Th>{t('audit.columns.subject')}</Table.Th>
                  <Table.Th>{t('audit.columns.detail')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {answer.data.map((entry) => (
                  <Table.Tr
                    key={entry.id}
                    data-action={entry.action}
                    data-by-platform={entry.by_platform || undefined}
                  >
                    <Table.Td>{formatDateTime(entry.at, undefined, i18n.language)}</Table.Td>
                    {allCompanies && <Table.Td>{entry.company_name ?? '—'}</Table.Td>}
                    <Table.Td>
                      <Group gap={6}>
                        <span>
                          {entry.actor_name ??
                            (entry.actor_id ? t('audit.deletedAccount') : t('audit.system'))}
                        </span>
                        {entry.by_platform && (
                          <Badge
                            color="grape"
                            variant="light"
                            title={t('audit.platformHint')}
                            style={{ overflow: 'visible' }}
                          >
                            {t('audit.platformBadge')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}
                    </Table.Td>
                    <Table.Td>
                      {entry.subject_type ? (
                        <Text size="sm">
                          {t(`audit.subjects.${entry.subject_type}`, {
                            defaultValue: entry.subject_type,
                          })}{' '}
                          <Code>{entry.subject_id?.slice(-8)}</Code>
                        </Text>
                      ) : (
                        '—'
                      )}
                    </Table.Td>
                    <Table.Td>
                      {entry.detail ? <Code block>{JSON.stringify(entry.detail)}</Code> : '—'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </QueryState>
      {total > PER_PAGE && (
        <Group justify="center" mt="md">
          <Pagination total={Math.ceil(total / PER_PAGE)} value={page} onChange={setPage} />
        </Group>
      )}
      <Text size="sm" c="dimmed" mt="sm">
        {t('audit.total', { count: total })}
      </Text>
    </Container>
  );
}
