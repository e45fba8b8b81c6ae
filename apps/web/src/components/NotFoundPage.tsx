/**
 * 'Page introuvable', inside the app's layout: an unknown address, a company that does
 * not exist, or a record the person may not reach (the API's 404 for another company's
 * record, said the same way on screen). The way back is the home of the person's own
 * company when signed in, else of the company the URL names when it exists, else of the
 * default company.
 */
import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../lib/i18n';
import { Link } from 'react-router';
import { useAuth } from '../lib/auth';
import { usePageTitleOverride } from '../lib/page-title';
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

/** A page the person cannot use, said in the layout with a way back home. */
function BlockedPage({ code, page }: { code: 403 | 404; page: 'notFound' | 'forbidden' }) {
  const { t } = useTranslation('common');
  const home = useHomePath();
  usePageTitleOverride(`common:${page}.title`, t(`${page}.title`));
  return (
    <Container size="sm" py={{ base: 'lg', sm: 'xl' }}>
      <Paper
        withBorder
        radius="lg"
        p={{ base: 'lg', sm: 'xl' }}
        data-testid={page === 'notFound' ? 'not-found' : 'forbidden'}
      >
        <Stack align="center" gap="md">
          <Text fw={800} fz={56} c="sesame.7" lh={1} aria-hidden>
            {code}
          </Text>
          <Title order={1} size="h2" ta="center">
            {t(`${page}.title`)}
          </Title>
          <Text c="dimmed" ta="center">
            {t(`${page}.text`)}
          </Text>
          <Button component={Link} to={home} size="md">
            {t('notFound.home')}
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}

export function NotFoundPage() {
  return <BlockedPage code={404} page="notFound" />;
}

/**
 * A menu page the role has no tile for, opened by its address: the permission message
 * (as the API's 403), not a screen whose calls all fail with 'something went wrong'.
 */
export function ForbiddenPage() {
  return <BlockedPage code={403} page="forbidden" />;
}
