/**
 * Who is on site now, and who is expected today (issue 14): live on every open
 * screen, usable on a phone (cards, large buttons), paged on the server.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Avatar,
  Badge,
  Button,
  Container,
  Group,
  Pagination,
  Paper,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { useNow } from '../../../lib/use-now';
import { Link, useNavigate, useParams } from 'react-router';
import {
  PERSON_KINDS,
  actsOnAllCompanies,
  mayPerform,
  type ExpectedRow,
  type OnSiteRow,
  type PersonKind,
} from '@sesame/shared';
import { BadgeButton } from '../../../components/BadgeButton';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { UndoCheckButton } from '../../../components/UndoCheck';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { formatTime } from '../../../lib/format';
import { useLiveFeed, useThrottledInvalidate } from '../../../lib/live';
import { useListSite } from '../../../lib/list-site';
import { withZone } from '../../../lib/zone-label';
import { expectedQueryOptions, onSiteKeys, onSiteQueryOptions, useCheckOut } from '../api/on-site';
import { latestRollCallOptions, rollCallKeys, useStartRollCall } from '../api/roll-call';
import { LiveBadge } from '../components/LiveBadge';
import { expectedItems } from '../lib/expected-groups';
import {
  noteLiveEvent,
  presenceChanges,
  type PresentPerson,
  type UndoNotes,
} from '../lib/presence-changes';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/core/styles/Tabs.css';

const PER_PAGE = 24;
const KIND_COLORS: Record<PersonKind, string> = {
  visitor: 'blue.8',
  event_guest: 'grape.8',
  qr_user: 'teal.9',
  member: 'orange.9',
};

function duration(
  from: string,
  now: Date,
  t: (key: string, o: Record<string, unknown>) => string,
): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(from).getTime()) / 60_000));
  const hours = Math.floor(minutes / 60);
  return hours > 0
    ? t('duration.hours', { hours, minutes: String(minutes % 60).padStart(2, '0') })
    : t('duration.minutes', { minutes });
}

function PersonCard(props: {
  row: OnSiteRow;
  now: Date;
  timeZone: string | undefined;
  showCompany: boolean;
  /** Every site of a company of several is shown (issue 28): each card says its site. */
  showSite: boolean;
  mayCheckOut: boolean;
  /** Issue 29: a meeting's visitor's badge may be printed here. */
  mayPrintBadge: boolean;
  onCheckOut: (row: OnSiteRow) => void;
  /** This screen undid the card's arrival (its live region says so, not 'Départ'). */
  onArrivalUndone: (row: OnSiteRow) => void;
  busy: boolean;
}) {
  const { t, i18n } = useTranslation('onSite');
  const { row } = props;
  const name = `${row.firstname} ${row.lastname}`.trim();
  return (
    <Paper withBorder radius="md" p="md" data-testid="on-site-row" data-check={row.check_id}>
      <Group wrap="nowrap" align="flex-start" gap="md">
        <Avatar src={row.photo} alt={row.photo ? t('photoOf', { name }) : ''} size={56} radius="md">
          {(row.firstname[0] ?? '') + (row.lastname[0] ?? '')}
        </Avatar>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <PersonTitle name={name} row={row} nameTestId="on-site-name" />
          <HostLine row={row} />
          {props.showCompany && <CompanyLine name={row.company.name} />}
          {props.showSite && row.site && <SiteLine name={row.site.name} />}
          <Text size="sm">
            {t('arrivedAt', {
              // The site's time, and its zone when it is not the reader's (issue 28).
              time: withZone(
                formatTime(row.check_in_time, row.site?.timezone ?? props.timeZone, i18n.language),
                row.site?.timezone,
                i18n.language,
              ),
              duration: duration(row.check_in_time, props.now, (key, o) => t(key, o)),
            })}
          </Text>
        </Stack>
      </Group>
      {props.mayCheckOut && (
        <Button
          mt="sm"
          size="lg"
          fullWidth
          variant="outline"
          color="red.9"
          loading={props.busy}
          onClick={() => props.onCheckOut(row)}
          aria-label={t('checkOutOf', { name })}
        >
          {t('checkOut')}
        </Button>
      )}
      {/* A mistaken arrival, within the undo window (issue 14): shown to who may record checks. */}
      <Group justify="flex-end" mt={4}>
        {props.mayPrintBadge && row.request_id && (
          <BadgeButton
            requestId={row.request_id}
            name={name}
            company={row.company.id}
            site={row.site}
            size="sm"
          />
        )}
        <UndoCheckButton
          checkId={row.check_id}
          madeAt={row.check_in_time}
          name={name}
          onUndone={() => props.onArrivalUndone(row)}
        />
      </Group>
    </Paper>
  );
}

/** A card's first lines, on both lists: the person's name, their kind, their organisation. */
function PersonTitle(props: {
  name: string;
  row: Pick<OnSiteRow | ExpectedRow, 'kind' | 'organisation'>;
  nameTestId?: string;
}) {
  const { t } = useTranslation('onSite');
  return (
    <>
      <Group gap="xs">
        <Text fw={700} size="lg" data-testid={props.nameTestId}>
          {props.name}
        </Text>
        <Badge color={KIND_COLORS[props.row.kind]} variant="filled">
          {t(`kinds.${props.row.kind}`)}
        </Badge>
      </Group>
      {props.row.organisation && <Text size="sm">{props.row.organisation}</Text>}
    </>
  );
}

/**
 * Whom the person came for: the event, the host, or 'Sans hôte' for a visitor who named
 * none (issue 27) — the slot is never left for the next line (the company visited) to
 * read as the host. A QR user or member is nobody's guest: nothing.
 */
function HostLine({ row }: { row: Pick<OnSiteRow | ExpectedRow, 'kind' | 'event' | 'host'> }) {
  const { t } = useTranslation('onSite');
  if (row.event) return <Text size="sm">{t('event', { event: row.event })}</Text>;
  if (row.host) return <Text size="sm">{t('host', { host: row.host })}</Text>;
  if (row.kind !== 'visitor') return null;
  return (
    <Text size="sm" c="dimmed" data-testid="no-host">
      {t('noHost')}
    </Text>
  );
}

/** The company visited, named as such (roles that see every company). */
function CompanyLine({ name }: { name: string }) {
  const { t } = useTranslation('onSite');
  return (
    <Text size="sm" c="dimmed">
      {t('company', { company: name })}
    </Text>
  );
}

/** The site of the person's visit (issue 28), when every site is shown. */
function SiteLine({ name }: { name: string }) {
  const { t } = useTranslation('onSite');
  return (
    <Text size="sm" c="dimmed" data-testid="on-site-site">
      {t('site', { site: name })}
    </Text>
  );
}

/**
 * An invited visitor's marks (issue 30): "Arrivé(e) à l'accueil" first and filled when they
 * pressed "Je suis arrivé(e)" today (the desk goes and checks them in), then "Informations
 * complétées". Words on each, never a colour alone.
 */
function InvitationMarks({ row }: { row: ExpectedRow }) {
  const { t, i18n } = useTranslation('onSite');
  const invitation = row.invitation;
  if (!invitation || (!invitation.here_at && !invitation.details_completed)) return null;
  return (
    <Group gap="xs" mt={4}>
      {invitation.here_at && (
        <Badge color="orange.9" variant="filled" size="lg" data-testid="expected-here">
          {t('invitation.here', {
            time: withZone(
              formatTime(invitation.here_at, row.site?.timezone, i18n.language),
              row.site?.timezone,
              i18n.language,
            ),
          })}
        </Badge>
      )}
      {invitation.details_completed && (
        <Badge color="teal.9" variant="light" data-testid="expected-completed">
          {t('invitation.completed')}
        </Badge>
      )}
    </Group>
  );
}

function ExpectedCard({
  row,
  showCompany,
  showSite,
}: {
  row: ExpectedRow;
  showCompany: boolean;
  showSite: boolean;
}) {
  const { t, i18n } = useTranslation('onSite');
  const name = `${row.firstname} ${row.lastname}`.trim();
  // The expected time is the site's, with its zone when it is not the reader's (issue 28).
  const time = row.time ? withZone(row.time, row.site?.timezone, i18n.language) : null;
  const here = !!row.invitation?.here_at;
  const invitedBy = row.invitation ? (row.invitation.invited_by ?? row.host) : null;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      data-testid="expected-row"
      data-here={here || undefined}
      style={here ? { borderColor: 'var(--mantine-color-orange-9)', borderWidth: 3 } : undefined}
    >
      <Group wrap="nowrap" align="flex-start" gap="md">
        <Text fw={700} size="xl" miw={64} aria-label={t('expectedAt', { time: time ?? '' })}>
          {time ?? '—'}
        </Text>
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <PersonTitle name={name} row={row} />
          {row.invitation ? (
            <Text size="sm" data-testid="expected-invited-by">
              {invitedBy ? t('invitation.invitedBy', { host: invitedBy }) : t('invitation.invited')}
            </Text>
          ) : (
            <HostLine row={row} />
          )}
          {showCompany && <CompanyLine name={row.company.name} />}
          {showSite && row.site && <SiteLine name={row.site.name} />}
          <InvitationMarks row={row} />
        </Stack>
      </Group>
    </Paper>
  );
}

/** An invitation's group (issue 30): a named section across the grid, its visitors' cards inside. */
function ExpectedGroup(props: { rows: ExpectedRow[]; showCompany: boolean; showSite: boolean }) {
  const { t } = useTranslation('onSite');
  const first = props.rows[0]!;
  const invitation = first.invitation!;
  const host = invitation.invited_by ?? first.host;
  const label = host
    ? t('invitation.groupBy', { count: invitation.group_size, host })
    : t('invitation.group', { count: invitation.group_size });
  const headingId = `expected-group-${invitation.id}`;
  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      withBorder
      radius="md"
      p="sm"
      bg="var(--mantine-color-gray-0)"
      style={{ gridColumn: '1 / -1' }}
      data-testid="expected-group"
      data-invitation={invitation.id}
    >
      <Text id={headingId} fw={700} mb="xs" data-testid="expected-group-label">
        {label}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {props.rows.map((row) => (
          <ExpectedCard
            key={row.person_id}
            row={row}
            showCompany={props.showCompany}
            showSite={props.showSite}
          />
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * What the second live region says when the expected list, refetched for the same search and
 * page, shows someone newly "Arrivé(e) à l'accueil" (issue 30): the desk is to go and scan them.
 */
function useHereAnnouncement(rows: readonly ExpectedRow[] | undefined, listKey: string): string {
  const { t } = useTranslation('onSite');
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<{ key: string; here: Set<string> }>(null);
  useEffect(() => {
    if (!rows) return;
    const here = new Set(rows.filter((row) => row.invitation?.here_at).map((row) => row.person_id));
    const before = previous.current;
    previous.current = { key: listKey, here };
    if (!before || before.key !== listKey) return;
    const names = rows
      .filter((row) => here.has(row.person_id) && !before.here.has(row.person_id))
      .map((row) => `${row.firstname} ${row.lastname}`.trim());
    if (names.length > 0) setAnnouncement(t('announce.here', { names: names.join(', ') }));
  }, [rows, listKey, t]);
  return announcement;
}

/**
 * The sentence the live region says when the list changes for the same search and page (a live
 * arrival or departure, not the guard's own filtering): who arrived, who left, whose arrival or
 * departure was undone (`notes`, from the live feed), how many are in.
 */
function usePresenceAnnouncement(
  rows: readonly PresentPerson[] | undefined,
  inside: number | undefined,
  listKey: string,
  notes: UndoNotes,
): string {
  const { t } = useTranslation('onSite');
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<{ key: string; rows: readonly PresentPerson[]; inside?: number }>(null);
  useEffect(() => {
    if (!rows) return;
    const before = previous.current;
    previous.current = { key: listKey, rows, inside };
    if (!before || before.key !== listKey) return;
    const changes = presenceChanges(before.rows, rows, notes);
    for (const person of changes.settled) notes.delete(person);
    const said = (key: string, names: string[]) =>
      names.length > 0 ? t(key, { names: names.join(', ') }) : '';
    const parts = [
      said('announce.arrived', changes.arrived),
      said('announce.left', changes.left),
      said('announce.arrivalUndone', changes.arrivalUndone),
      said('announce.departureUndone', changes.departureUndone),
    ];
    if (parts.every((part) => !part) && before.inside === inside) return;
    parts.push(inside === undefined ? '' : t('announce.inside', { count: inside }));
    setAnnouncement(parts.filter(Boolean).join(' '));
  }, [rows, inside, listKey, notes, t]);
  return announcement;
}

export default function OnSitePage() {
  const { t } = useTranslation('onSite');
  const { role } = useAuth();
  const { domain } = useParams();
  const timeZone = useCompany(domain).data?.timezone;
  const [tab, setTab] = useState<string | null>('present');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [kind, setKind] = useState<PersonKind | undefined>();
  const [page, setPage] = useState(1);
  const [expectedPage, setExpectedPage] = useState(1);
  const now = useNow();
  const showCompany = !!role && actsOnAllCompanies(role, 'onSite.list');
  // The header's site (issue 28): one site's lists, roll call and live feed, or all sites.
  const { site, showSite } = useListSite();
  // Another site's lists start on their first page.
  const [listedSite, setListedSite] = useState(site);
  if (listedSite !== site) {
    setListedSite(site);
    setPage(1);
    setExpectedPage(1);
  }
  const mayCheckOut = !!role && mayPerform(role, 'onSite.checkOut');
  const mayPrintBadge = !!role && mayPerform(role, 'badges.print');
  const mayRollCall = !!role && mayPerform(role, 'rollCall.run');
  const navigate = useNavigate();
  const rollCall = useQuery({ ...latestRollCallOptions(domain, site), enabled: mayRollCall });
  const startRollCall = useStartRollCall(domain, site);
  const rollCallOpen = !!rollCall.data && rollCall.data.ended_at === null;
  const confirmRollCall = () =>
    modals.openConfirmModal({
      title: t('rollCall.confirmStart.title'),
      children: <Text>{t('rollCall.confirmStart.body')}</Text>,
      labels: { confirm: t('rollCall.confirmStart.yes'), cancel: t('rollCall.confirmStart.no') },
      confirmProps: { color: 'red.9', size: 'md' },
      cancelProps: { size: 'md' },
      onConfirm: () =>
        startRollCall.mutate(undefined, {
          onSuccess: () => void navigate(`/${domain}/on-site/roll-call`),
          onError: (error) => {
            notifications.show({
              color: 'red',
              message: serverMessageOf(error) ?? t('rollCall.startFailed'),
            });
            void rollCall.refetch();
          },
        }),
    });

  const params = { page, per_page: PER_PAGE, q: q || undefined, kind, site };
  const present = useQuery({ ...onSiteQueryOptions(params), placeholderData: keepPreviousData });
  const expected = useQuery({
    ...expectedQueryOptions({
      page: expectedPage,
      per_page: PER_PAGE,
      q: q || undefined,
      site,
    }),
    placeholderData: keepPreviousData,
  });

  // Any arrival or departure, or a request decided, may change both tabs. An undo is noted
  // first, so the refetched list is announced as one. An invitation's news (issue 30: made,
  // changed, cancelled, details completed, "Je suis arrivé(e)") changes who is expected only.
  const refresh = useThrottledInvalidate([onSiteKeys.all, rollCallKeys.all]);
  const refreshExpected = useThrottledInvalidate([onSiteKeys.expected]);
  // One map for the screen's life, read and written outside render (events, the effect).
  const [undoNotes] = useState<UndoNotes>(() => new Map());
  const status = useLiveFeed({
    site,
    onEvent: (event) => {
      if (event.type === 'invitation') {
        refreshExpected();
        return;
      }
      if (event.type === 'presence') noteLiveEvent(undoNotes, event);
      refresh();
    },
    onResync: refresh,
  });

  const checkOut = useCheckOut();
  const confirmCheckOut = (row: OnSiteRow) => {
    const name = `${row.firstname} ${row.lastname}`.trim();
    modals.openConfirmModal({
      title: t('confirm.title'),
      children: <Text>{t('confirm.body', { name })}</Text>,
      labels: { confirm: t('confirm.yes'), cancel: t('confirm.no') },
      confirmProps: { color: 'red.9', size: 'md' },
      cancelProps: { size: 'md' },
      onConfirm: () =>
        checkOut.mutate(row.check_id, {
          onSuccess: (result) =>
            notifications.show({ color: 'green', message: result.message, autoClose: 4000 }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              message: serverMessageOf(error) ?? t('checkOutFailed'),
            }),
        }),
    });
  };

  const counts = present.data?.meta.counts;
  const inside = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  // The rows shown for this search, kind and page (a previous page's, still shown while the next
  // loads, are not news).
  const announcement = usePresenceAnnouncement(
    present.isPlaceholderData ? undefined : present.data?.data,
    inside,
    JSON.stringify(params),
    undoNotes,
  );
  const expectedParams = { expectedPage, q, site };
  const hereAnnouncement = useHereAnnouncement(
    expected.isPlaceholderData ? undefined : expected.data?.data,
    JSON.stringify(expectedParams),
  );
  const presentPages = Math.max(1, Math.ceil((present.data?.meta.total ?? 0) / PER_PAGE));
  const expectedPages = Math.max(1, Math.ceil((expected.data?.meta.total ?? 0) / PER_PAGE));

  return (
    <Container size="lg" px="sm">
      <Group justify="space-between" align="center" mb="sm">
        <PageTitle mb={0}>{t('title')}</PageTitle>
        <LiveBadge status={status} />
      </Group>
      {/* Always in the page, so assistive technology hears each change of its text. */}
      <VisuallyHidden role="status" aria-live="polite" data-testid="on-site-announcement">
        {announcement}
      </VisuallyHidden>
      <VisuallyHidden role="status" aria-live="assertive" data-testid="expected-announcement">
        {hereAnnouncement}
      </VisuallyHidden>

      {mayRollCall &&
        (rollCallOpen ? (
          <Button
            component={Link}
            to={`/${domain}/on-site/roll-call`}
            size="lg"
            h={56}
            fullWidth
            color="orange.9"
            mb="md"
            data-testid="roll-call-join"
          >
            {t('rollCall.join')}
          </Button>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mb="md">
            <Button
              size="lg"
              h={56}
              color="red.9"
              loading={startRollCall.isPending}
              onClick={confirmRollCall}
              data-testid="roll-call-start"
            >
              {t('rollCall.start')}
            </Button>
            {rollCall.data && (
              <Button
                component={Link}
                to={`/${domain}/on-site/roll-call`}
                size="lg"
                h={56}
                variant="default"
                data-testid="roll-call-last"
              >
                {t('rollCall.lastRecord')}
              </Button>
            )}
          </SimpleGrid>
        ))}

      <SimpleGrid
        cols={{ base: 2, sm: 4 }}
        spacing="sm"
        mb="md"
        role="group"
        aria-label={t('countsLabel')}
      >
        {PERSON_KINDS.map((k) => (
          <UnstyledButton
            key={k}
            onClick={() => {
              setKind(kind === k ? undefined : k);
              setPage(1);
              setTab('present');
            }}
            aria-pressed={kind === k}
            data-testid={`count-${k}`}
          >
            <Paper
              withBorder
              radius="md"
              p="sm"
              mih={64}
              bg={kind === k ? 'var(--mantine-color-blue-light)' : undefined}
            >
              <Text size="xl" fw={800} lh={1.1}>
                {counts?.[k] ?? '…'}
              </Text>
              <Text size="sm">{t(`kindsPlural.${k}`)}</Text>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>

      <TextInput
        label={t('search')}
        placeholder={t('searchPlaceholder')}
        value={search}
        size="md"
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
          setExpectedPage(1);
        }}
        mb="md"
      />

      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List grow mb="md">
          <Tabs.Tab value="present" fz="md" py="md" data-testid="tab-present">
            {t('tabs.present', { count: inside ?? 0 })}
          </Tabs.Tab>
          <Tabs.Tab value="expected" fz="md" py="md" data-testid="tab-expected">
            {t('tabs.expected', { count: expected.data?.meta.total ?? 0 })}
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="present">
          <QueryState
            query={present}
            errorText={(error) => serverMessageOf(error) ?? t('loadFailed')}
            isEmpty={(answer) => answer.data.length === 0}
            empty={q || kind ? t('noMatch') : t('nobody')}
          >
            {(answer) => (
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid="on-site-list">
                {answer.data.map((row) => (
                  <PersonCard
                    key={row.check_id}
                    row={row}
                    now={now}
                    timeZone={timeZone}
                    showCompany={showCompany}
                    showSite={showSite}
                    mayCheckOut={mayCheckOut}
                    mayPrintBadge={mayPrintBadge}
                    onCheckOut={confirmCheckOut}
                    onArrivalUndone={(undone) =>
                      noteLiveEvent(undoNotes, {
                        person_id: undone.person_id,
                        op: 'arrival_undone',
                      })
                    }
                    busy={checkOut.isPending && checkOut.variables === row.check_id}
                  />
                ))}
              </SimpleGrid>
            )}
          </QueryState>
          {presentPages > 1 && (
            <Group justify="center" mt="md">
              <Pagination value={page} onChange={setPage} total={presentPages} size="lg" />
            </Group>
          )}
        </Tabs.Panel>

        <Tabs.Panel value="expected">
          <QueryState
            query={expected}
            errorText={(error) => serverMessageOf(error) ?? t('loadFailed')}
            isEmpty={(answer) => answer.data.length === 0}
            empty={t('nobodyExpected')}
          >
            {(answer) => (
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid="expected-list">
                {expectedItems(answer.data).map((item) =>
                  'group' in item ? (
                    <ExpectedGroup
                      key={`group-${item.group[0]!.invitation!.id}`}
                      rows={item.group}
                      showCompany={showCompany}
                      showSite={showSite}
                    />
                  ) : (
                    <ExpectedCard
                      key={item.row.person_id}
                      row={item.row}
                      showCompany={showCompany}
                      showSite={showSite}
                    />
                  ),
                )}
              </SimpleGrid>
            )}
          </QueryState>
          {expectedPages > 1 && (
            <Group justify="center" mt="md">
              <Pagination
                value={expectedPage}
                onChange={setExpectedPage}
                total={expectedPages}
                size="lg"
              />
            </Group>
          )}
        </Tabs.Panel>
      </Tabs>
    </Container>
  );
}
