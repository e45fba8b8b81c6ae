/**
 * The evacuation roll call (issue 14), made for a phone in a car park: the counts at
 * the top, one card per person frozen at the start with two large buttons (safe,
 * missing; tapping the lit one again undoes it), live on every screen, caught up on
 * reconnection. Once ended: the record (who started, ended and marked whom) and its
 * CSV and PDF.
 */
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import type { RollCall, RollCallPerson, RollCallStatus } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { serverMessageOf } from '../../../lib/api-client';
import { useCompany } from '../../../lib/company';
import { formatDateTime, formatTime } from '../../../lib/format';
import { useLiveFeed, useThrottledInvalidate } from '../../../lib/live';
import { useSiteChoice } from '../../../lib/site';
import { useListSite } from '../../../lib/list-site';
import { withZone } from '../../../lib/zone-label';
import {
  latestRollCallOptions,
  rollCallKeys,
  useEndRollCall,
  useMarkPerson,
} from '../api/roll-call';
import {
  downloadRollCallCsv,
  downloadRollCallPdf,
  type RollCallLabels,
} from '../lib/roll-call-export';
import { LiveBadge } from '../components/LiveBadge';

type Filter = 'all' | RollCallStatus;

const COUNT_COLORS = { total: undefined, safe: 'green.9', missing: 'red.9', unknown: 'gray.8' };

function Counts({ rollCall }: { rollCall: RollCall }) {
  const { t } = useTranslation('onSite');
  return (
    <SimpleGrid cols={4} spacing={6} role="group" aria-label={t('rollCall.countsLabel')} mb="sm">
      {(['total', 'safe', 'missing', 'unknown'] as const).map((key) => (
        <Paper key={key} withBorder radius="md" p={6} ta="center" data-testid={`roll-count-${key}`}>
          <Text fz={28} fw={800} lh={1.1} c={COUNT_COLORS[key]} data-testid="roll-count-value">
            {rollCall.counts[key]}
          </Text>
          <Text size="xs" fw={600} lh={1.2}>
            {t(`rollCall.counts.${key}`)}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** A person's two buttons, safe then missing; pressing the one already set clears the mark. */
const MARKS = [
  {
    status: 'safe',
    color: 'green.9',
    label: 'rollCall.markSafe',
    ariaLabel: 'rollCall.markSafeOf',
  },
  {
    status: 'missing',
    color: 'red.9',
    label: 'rollCall.markMissing',
    ariaLabel: 'rollCall.markMissingOf',
  },
] as const;

function PersonRow(props: {
  person: RollCallPerson;
  open: boolean;
  timeZone: string | undefined;
  busy: boolean;
  onMark: (person: RollCallPerson, status: RollCallStatus) => void;
}) {
  const { t, i18n } = useTranslation('onSite');
  const { person } = props;
  const name = `${person.firstname} ${person.lastname}`.trim();
  const tap = (target: 'safe' | 'missing') =>
    props.onMark(person, person.status === target ? 'unknown' : target);
  const border =
    person.status === 'safe'
      ? 'var(--mantine-color-green-8)'
      : person.status === 'missing'
        ? 'var(--mantine-color-red-8)'
        : undefined;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="roll-person"
      data-status={person.status}
      style={border ? { borderColor: border, borderWidth: 2 } : undefined}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" mb={props.open ? 'xs' : 0}>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={700} size="lg" lh={1.25} data-testid="roll-person-name">
            {name}
          </Text>
          <Text size="sm" c="dimmed" lh={1.3}>
            {[t(`kinds.${person.kind}`), person.organisation].filter(Boolean).join(' · ')}
          </Text>
          {person.marked_by && person.marked_at && (
            <Text size="xs" lh={1.3}>
              {t('rollCall.markedBy', {
                name: person.marked_by.name,
                time: formatTime(person.marked_at, props.timeZone, i18n.language),
              })}
            </Text>
          )}
        </Stack>
        {!props.open && (
          <Badge
            size="lg"
            variant="filled"
            style={{ flexShrink: 0 }}
            color={
              person.status === 'safe'
                ? 'green.9'
                : person.status === 'missing'
                  ? 'red.9'
                  : 'gray.7'
            }
          >
            {t(`rollCall.status.${person.status}`)}
          </Badge>
        )}
      </Group>
      {props.open && (
        <SimpleGrid cols={2} spacing="xs">
          {MARKS.map((mark) => (
            <Button
              key={mark.status}
              h={56}
              fz="md"
              color={mark.color}
              variant={person.status === mark.status ? 'filled' : 'outline'}
              aria-pressed={person.status === mark.status}
              aria-label={t(mark.ariaLabel, { name })}
              disabled={props.busy}
              onClick={() => tap(mark.status)}
              data-testid={`mark-${mark.status}`}
            >
              {t(mark.label)}
            </Button>
          ))}
        </SimpleGrid>
      )}
    </Paper>
  );
}

export default function RollCallPage() {
  const { t, i18n } = useTranslation('onSite');
  const { domain } = useParams();
  const timeZone = useCompany(domain).data?.timezone;
  const [filter, setFilter] = useState<Filter>('all');
  // The header's site (issue 28): the latest roll call covering it; all sites, the company's.
  const { site } = useListSite();
  const { multi } = useSiteChoice();
  const query = useQuery(latestRollCallOptions(domain, site));
  const mark = useMarkPerson(domain, site);
  const end = useEndRollCall(domain, site);

  // Every mark, start and end from any phone; a reconnection refetches everything.
  const refresh = useThrottledInvalidate([rollCallKeys.all], 150);
  const status = useLiveFeed({
    site,
    onEvent: (event) => {
      if (event.type === 'rollCall') refresh();
    },
    onResync: refresh,
  });

  // A roll call of one site is read in its zone, said when it is not the reader's.
  const zoneOf = (rollCall: RollCall) => rollCall.site?.timezone ?? timeZone;
  const whenAt = (rollCall: RollCall) => (iso: string) =>
    withZone(
      formatDateTime(iso, zoneOf(rollCall), i18n.language),
      rollCall.site?.timezone,
      i18n.language,
    );
  /** Which site it covers, for a company of several sites. */
  const siteLine = (rollCall: RollCall) =>
    rollCall.site
      ? t('rollCall.site', { site: rollCall.site.name })
      : multi
        ? t('rollCall.allSites')
        : '';
  const labels = (rollCall: RollCall): RollCallLabels => ({
    columns: t('rollCall.columns', { returnObjects: true }) as string[],
    kind: (p) => t(`kinds.${p.kind}`),
    status: (p) => t(`rollCall.status.${p.status}`),
    when: whenAt(rollCall),
    heading: [
      [`${t('rollCall.title')} — ${rollCall.company.name}`, rollCall.site?.name]
        .filter(Boolean)
        .join(' — '),
      t('rollCall.startedBy', {
        name: rollCall.started_by?.name ?? t('rollCall.someone'),
        when: whenAt(rollCall)(rollCall.started_at),
      }),
      rollCall.ended_at
        ? t('rollCall.endedBy', {
            name: rollCall.ended_by?.name ?? t('rollCall.someone'),
            when: whenAt(rollCall)(rollCall.ended_at),
          })
        : t('rollCall.inProgress'),
      t('rollCall.pdfCounts', rollCall.counts),
    ],
  });

  const onMark = (rollCall: RollCall) => (person: RollCallPerson, next: RollCallStatus) =>
    mark.mutate(
      { rollCall: rollCall.id, person: person.id, status: next },
      {
        onError: (error) => {
          notifications.show({
            color: 'red',
            message: serverMessageOf(error) ?? t('rollCall.markFailed'),
          });
          refresh();
        },
      },
    );

  const confirmEnd = (rollCall: RollCall) =>
    modals.openConfirmModal({
      title: t('rollCall.confirmEnd.title'),
      children: (
        <Text>
          {rollCall.counts.unknown === 0
            ? t('rollCall.confirmEnd.bodyAllMarked')
            : t('rollCall.confirmEnd.body', { count: rollCall.counts.unknown })}
        </Text>
      ),
      labels: { confirm: t('rollCall.confirmEnd.yes'), cancel: t('rollCall.confirmEnd.no') },
      confirmProps: { color: 'red.9', size: 'md' },
      cancelProps: { size: 'md' },
      onConfirm: () =>
        end.mutate(rollCall.id, {
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: serverMessageOf(error) ?? t('rollCall.endFailed'),
            }),
        }),
    });

  return (
    <Container size="sm" px="xs">
      <Group justify="space-between" align="center" mb="xs">
        <PageTitle mb={0}>{t('rollCall.title')}</PageTitle>
        <LiveBadge status={status} />
      </Group>
      <QueryState
        query={query}
        errorText={(error) => serverMessageOf(error) ?? t('rollCall.loadFailed')}
        isEmpty={(rollCall) => rollCall === null}
        empty={t('rollCall.none')}
      >
        {(rollCall) => {
          if (!rollCall) return null;
          const open = rollCall.ended_at === null;
          const when = whenAt(rollCall);
          const shown = rollCall.people.filter((p) => filter === 'all' || p.status === filter);
          return (
            <Stack gap="sm">
              <Alert color={open ? 'orange' : 'gray'} p="xs" data-testid="roll-call-state">
                <Text fw={700}>{open ? t('rollCall.inProgress') : t('rollCall.ended')}</Text>
                {siteLine(rollCall) && (
                  <Text size="sm" data-testid="roll-call-site">
                    {siteLine(rollCall)}
                  </Text>
                )}
                <Text size="sm">
                  {t('rollCall.startedBy', {
                    name: rollCall.started_by?.name ?? t('rollCall.someone'),
                    when: when(rollCall.started_at),
                  })}
                </Text>
                {rollCall.ended_at && (
                  <Text size="sm">
                    {t('rollCall.endedBy', {
                      name: rollCall.ended_by?.name ?? t('rollCall.someone'),
                      when: when(rollCall.ended_at),
                    })}
                  </Text>
                )}
              </Alert>
              <Counts rollCall={rollCall} />
              {!open && (
                <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                  <Button
                    h={52}
                    variant="light"
                    onClick={() => downloadRollCallCsv(rollCall, labels(rollCall))}
                    data-testid="roll-csv"
                  >
                    {t('rollCall.csv')}
                  </Button>
                  <Button
                    h={52}
                    variant="light"
                    onClick={() => void downloadRollCallPdf(rollCall, labels(rollCall))}
                    data-testid="roll-pdf"
                  >
                    {t('rollCall.pdf')}
                  </Button>
                </SimpleGrid>
              )}
              <SimpleGrid
                cols={{ base: 2, xs: 4 }}
                spacing={6}
                role="group"
                aria-label={t('rollCall.filterLabel')}
              >
                {(['all', 'unknown', 'missing', 'safe'] as const).map((value) => (
                  <Button
                    key={value}
                    h={44}
                    variant={filter === value ? 'filled' : 'default'}
                    aria-pressed={filter === value}
                    onClick={() => setFilter(value)}
                  >
                    {t(`rollCall.filter.${value}`)}
                  </Button>
                ))}
              </SimpleGrid>
              {rollCall.people.length === 0 ? (
                <Text>{t('rollCall.nobody')}</Text>
              ) : shown.length === 0 ? (
                <Text>{t('rollCall.nobodyHere')}</Text>
              ) : (
                <Stack gap="xs" data-testid="roll-people">
                  {shown.map((person) => (
                    <PersonRow
                      key={person.id}
                      person={person}
                      open={open}
                      timeZone={zoneOf(rollCall)}
                      busy={mark.isPending && mark.variables?.person === person.id}
                      onMark={onMark(rollCall)}
                    />
                  ))}
                </Stack>
              )}
              {open && (
                <Button
                  h={56}
                  fz="md"
                  color="red.9"
                  loading={end.isPending}
                  onClick={() => confirmEnd(rollCall)}
                  data-testid="roll-end"
                >
                  {t('rollCall.end')}
                </Button>
              )}
              <Button component={Link} to={`/${domain}/on-site`} variant="subtle" h={48}>
                {t('rollCall.backToList')}
              </Button>
            </Stack>
          );
        }}
      </QueryState>
    </Container>
  );
}
