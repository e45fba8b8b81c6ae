/**
 * What a screen that failed to render shows, in place of the router's developer page:
 * a 404 from the router is the not-found page; anything else (a render error, a screen
 * whose code could not be loaded after an update) says so and offers a reload and the
 * way home. The error goes to the console for whoever debugs, never onto the screen.
 */
import { useEffect } from 'react';
import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { usePageTitleOverride } from '../lib/page-title';
import { NotFoundPage, useHomePath } from './NotFoundPage';

function ErrorCard({ home }: { home: string }) {
  const { t } = useTranslation('common');
  usePageTitleOverride('common:routeError.title', t('routeError.title'));
  return (
    <Container size="sm" py={{ base: 'lg', sm: 'xl' }}>
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} data-testid="route-error">
        <Stack align="center" gap="md">
          <Title order={1} size="h2" ta="center">
            {t('routeError.title')}
          </Title>
          <Text c="dimmed" ta="center">
            {t('routeError.text')}
          </Text>
          <Group justify="center">
            <Button onClick={() => window.location.reload()}>{t('routeError.reload')}</Button>
            {/* A full load: whatever broke this screen is left behind. */}
            <Button component="a" href={home} variant="default">
              {t('notFound.home')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}

function useLoggedRouteError(): unknown {
  const error = useRouteError();
  useEffect(() => {
    if (!isRouteErrorResponse(error)) console.error(error);
  }, [error]);
  return error;
}

/** Inside the layout: the navbar and the footer stay. */
export function RouteErrorPage() {
  const error = useLoggedRouteError();
  const home = useHomePath();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorCard home={home} />;
}

/** Above the layout (the layout itself failed): no navbar, no session reading, '/' as home. */
export function RootErrorPage() {
  useLoggedRouteError();
  return <ErrorCard home="/" />;
}
