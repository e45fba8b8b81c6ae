import { Alert, Button, Card, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { showsHomeButton } from '@sesame/shared';
import { CompanyLogo } from '../../../components/CompanyLogo';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import homeWords from '../../../locales/fr/home.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ home: homeWords });

/** Spec §2 Home: the request-meeting button, and the Menu button for staff. */
export default function HomePage() {
  const { t } = useTranslation('home');
  const { domain = '' } = useParams();
  const { role, isAuthenticated } = useAuth();
  const company = useCompany(domain);
  // On a phone (below Mantine's `sm`) the card's padding and the buttons' size shrink, so
  // 'Demander un rendez-vous' holds on one line (issue 27: it broke after 'rendez-').
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });

  if (company.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common:loading')} />
      </Center>
    );
  }
  if (company.isError) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title={t('notFoundTitle')} role="alert">
          {t('notFound', { slug: domain })}
        </Alert>
      </Container>
    );
  }

  const viewer = isAuthenticated ? role : null;
  return (
    <Container size="sm" py="xl">
      <Card withBorder radius="lg" padding={phone ? 'md' : 'xl'} shadow="sm">
        <Stack align="center" gap="lg">
          <CompanyLogo company={company.data} h={75} />
          <Title order={1} ta="center" size="h2">
            {t('welcome', { company: company.data.name })}
          </Title>
          <Text ta="center" c="dimmed">
            {t('intro')}
          </Text>
          {showsHomeButton('requestMeeting', viewer) && (
            <Button
              component={Link}
              to={`/${company.data.slug}/meeting`}
              size={phone ? 'md' : 'lg'}
              fullWidth
              h="auto"
              mih="2.75rem"
              py="sm"
              // Narrower still (a 320 px screen), it wraps between words into even lines.
              styles={{ label: { whiteSpace: 'normal', textAlign: 'center', textWrap: 'balance' } }}
            >
              {t('requestMeeting')}
            </Button>
          )}
          {viewer && showsHomeButton('menu', viewer) && (
            <Button
              component={Link}
              to={`/${company.data.slug}/menu`}
              size={phone ? 'md' : 'lg'}
              variant="light"
              fullWidth
            >
              {t('menu')}
            </Button>
          )}
        </Stack>
      </Card>
    </Container>
  );
}
