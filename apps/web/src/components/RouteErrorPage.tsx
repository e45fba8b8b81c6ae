/**
 * What a screen that failed to render shows: anything that throws while rendering (a
 * render error, a screen whose code could not be loaded after an update) says so and
 * offers a reload and the way home. The error goes to the console for whoever debugs,
 * never onto the screen. An address no route knows is the table's '*' route (not found).
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { Outlet, useLocation } from 'react-router';
import { usePageTitleOverride } from '../lib/page-title';
import { useHomePath } from './NotFoundPage';

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

interface BoundaryProps {
  fallback: ReactNode;
  /** The address shown: a new one clears the failure (the person went elsewhere). */
  resetKey?: string;
  children: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  /** The address of the last render that did not fail. */
  shownAt?: string;
}

/** Shows `fallback` in place of `children` when they throw, until the address changes. */
export class RouteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: BoundaryProps,
    state: BoundaryState,
  ): Partial<BoundaryState> | null {
    if (!state.failed) return { shownAt: props.resetKey };
    return state.shownAt !== props.resetKey ? { failed: false, shownAt: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

/** Inside the layout: the navbar and the footer stay. */
function RouteErrorPage() {
  const home = useHomePath();
  return <ErrorCard home={home} />;
}

/** The pages' boundary (app/routes): a page that fails leaves the layout standing. */
export function PageErrorBoundary() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary fallback={<RouteErrorPage />} resetKey={pathname}>
      <Outlet />
    </RouteErrorBoundary>
  );
}

/** Above the layout (the layout itself failed): no navbar, no session reading, '/' as home. */
export function RootErrorPage() {
  return <ErrorCard home="/" />;
}
