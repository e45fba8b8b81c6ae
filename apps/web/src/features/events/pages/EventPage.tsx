/**
 * The event page (`/{domain}/list-qrcode-events/{slug}`, spec 'Liste Participants',
 * issue 17): the event's name as the title, its day, time and place, whether it still
 * takes registrations, its share link and QR poster (copy, download, open), closing it,
 * then its participants paged like every list, with the CSV export. The organiser
 * lands here after creating the event.
 */
import { useState } from 'react';
import {
  Anchor,
  Badge,
  Button,
  Container,
  Grid,
  Group,
  Image,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { mayPerform, type Event, type RequestRow, type Role } from '@sesame/shared';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { ServerTable, type Column } from '../../../components/ServerTable';
import {
  CardLink,
  actionsColumns,
  mailColumn,
  showsOwnActions,
  statusColumn,
  useDeleteRequest,
  visitorColumns,
} from '../../../components/request-columns';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { formatDateTime, formatLongDate } from '../../../lib/format';
import { useSiteChoice } from '../../../lib/site';
import { withZone } from '../../../lib/zone-label';
import { deleteParticipant, exportParticipants, getParticipants, useEvent } from '../api/events';
import { CloseEventButton } from '../components/CloseEventButton';
import { formatAddress, formatEventDay, formatEventTime } from '../lib/format';

/** The QR shown on the page: large enough to scan from the screen. */
const PAGE_QR_PX = 160;

export default function EventPage() {
  const { t } = useTranslation('events');
  const { domain = '', slug = '' } = useParams();
  const { role } = useAuth();
  const query = useEvent(domain, slug);

  return (
    <Container size="xl" py="lg">
      <QueryState
        query={query}
        loadingLabel={t('page.loading')}
        errorText={(error) =>
          error instanceof ApiError && error.status === 404
            ? t('join.notFound')
            : (serverMessageOf(error) ?? t('page.loadFailed'))
        }
      >
        {({ data: event }) => (
          <Stack gap="lg">
            <EventSummary event={event} role={role} />
            <Participants event={event} role={role} />
          </Stack>
        )}
      </QueryState>
    </Container>
  );
}

function EventSummary({ event, role }: { event: Event; role: Role | null }) {
  const { t, i18n } = useTranslation('events');
  const lang = i18n.language;
  // A company of several sites (issue 28): the event says its site.
  const multiSite = useSiteChoice().multi;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="event-page-summary">
      <Grid gap="lg" align="flex-start">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="xs">
            <Group gap="sm" align="center" wrap="wrap">
              <PageTitle mb={0}>{event.name}</PageTitle>
              {event.closed ? (
                <Badge color="gray" variant="filled" size="lg">
                  {t('list.closed')}
                </Badge>
              ) : (
                <Badge color="teal.8" variant="filled" size="lg">
                  {t('page.open')}
                </Badge>
              )}
            </Group>
            <Text>
              {t('join.when', {
                date: formatEventDay(event.date_event, lang),
                // The site's time, with its zone when it is not the reader's (issue 28).
                time: withZone(formatEventTime(event.time_event, lang), event.site?.timezone, lang),
              })}
            </Text>
            <Text c="dimmed">
              {event.location} — {formatAddress(event, lang)}
            </Text>
            {multiSite && event.site && (
              <Text size="sm" data-testid="event-site">
                {t('page.site', { site: event.site.name })}
              </Text>
            )}
            <Text size="sm" c="dimmed">
              {event.company.name} ·{' '}
              {t('list.participantCount', { count: event.participant_count })}
            </Text>
            <Stack gap={4} mt="sm">
              <Text size="sm" fw={600}>
                {t('page.shareLink')}
              </Text>
              <Group gap="sm" wrap="wrap">
                <Anchor
                  href={event.link}
                  target="_blank"
                  rel="noreferrer"
                  size="sm"
                  style={{ wordBreak: 'break-all' }}
                  data-testid="event-share-link"
                >
                  {event.link}
                </Anchor>
                <CopyLinkButton link={event.link} />
              </Group>
            </Stack>
            {!!role && mayPerform(role, 'events.delete') && (
              <Group mt="sm">
                <CloseEventButton event={event} size="sm" />
              </Group>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {event.qrcode_url && (
            <Stack gap="xs" align="center">
              <Image
                src={event.qrcode_url}
                alt={t('list.qrAlt', { name: event.name })}
                w={PAGE_QR_PX}
                h={PAGE_QR_PX}
                fit="contain"
              />
              <Group gap="xs" justify="center">
                <Button
                  component="a"
                  href={event.qrcode_url}
                  download={`qr-${event.slug}.png`}
                  size="xs"
                  variant="light"
                >
                  {t('page.downloadQr')}
                </Button>
                <Button
                  component={Link}
                  to={`/${event.company.slug}/show-event-qrcode/${event.slug}`}
                  size="xs"
                  variant="default"
                >
                  {t('page.poster')}
                </Button>
              </Group>
            </Stack>
          )}
        </Grid.Col>
      </Grid>
    </Paper>
  );
}

function Participants({ event, role }: { event: Event; role: Role | null }) {
  const { t, i18n } = useTranslation('events');
  const [exporting, setExporting] = useState(false);
  const lang = i18n.language;
  const remove = useDeleteRequest(deleteParticipant, 'events');

  const download = async () => {
    setExporting(true);
    try {
      await exportParticipants(event);
    } catch (error) {
      notifications.show({
        color: 'red',
        message: serverMessageOf(error) ?? t('page.exportFailed'),
      });
    } finally {
      setExporting(false);
    }
  };

  const columns: Column<RequestRow>[] = [
    ...visitorColumns({
      visitor: t('participants.columns.visitor'),
      image: t('participants.columns.image'),
    }),
    {
      key: 'checkin',
      header: t('participants.columns.checkIn'),
      render: (row) => {
        const last = row.visitor.checkIns.at(-1);
        if (!last) {
          return (
            <Text size="sm" c="dimmed">
              {t('participants.notArrived')}
            </Text>
          );
        }
        return (
          <Stack gap={0}>
            <Text size="sm">{formatDateTime(last.check_in_time, undefined, lang)}</Text>
            {last.check_out_time && (
              <Text size="xs" c="dimmed">
                {t('participants.left', {
                  time: formatDateTime(last.check_out_time, undefined, lang),
                })}
              </Text>
            )}
          </Stack>
        );
      },
    },
    statusColumn(t('participants.columns.status'), {
      confirmed: t('participants.confirmed'),
      pending: t('participants.pending'),
      declined: t('participants.declined'),
      cancelled: t('participants.cancelled'),
    }),
    mailColumn(t('common:mail.title'), !!role && mayPerform(role, 'events.create')),
    {
      key: 'created',
      header: t('participants.columns.createdAt'),
      render: (row) => formatLongDate(row.created_at, event.company.timezone, lang),
    },
  ];
  // The row's actions, in one column (issue 27): the meeting card, then delete.
  const cardLink = (row: RequestRow) =>
    row.visitor.uidn ? <CardLink row={row} label={t('participants.card')} /> : null;
  columns.push(
    ...actionsColumns(role, showsOwnActions(role) ? [cardLink] : [], remove, {
      header: t('participants.columns.action'),
      delete: t('list.delete'),
      deleteLabel: (name) => t('participants.deleteLabel', { name }),
    }),
  );

  return (
    <section aria-labelledby="participants-title">
      <Group justify="space-between" align="center" mb="sm" wrap="wrap">
        <Title order={2} size="h3" id="participants-title">
          {t('participants.title')}
        </Title>
        <Button variant="light" onClick={() => void download()} loading={exporting}>
          {t('participants.export')}
        </Button>
      </Group>
      <ServerTable<RequestRow>
        queryKey={['events', 'participants', event.id]}
        fetchPage={(params) => getParticipants(event, params)}
        columns={columns}
        rowKey={(row) => row.id}
        emptyMessage={t('participants.empty')}
        errorMessage={t('page.loadFailed')}
        searchable
      />
    </section>
  );
}
