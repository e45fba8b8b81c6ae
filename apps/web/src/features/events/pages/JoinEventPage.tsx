/**
 * JoinEvent (`/company/{domain}/event/{slug}`, spec §2): an event registration page
 * (issue 17), reached through the share link or the poster's QR, often on a phone.
 * The event's name is the page's title, its day, time and place are text (nothing to
 * edit), then the visitor's own fields (the visitor form in event mode) and
 * 'S'inscrire'. A registration needs no host: the code and QR go by e-mail at once.
 */
import { documentRefusal } from '../../../components/visitor-form/document-refusal';
import { useDeferredValue, useState, type ReactNode } from 'react';
import { Alert, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { useNavigate, useParams } from 'react-router';
import { storeVisitorSummary } from '../../../components/visitor-form/summary';
import { VisitorForm } from '../../../components/visitor-form/VisitorForm';
import { ApiError } from '../../../lib/api-client';
import { setCurrentCompany } from '../../../lib/session';
import { registerForEvent, usePublicEvent } from '../api/events';
import { formatAddress, formatEventDay, formatEventTime } from '../lib/format';
import eventsWords from '../../../locales/fr/events.json';
import { ScreenLoader } from '../../../components/ScreenLoader';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ events: eventsWords });

export default function JoinEventPage() {
  const { t, i18n } = useTranslation('events');
  const { domain = '', slug = '' } = useParams();
  const navigate = useNavigate();
  const query = usePublicEvent(domain, slug);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const lang = i18n.language;
  // The event's facts show first; the form (a few hundred elements) is built right after in a
  // transition, which React splits into short tasks, so a phone stays responsive (issue 19:
  // built with the facts, it blocked the page for 190-220 ms in Lighthouse's mobile run).
  const formShown = useDeferredValue(query.isSuccess);

  if (query.isPending) {
    return (
      // The event and its form will be taller than the screen.
      <ScreenLoader label={t('join.loading')} />
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <Container size="sm" py="xl">
        <Alert color="red" role="alert">
          {notFound ? t('join.notFound') : t('join.loadFailed')}
        </Alert>
      </Container>
    );
  }

  const event = query.data.data;

  const submit = async (formData: FormData) => {
    setFailure(null);
    setSubmitting(true);
    try {
      const { data } = await registerForEvent(event.company.slug, event.slug, formData);
      setCurrentCompany(event.company.slug);
      storeVisitorSummary({
        firstname: data.firstname,
        lastname: data.lastname,
        title: event.name,
        location: event.location,
        address: event.address_name,
        city: event.city ?? '',
        state: event.state ?? '',
        country: event.country ?? '',
        zipcode: event.zipcode ?? '',
        date_event: event.date_event,
        time_event: event.time_event,
      });
      await navigate(`/${event.company.slug}/qr-code/${data.visitor_id}`);
    } catch (error) {
      const refused = documentRefusal(error);
      if (refused) return refused;
      if (error instanceof ApiError && error.status > 0) {
        const message = error.serverMessage ?? t('join.unknownError');
        setFailure(t('join.failure', { message }));
        // A registration refused because the event closed meanwhile: show it closed.
        if (error.status === 409) void query.refetch();
      } else {
        setFailure(t('join.network'));
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Container size="md" py={{ base: 'sm', sm: 'lg' }} px={{ base: 'xs', sm: 'md' }}>
      <Stack gap="md">
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="event-summary">
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('join.organiser', { company: event.company.name })}
            </Text>
            <Title order={1} size="h2" id="event-title" style={{ overflowWrap: 'anywhere' }}>
              {event.name}
            </Title>
            <dl style={{ margin: 0, display: 'grid', gap: 6 }}>
              <Fact label={t('join.date')}>{formatEventDay(event.date_event, lang)}</Fact>
              <Fact label={t('join.time')}>{formatEventTime(event.time_event, lang)}</Fact>
              <Fact label={t('join.place')}>
                {event.location}
                <br />
                {formatAddress(event, lang)}
              </Fact>
            </dl>
            {!event.closed && (
              <Text size="sm" c="dimmed">
                {t('join.intro')}
              </Text>
            )}
          </Stack>
        </Paper>
        {event.closed ? (
          <Alert color="gray" title={t('join.closedTitle')} role="status">
            {t('join.closed')}
          </Alert>
        ) : (
          <>
            {failure && (
              <Alert color="red" role="alert" data-testid="join-error">
                {failure}
              </Alert>
            )}
            {formShown ? (
              <VisitorForm
                event={event}
                privacySlug={event.company.slug}
                onSubmit={submit}
                submitting={submitting}
                submitLabel={t('join.register')}
                labelledBy="event-title"
              />
            ) : (
              // Holds the form's place, so nothing below moves when it comes.
              <ScreenLoader label={t('join.loading')} />
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}

/** One fact of the event (date, time, place): its label, then the value as text. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '4.5rem 1fr', gap: 8 }}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" fw={500} m={0}>
        {children}
      </Text>
    </div>
  );
}
