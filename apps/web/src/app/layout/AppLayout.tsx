import { Suspense } from 'react';
import {
  Anchor,
  Box,
  Button,
  Center,
  Container,
  Group,
  Image,
  Loader,
  SegmentedControl,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useParams } from 'react-router';
import { EDIT_COMPANY_LINK_ROLES, IMAGE_SIZES } from '@sesame/shared';
import { useAuth } from '../../lib/auth';
import { useCompany, useSettings } from '../../lib/company';
import { currentCompany } from '../../lib/session';
import classes from './AppLayout.module.css';

/** The slug of the company on screen: the URL's, else the stored one, else the default. */
function useCompanySlug(): string | undefined {
  const params = useParams();
  const settings = useSettings();
  return params.domain ?? params.slug ?? currentCompany() ?? settings.data?.default_company_slug;
}

function Navbar() {
  const { t, i18n } = useTranslation();
  const { user, role, isAuthenticated, logout } = useAuth();
  const slug = useCompanySlug();
  const company = useCompany(slug);
  const home = slug ? `/${slug}` : '/';
  const ownSlug = user?.company ?? slug;

  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Anchor component={Link} to={home} className={classes.brand} aria-label={t('nav.home')}>
          {company.data?.logo_url ? (
            <Image
              src={company.data.logo_url}
              alt={company.data.name}
              h={IMAGE_SIZES.small}
              w="auto"
              fit="contain"
            />
          ) : (
            <Text fw={800} size="xl" c="sesame.8">
              Sésame
            </Text>
          )}
          {company.data && (
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
          <SegmentedControl
            size="xs"
            value={i18n.language.startsWith('en') ? 'en' : 'fr'}
            onChange={(lng) => void i18n.changeLanguage(lng)}
            data={[
              { value: 'fr', label: 'FR' },
              { value: 'en', label: 'EN' },
            ]}
            aria-label={t('nav.language')}
          />
          {isAuthenticated && ownSlug && (
            <Anchor
              component={Link}
              to={`/${ownSlug}/my-mail-settings`}
              size="sm"
              visibleFrom="sm"
              data-testid="mail-settings-link"
            >
              {t('hostLoop:preferences.title')}
            </Anchor>
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

export function AppLayout() {
  const { t } = useTranslation();
  return (
    <div className={classes.page}>
      <Navbar />
      <Box component="main" className={classes.main}>
        <Suspense
          fallback={
            <Center py="xl">
              <Loader aria-label={t('loading')} />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </Box>
      <Box component="footer" className={classes.footer}>
        <Text size="sm" c="dimmed" ta="center">
          {t('footer.copyright', { year: new Date().getFullYear() })}
        </Text>
      </Box>
    </div>
  );
}
