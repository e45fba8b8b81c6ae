/**
 * 'Page introuvable', inside the app's layout: an unknown address, a company that does
 * not exist, or a record the person may not reach (the API's 404 for another company's
 * record, said the same way on screen). The way back is the home of the person's own
 * company when signed in, else of the company the URL names when it exists, else of the
 * default company.
 */
import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth';
import { companyQueryOptions, useSettings } from '../lib/company';
import { useUrlCompanySlug } from '../lib/shown-company';

export function useHomePath(): string {
  const { user, isAuthenticated } = useAuth();
  const urlSlug = useUrlCompanySlug();
  // Never a refetch on mount: this page is what a failed company look-up shows, and a
  // refetch would put that look-up back to loading, and the page it replaced back on screen.
  const urlCompany = useQuery({
    ...companyQueryOptions(isAuthenticated ? null : urlSlug),
    retryOnMount: false,
  });
  const settings = useSettings();
  const slug =
    (isAuthenticated ? user?.company : undefined) ??
    urlCompany.data?.slug ??
    settings.data?.default_company_slug;
  return slug ? `/${slug}` : '/';
}

export function NotFoundPage() {
  const { t } = useTranslation('common');
  const home = useHomePath();
  return (
    <Container size="sm" py={{ base: 'lg', sm: 'xl' }}>
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} data-testid="not-found">
        <Stack align="center" gap="md">
          <Text fw={800} fz={56} c="sesame.7" lh={1} aria-hidden>
            404
          </Text>
          <Title order={1} size="h2" ta="center">
            {t('notFound.title')}
          </Title>
          <Text c="dimmed" ta="center">
            {t('notFound.text')}
          </Text>
          <Button component={Link} to={home} size="md">
            {t('notFound.home')}
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}
