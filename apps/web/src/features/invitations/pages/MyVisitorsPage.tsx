/**
 * `/{domain}/my-visitors` (issue 30): the host's invited visitors — upcoming or past, their
 * own or, for who reads the company's requests, every host's — each with its site, its next
 * day and times in the site's zone, a recurring invitation's rule in words, its group, and
 * where the visitor stands (a badge's colour and words). Modifier, Annuler (the whole
 * invitation, this visitor, or one day), Inviter à nouveau. The list follows the live feed:
 * "Je suis arrivé(e)" pressed by a visitor is said at once, on screen and to screen readers.
 */
import { useEffect, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Container,
  Group,
  Pagination,
  Paper,
  Stack,
  Switch,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useNavigate, useParams } from 'react-router';
import { mayPerform, type InvitedVisit, type LiveEvent } from '@sesame/shared';
import { ListHeader } from '../../../components/ListHeader';
import { QueryState } from '../../../components/QueryState';
import { RowButton } from '../../../components/RowActions';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useTranslation } from '../../../lib/i18n';
import { useLiveFeed, useThrottledInvalidate } from '../../../lib/live';
import { useCompanySites } from '../../../lib/site';
import { withZone } from '../../../lib/zone-label';
import { invitationKeys, useInvitedVisits } from '../api/invitations';
import { CancelDialog } from '../components/CancelDialog';
import { EditDialog } from '../components/EditDialog';
import { STATE_COLORS, dayInWords, ruleSentence, shownDay, type Lang } from '../lib/invitations';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/Tabs.css';

const PER_PAGE = 20;
type When = 'upcoming' | 'past';

function VisitCard(props: {
  visit: InvitedVisit;
  showHost: boolean;
  upcoming: boolean;
  onEdit: () => void;
  onCancel: () => void;
  onAgain: () => void;
}) {
  const { t, i18n } = useTranslation('invitations');
  const lang: Lang = i18n.language.startsWith('en') ? 'en' : 'fr';
  const { visit } = props;
  const name = `${visit.firstname} ${visit.lastname}`.trim();
  const zone = visit.site.timezone;
  const hours = t('mine.hours', {
    start: withZone(visit.time, zone, lang),
    end: visit.end_time,
  });
  const day = dayInWords(shownDay(visit), lang);
  const open = visit.state !== 'cancelled' && props.upcoming;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="li"
      data-testid="invited-row"
      data-request={visit.request_id}
      data-state={visit.state}
    >
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Title order={2} size="h5" data-testid="invited-name">
            {name}
          </Title>
          {visit.organisation && <Text size="sm">{visit.organisation}</Text>}
        </Stack>
        <Badge
          variant="light"
          {...STATE_COLORS[visit.state]}
          data-testid="invited-state"
          style={{ flexShrink: 0 }}
        >
          {t(`state.${visit.state}`)}
        </Badge>
      </Group>
      <Stack gap={2} mt="xs">
        <Text size="sm">
          {visit.rrule
            ? visit.next_day
              ? t('mine.nextDay', { day, hours })
              : t('mine.lastDay', { day, hours })
            : t('mine.day', { day, hours })}
        </Text>
        {visit.rrule && (
          <Text size="sm" c="dimmed" data-testid="invited-rule">
            {ruleSentence(visit.rrule, lang, t)}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('mine.site', { site: visit.site.name })}
        </Text>
        {visit.group_size > 1 && (
          <Text size="sm" c="dimmed">
            {t('mine.group', { count: visit.group_size })}
          </Text>
        )}
        {props.showHost && visit.host && (
          <Text size="sm" c="dimmed">
            {t('mine.host', { name: visit.host.name })}
          </Text>
        )}
        {visit.reason && (
          <Text size="sm" c="dimmed">
            {t('mine.reason', { reason: visit.reason })}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          {t('mine.code')}{' '}
          <Text component="span" ff="monospace" fw={600} c="dark">
            {visit.code}
          </Text>
        </Text>
      </Stack>
      {/* The buttons go to the next line on a phone rather than past its edge. */}
      <Group mt="sm" gap="xs" wrap="wrap">
        {open && (
          <RowButton
            label={t('mine.edit')}
            ariaLabel={t('mine.editOf', { name })}
            onClick={props.onEdit}
          />
        )}
        {open && (
          <RowButton
            label={t('mine.cancel')}
            ariaLabel={t('mine.cancelOf', { name })}
            color="red"
            onClick={props.onCancel}
          />
        )}
        <RowButton
          label={t('mine.again')}
          ariaLabel={t('mine.againOf', { name })}
          onClick={props.onAgain}
        />
      </Group>
    </Paper>
  );
}

export default function MyVisitorsPage() {
  const { t } = useTranslation('invitations');
  const { domain = '' } = useParams();
  const { role, user } = useAuth();
  const navigate = useNavigate();
  const [when, setWhen] = useState<When>('upcoming');
  const [company, setCompany] = useState(false);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<InvitedVisit | null>(null);
  const [cancelling, setCancelling] = useState<InvitedVisit | null>(null);
  const [notice, setNotice] = useState('');
  const mayListCompany = !!role && mayPerform(role, 'requests.list');
  const scope = company && mayListCompany ? 'company' : 'mine';
  const sites = useCompanySites(user?.company_id);
  const activeSites = (sites.data ?? []).filter((site) => !site.archived_at);

  const query = { page, per_page: PER_PAGE, q: q || undefined, scope, when } as const;
  const visits = useInvitedVisits(query);
  const refresh = useThrottledInvalidate([invitationKeys.all]);

  // "Je suis arrivé(e)": the visitor's name, once the list holds them.
  const rows = visits.data?.data;
  const waiting = useRef(new Set<string>());
  const sayHere = (requestId: string, list: readonly InvitedVisit[] | undefined) => {
    const visit = list?.find((row) => row.request_id === requestId);
    if (!visit) return false;
    setNotice(t('mine.here', { name: `${visit.firstname} ${visit.lastname}`.trim() }));
    return true;
  };
  useEffect(() => {
    for (const requestId of waiting.current) {
      if (sayHere(requestId, rows)) waiting.current.delete(requestId);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on each new list
  }, [rows]);

  const onEvent = (event: LiveEvent) => {
    if (event.type !== 'invitation' && event.type !== 'presence') return;
    if (event.type === 'invitation' && event.op === 'here' && event.request_id) {
      if (!sayHere(event.request_id, rows)) waiting.current.add(event.request_id);
    }
    refresh();
  };
  useLiveFeed({ onEvent, onResync: refresh });

  const changed = (message: string) => {
    notifications.show({ color: 'teal', message });
    refresh();
  };

  const total = visits.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));

  return (
    <Container size="md">
      <ListHeader
        title={t('mine.title')}
        intro={t('mine.intro')}
        create={{ label: t('mine.invite'), to: `/${domain}/invite` }}
      />
      {/* In the page before its text changes, so assistive technology hears each arrival. */}
      <div role="status" aria-live="polite" data-testid="invited-announcement">
        {notice && (
          <Alert
            color="orange"
            variant="light"
            mb="md"
            withCloseButton
            closeButtonLabel={t('mine.closeNotice')}
            onClose={() => setNotice('')}
          >
            <Text fw={600}>{notice}</Text>
          </Alert>
        )}
      </div>
      <Stack gap="sm" mb="md">
        <TextInput
          label={t('mine.search')}
          placeholder={t('mine.searchPlaceholder')}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          type="search"
        />
        {mayListCompany && (
          <Switch
            label={t('mine.company')}
            checked={company}
            onChange={(e) => {
              setCompany(e.currentTarget.checked);
              setPage(1);
            }}
          />
        )}
      </Stack>
      <Tabs
        value={when}
        onChange={(value) => {
          setWhen((value as When | null) ?? 'upcoming');
          setPage(1);
        }}
        keepMounted={false}
      >
        <Tabs.List grow mb="md">
          <Tabs.Tab value="upcoming" fz="md" py="md" data-testid="tab-upcoming">
            {t('mine.upcoming')}
          </Tabs.Tab>
          <Tabs.Tab value="past" fz="md" py="md" data-testid="tab-past">
            {t('mine.past')}
          </Tabs.Tab>
        </Tabs.List>
        {(['upcoming', 'past'] as const).map((tab) => (
          <Tabs.Panel key={tab} value={tab}>
            <QueryState
              query={visits}
              errorText={(error) => serverMessageOf(error) ?? t('mine.loadFailed')}
              isEmpty={(answer) => answer.data.length === 0}
              empty={
                q
                  ? t('mine.noMatch')
                  : tab === 'upcoming'
                    ? t('mine.emptyUpcoming')
                    : t('mine.emptyPast')
              }
            >
              {(answer) => (
                <Stack
                  component="ul"
                  gap="sm"
                  p={0}
                  m={0}
                  style={{ listStyle: 'none' }}
                  data-testid="invited-list"
                >
                  {answer.data.map((visit) => (
                    <VisitCard
                      key={visit.request_id}
                      visit={visit}
                      showHost={scope === 'company'}
                      upcoming={tab === 'upcoming'}
                      onEdit={() => setEditing(visit)}
                      onCancel={() => setCancelling(visit)}
                      onAgain={() =>
                        void navigate(`/${domain}/invite`, { state: { again: visit } })
                      }
                    />
                  ))}
                </Stack>
              )}
            </QueryState>
          </Tabs.Panel>
        ))}
      </Tabs>
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination value={page} onChange={setPage} total={pages} />
        </Group>
      )}
      {editing && (
        <EditDialog
          visit={editing}
          sites={activeSites}
          onClose={() => setEditing(null)}
          onSaved={(message) => {
            setEditing(null);
            changed(message);
          }}
        />
      )}
      {cancelling && (
        <CancelDialog
          visit={cancelling}
          onClose={() => setCancelling(null)}
          onDone={(message) => {
            setCancelling(null);
            changed(message);
          }}
        />
      )}
    </Container>
  );
}
