import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Container,
  Group,
  Image,
  SegmentedControl,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../lib/i18n';
import { Link, Outlet, useLocation } from 'react-router';
import { EDIT_COMPANY_LINK_ROLES, IMAGE_SIZES } from '@sesame/shared';
import { NotFoundPage } from '../../components/NotFoundPage';
import { ApiError } from '../../lib/api-client';
import { useAuth } from '../../lib/auth';
import { useCompany } from '../../lib/company';
import { safeReturnPath } from '../../lib/return-path';
import { setCurrentCompany } from '../../lib/session';
import {
  PageTitleProvider,
  formatPageTitle,
  routeTitleKey,
  usePageTitleOverrideKey,
  useRouteHandles,
} from '../../lib/page-title';
import { RecordCompanyProvider, useShownCompany } from '../../lib/shown-company';
import { SiteChoiceProvider, useSiteChoice } from '../../lib/site';
import classes from './AppLayout.module.css';
import { ScreenLoader } from '../../components/ScreenLoader';

const UserMenu = lazy(() => import('./UserMenu'));
const SiteSwitcher = lazy(() => import('./SiteSwitcher'));

function Navbar() {
  const { t, i18n } = useTranslation();
  const { user, role, isAuthenticated, logout } = useAuth();
  // lib/shown-company: the URL's company, else the record's, else the user's own, else the default.
  const { slug } = useShownCompany();
  const company = useCompany(slug);
  const home = slug ? `/${slug}` : '/';
  const ownSlug = user?.company ?? slug;
  // Issue 28: the site switcher's code (Select) loads only for a company of several sites.
  const { multi } = useSiteChoice();

  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        {/* Named by what it shows (the logo's alt or 'Sésame', the company), then 'Accueil'. */}
        <Anchor component={Link} to={home} className={classes.brand}>
          {company.data?.logo_url ? (
            <Image
              src={company.data.logo_url}
              alt={company.data.name}
              h={IMAGE_SIZES.small}
              w="auto"
              fit="contain"
            />
          ) : (
            // Without a logo the company is named here, on a phone too (issue 17).
            <Text fw={800} size="xl" c="sesame.8" truncate="end" maw={{ base: 170, xs: 320 }}>
              {company.data?.name ?? 'Sésame'}
            </Text>
          )}
          {company.data?.logo_url && (
            <Text fw={600} size="sm" c="dark.6" visibleFrom="xs">
              {company.data.name}
            </Text>
          )}
        </Anchor>
        <Group gap="xs" wrap="nowrap">
          {isAuthenticated && role && EDIT_COMPANY_LINK_ROLES.includes(role) && ownSlug && (
            <Anchor
              component={Link}
              to={`/${ownSlug}/edit-company/${ownSlug}`}
              size="sm"
              visibleFrom="sm"
            >
              {t('nav.editCompany')}
            </Anchor>
          )}
          {isAuthenticated && multi && (
            <Suspense fallback={null}>
              <SiteSwitcher />
            </Suspense>
          )}
          <SegmentedControl
            size="xs"
            value={i18n.language.startsWith('en') ? 'en' : 'fr'}
            onChange={(lng) => {
              // A toast keeps the words it was shown with: a person who switches language
              // would read the old one until it closes. Toasts are momentary; they go.
              notifications.clean();
              void i18n.changeLanguage(lng);
            }}
            data={[
              { value: 'fr', label: 'FR' },
              { value: 'en', label: 'EN' },
            ]}
            aria-label={t('nav.language')}
          />
          {isAuthenticated && user && ownSlug && (
            // The signed-in person's own pages (issues 15, 17), on every screen size; its code
            // (Menu, its floating positioning) loads with a session, never on a public page.
            <Suspense fallback={null}>
              <UserMenu user={user} ownSlug={ownSlug} />
            </Suspense>
          )}
          {isAuthenticated ? (
            <Button size="xs" variant="default" onClick={() => void logout()}>
              {t('nav.logout')}
            </Button>
          ) : (
            <Button size="xs" component={Link} to="/sign-in">
              {t('nav.login')}
            </Button>
          )}
        </Group>
      </Container>
      {isAuthenticated && role && EDIT_COMPANY_LINK_ROLES.includes(role) && ownSlug && (
        <Container size="lg" hiddenFrom="sm" pb={6}>
          <Anchor component={Link} to={`/${ownSlug}/edit-company/${ownSlug}`} size="sm">
            {t('nav.editCompany')}
          </Anchor>
        </Container>
      )}
    </Box>
  );
}

/**
 * The company a URL names must exist: otherwise every page under it is 'Page introuvable'
 * (not a half-empty form). The slug is then recorded as the current company (spec §1).
 */
function CompanyGate({ children }: { children: ReactNode }) {
  const { slug, fromUrl } = useShownCompany();
  const company = useCompany(fromUrl ? slug : null);
  const knownSlug = company.data?.slug;
  useEffect(() => {
    if (knownSlug) setCurrentCompany(knownSlug);
  }, [knownSlug]);
  if (fromUrl && company.error instanceof ApiError && company.error.status === 404)
    return <NotFoundPage />;
  return children;
}

/**
 * `document.title`: the page (its route's title, or the screen shown in its place), the
 * company the navbar shows, Sésame (lib/page-title). Rewritten when any of them changes,
 * the language included.
 */
function DocumentTitle() {
  const handles = useRouteHandles();
  const override = usePageTitleOverrideKey();
  const key = override ?? routeTitleKey(handles.map((handle) => ({ handle })));
  // A staff page's namespace may still be on its way (lib/i18n): the title waits for it
  // rather than show its key. Outside the page's Suspense, so it does not suspend.
  const { t, ready } = useTranslation(key?.includes(':') ? key.split(':')[0] : 'common', {
    useSuspense: false,
  });
  const { slug } = useShownCompany();
  const company = useCompany(slug);
  const title = formatPageTitle({ page: key ? t(key) : null, company: company.data?.name });
  useEffect(() => {
    if (ready) document.title = title;
  }, [title, ready]);
  return null;
}

/** 'Votre session a expiré. Reconnectez-vous.' until the person signs in again or closes it. */
function SessionEndedNotice() {
  const { t } = useTranslation();
  const { sessionEnded, isAuthenticated, dismissSessionEnded } = useAuth();
  const location = useLocation();
  if (!sessionEnded || isAuthenticated) return null;
  const onSignIn = location.pathname === '/sign-in' || location.pathname === '/';
  const from = safeReturnPath(`${location.pathname}${location.search}${location.hash}`);
  return (
    <Container size="sm" pb="md">
      <Alert
        color="yellow"
        role="alert"
        title={t('session.ended')}
        withCloseButton
        closeButtonLabel={t('close')}
        onClose={dismissSessionEnded}
        data-testid="session-ended"
      >
        {!onSignIn && (
          <Anchor component={Link} to="/sign-in" state={{ from }} size="sm">
            {t('session.signInAgain')}
          </Anchor>
        )}
      </Alert>
    </Container>
  );
}

export function AppLayout() {
  const { t } = useTranslation();
  return (
    <RecordCompanyProvider>
      <SiteChoiceProvider>
        <PageTitleProvider>
          <DocumentTitle />
          <div className={classes.page}>
            <Navbar />
            <Box component="main" className={classes.main}>
              <SessionEndedNotice />
              <Suspense
                fallback={
                  // A page's code on its way.
                  <ScreenLoader label={t('loading')} />
                }
              >
                <CompanyGate>
                  <Outlet />
                </CompanyGate>
              </Suspense>
            </Box>
            <Box component="footer" className={classes.footer}>
              <Text size="sm" c="dimmed" ta="center">
                {t('footer.copyright', { year: new Date().getFullYear() })}
              </Text>
            </Box>
          </div>
        </PageTitleProvider>
      </SiteChoiceProvider>
    </RecordCompanyProvider>
  );
}
