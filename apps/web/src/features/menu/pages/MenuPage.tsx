import { Card, Container, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link, Navigate, useParams } from 'react-router';
import { menuTilesFor } from '@sesame/shared';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageTitle } from '../../../components/PageTitle';
import { reachesUrlCompany } from '../../../components/RequireAuth';
import { useAuth } from '../../../lib/auth';
import classes from './MenuPage.module.css';
import '@mantine/core/styles/SimpleGrid.css';

/** Spec §2 Menu: the tiles of the user's active role (spec §6). */
export default function MenuPage() {
  const { t } = useTranslation('menu');
  const { domain = '' } = useParams();
  const { role, isAuthenticated, user } = useAuth();

  if (!isAuthenticated || !role) return <Navigate to={`/${domain}/request-meeting`} replace />;
  // Another company's menu: its tiles would lead only to 'Page introuvable' (RequireAuth).
  if (!reachesUrlCompany(role, user?.company, domain)) return <NotFoundPage />;
  const slug = domain || user?.company || '';
  const tiles = menuTilesFor(role);

  return (
    <Container size="lg">
      <PageTitle>{t('title')}</PageTitle>
      {tiles.length === 0 ? (
        <Text c="dimmed">{t('noTiles')}</Text>
      ) : (
        <SimpleGrid
          cols={{ base: 2, sm: 3, md: 4 }}
          spacing="md"
          component="nav"
          aria-label={t('title')}
        >
          {tiles.map((tile) => (
            <Card
              key={tile.id}
              component={Link}
              to={`/${slug}/${tile.path}`}
              withBorder
              radius="lg"
              padding="lg"
              className={classes.tile}
              data-tile={tile.id}
            >
              <Text fw={600} ta="center">
                {t(`tiles.${tile.id}`)}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Container>
  );
}
