/**
 * RequestQrCode (`/{domain}/qr-code/{id}`): what the visitor sent, read back from
 * session storage (spec §2), after a visitor was created (JoinEvent lands here).
 */
import { Alert, Button, Container, Paper, Stack, Text } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { readVisitorSummary } from '../../../components/visitor-form/summary';
import { formatDayWords } from '../../../lib/format';
import { cardAddress } from '../components/VisitorCardView';
import visitorsWords from '../../../locales/fr/visitors.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ visitors: visitorsWords });

export default function RequestQrCodePage() {
  const { domain = '' } = useParams();
  const { t, i18n } = useTranslation('visitors');
  const summary = readVisitorSummary();

  return (
    <Container size="xs" py="xl">
      <PageTitle ta="center">{t('summary.title')}</PageTitle>
      {!summary ? (
        <Stack align="center">
          <Text c="dimmed">{t('summary.empty')}</Text>
          <Button component={Link} to={`/${domain}`} variant="default">
            {t('summary.home')}
          </Button>
        </Stack>
      ) : (
        <Paper withBorder radius="md" p="lg" data-testid="visitor-summary">
          <Stack gap="xs">
            <Text fw={700} size="lg">
              {summary.firstname} {summary.lastname}
            </Text>
            {summary.title && <Text fw={600}>{summary.title}</Text>}
            {summary.location && <Text>{summary.location}</Text>}
            {summary.site && (
              <Text data-testid="visitor-summary-site">
                {t('summary.site', { name: summary.site })}
              </Text>
            )}
            <Text c="dimmed">
              {cardAddress(
                {
                  address: summary.address,
                  city: summary.city,
                  state: summary.state,
                  zipcode: summary.zipcode,
                  country: summary.country,
                },
                i18n.language,
              )}
            </Text>
            <Text>
              {formatDayWords(summary.date_event, i18n.language, { weekday: true })}{' '}
              {summary.time_event}
            </Text>
            <Alert color="teal" mt="sm" role="status">
              {t('waiting.mailSent')}
            </Alert>
          </Stack>
        </Paper>
      )}
    </Container>
  );
}
