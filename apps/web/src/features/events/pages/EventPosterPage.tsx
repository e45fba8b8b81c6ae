/**
 * The event QR poster (spec §2): time, date, name, place, address and the QR of the
 * share link. Capture downloads event-{domain}.png; staff also get a Menu button.
 * Public: the poster is meant to be printed and shown at the door.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Container, Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { QueryState } from '../../../components/QueryState';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { downloadNodeAsPng } from '../../../lib/capture';
import { usePublicEvent } from '../api/events';
import { formatAddress, formatEventDay, formatEventTime } from '../lib/format';
import eventsWords from '../../../locales/fr/events.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ events: eventsWords });

/** Big enough for a phone to read it on paper and for the PNG to decode. */
const POSTER_QR_PX = 260;

export default function EventPosterPage() {
  const { t, i18n } = useTranslation('events');
  const { domain = '', slug = '' } = useParams();
  const { isAuthenticated } = useAuth();
  const query = usePublicEvent(domain, slug);
  const posterRef = useRef<HTMLDivElement>(null);
  const [capturing, setCapturing] = useState(false);
  const [qrLoaded, setQrLoaded] = useState(false);
  const announced = useRef(false);
  const lang = i18n.language;

  useEffect(() => {
    if (query.data && !announced.current) {
      announced.current = true;
      notifications.show({ message: t('poster.found'), color: 'teal', autoClose: 2000 });
    }
  }, [query.data, t]);

  const capture = async () => {
    if (!posterRef.current) return;
    setCapturing(true);
    try {
      await downloadNodeAsPng(posterRef.current, `event-${domain}.png`);
    } catch {
      notifications.show({ message: t('poster.captureFailed'), color: 'red' });
    } finally {
      setCapturing(false);
    }
  };

  if (query.isPending || query.isError) {
    return (
      <Container size="sm" py="xl">
        <QueryState
          query={query}
          loadingLabel={t('poster.title')}
          errorText={(error) =>
            error instanceof ApiError && error.status === 404
              ? t('join.notFound')
              : t('poster.loadFailed')
          }
        >
          {() => null}
        </QueryState>
      </Container>
    );
  }

  const event = query.data.data;
  return (
    <Container size="sm" py="lg">
      <Paper ref={posterRef} withBorder radius="md" p="xl" data-testid="event-poster" bg="white">
        <Stack align="center" gap="sm" ta="center">
          <Text size="sm" fw={600} c="dimmed" tt="uppercase">
            {event.company.name}
          </Text>
          <Title order={1} size="h2">
            {event.name}
          </Title>
          <Text size="lg" fw={600}>
            {formatEventDay(event.date_event, lang)} · {formatEventTime(event.time_event, lang)}
          </Text>
          <Stack gap={2}>
            <Text fw={500}>{event.location}</Text>
            <Text size="sm" c="dimmed">
              {formatAddress(event, lang)}
            </Text>
          </Stack>
          <Image
            src={event.qrcode_url}
            alt={t('poster.qrAlt', { name: event.name })}
            w={POSTER_QR_PX}
            h={POSTER_QR_PX}
            fit="contain"
            onLoad={() => setQrLoaded(true)}
            data-testid="event-poster-qr"
          />
          <Text size="sm">{t('poster.scan')}</Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {event.link}
          </Text>
        </Stack>
      </Paper>
      <Group justify="center" mt="md">
        <Button onClick={() => void capture()} loading={capturing} disabled={!qrLoaded}>
          {t('poster.capture')}
        </Button>
        {isAuthenticated && (
          <Button component={Link} to={`/${domain}/menu`} variant="default">
            {t('poster.menu')}
          </Button>
        )}
      </Group>
    </Container>
  );
}
