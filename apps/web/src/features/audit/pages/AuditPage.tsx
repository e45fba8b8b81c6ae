/**
 * The audit log (issue 16): every view of an identity document and every staff change,
 * newest first; searched, filtered by actor, action, origin and period, paged, exported to
 * CSV. What the Sésame platform's own staff did to the company carries a badge, and the
 * origin filter shows only that (issue 26 §9). People read it (issue 27): each entry names
 * its actor (name, role, company) and its subject, and says what happened in a sentence of
 * the reader's language (lib/sentence.ts), a setting's before → after included; the search
 * finds the actor's and the subject's names.
 */
import { useState } from 'react';
import {
  Badge,
  Button,
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
  type AuditListEntry,
  type AuditOrigin,
} from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { TableScroll } from '../../../components/TableScroll';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { downloadAuditCsv, useAuditActors, useAuditLog, type AuditFilters } from '../api/audit';
import { actorPhrase, auditSentence } from '../lib/sentence';

const PER_PAGE = 25;

/** A local date (YYYY-MM-DD) as the instant its day starts or ends, in the browser's zone. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A second, dimmed line under a name: a role and a company, either alone. */
function Affiliation({ role, company }: { role: string | null; company: string | null }) {
  const { t } = useTranslation(['audit', 'users']);
  const roleName = role ? t(`users:roles.${role}`, { defaultValue: role }) : null;
  if (!roleName && !company) return null;
  return (
    <Text size="xs" c="dimmed">
      {roleName && company
        ? t('audit:actorLine', { role: roleName, company })
        : (roleName ?? company)}
    </Text>
  );
}

/** Who acted: name, role and company as they are now, and the platform's badge. */
function ActorCell({ entry }: { entry: AuditListEntry }) {
  const { t } = useTranslation(['privacy', 'audit']);
  return (
    <>
      <Group gap={6}>
        <Text size="sm" fw={500}>
          {actorPhrase(entry, t)}
        </Text>
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
      <Affiliation role={entry.actor_role} company={entry.actor_company_name} />
    </>
  );
}

/**
 * Whom or what the entry is about: its kind, its name where it has one, or what became of it
 * (anonymised, gone: no name is sent for those).
 */
function SubjectCell({ entry }: { entry: AuditListEntry }) {
  const { t } = useTranslation(['privacy', 'audit']);
  if (!entry.subject_type) return <>—</>;
  const kind = t(`audit.subjects.${entry.subject_type}`, { defaultValue: entry.subject_type });
  const state =
    entry.subject_state === 'anonymised' || entry.subject_state === 'gone'
      ? t(`audit:subjectState.${entry.subject_state}`)
      : null;
  return (
    <>
      <Text size="xs" c="dimmed">
        {kind}
      </Text>
      <Text size="sm" fw={entry.subject_name ? 500 : undefined} fs={state ? 'italic' : undefined}>
        {entry.subject_name ?? state ?? '—'}
      </Text>
      <Affiliation role={entry.subject_role} company={entry.subject_company_name} />
    </>
  );
}

export default function AuditPage() {
  const { t, i18n } = useTranslation(['privacy', 'audit', 'users']);
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
          placeholder={t('audit:searchPlaceholder')}
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
                  <Table.Th>{t('audit:columns.what')}</Table.Th>
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
                      <ActorCell entry={entry} />
                    </Table.Td>
                    <Table.Td>
                      {t(`audit.actions.${entry.action}`, { defaultValue: entry.action })}
                    </Table.Td>
                    <Table.Td>
                      <SubjectCell entry={entry} />
                    </Table.Td>
                    <Table.Td data-testid="audit-sentence">
                      <Text size="sm">{auditSentence(entry, t, i18n.language)}</Text>
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
