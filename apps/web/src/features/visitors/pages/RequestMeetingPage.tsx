/**
 * RequestMeeting. Without an id (`/{domain}/request-meeting`): the entry to the
 * visitor form. With the id of a request just created
 * (`/{domain}/request-meeting/{id}`): the visitor waits there for the host's
 * decision (the screen changes by itself); signed-in staff go on to
 * WaitingValidation after 1.5 s (spec §4).
 */
import { useEffect } from 'react';
import { Button, Center, Container, Loader, Paper, Stack, Text } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useParams, useSearchParams } from 'react-router';
import { CompanyLogo } from '../../../components/CompanyLogo';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { useCompany } from '../../../lib/company';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { WaitingPanel } from '../components/WaitingPanel';
import homeWords from '../../../locales/fr/home.json';
import visitorsWords from '../../../locales/fr/visitors.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ home: homeWords, visitors: visitorsWords });

export default function RequestMeetingPage() {
  const { domain = '', id } = useParams();
  const { t } = useTranslation('visitors');
  const navigateLater = useDelayedNavigate();
  const { isAuthenticated } = useAuth();
  const company = useCompany(domain);
  // A site's own link or poster (issue 28) names its site: the form keeps it.
  const [params] = useSearchParams();
  const site = params.get('site');

  useEffect(() => {
    if (!id || !isAuthenticated) return;
    navigateLater(`/${domain}/waiting-validation/${id}`);
  }, [id, isAuthenticated, domain, navigateLater]);

  if (id) {
    return (
      <Container size="sm" py={{ base: 'md', sm: 'xl' }}>
        <PageTitle ta="center">{t('waiting.title')}</PageTitle>
        <WaitingPanel domain={domain} id={id} />
      </Container>
    );
  }

  return (
    <Container size="xs" py="xl">
      <Paper withBorder radius="md" p="xl">
        {company.isPending ? (
          <Center>
            <Loader aria-label={t('common:loading')} />
          </Center>
        ) : (
          <Stack align="center" gap="md">
            <CompanyLogo company={company.data} h={75} />
            <PageTitle ta="center" mb={0}>
              {company.data ? company.data.name : t('outcome.companyNotFound')}
            </PageTitle>
            {company.data && (
              <>
                <Text ta="center" c="dimmed">
                  {t('entry.intro')}
                </Text>
                <Button
                  component={Link}
                  to={`/${domain}/meeting${site ? `?site=${encodeURIComponent(site)}` : ''}`}
                  size="md"
                  fullWidth
                >
                  {t('entry.requestMeeting')}
                </Button>
              </>
            )}
          </Stack>
        )}
      </Paper>
    </Container>
  );
}
