/**
 * The four thank-you pages (spec §2): `/success-checkin/{uidn}`,
 * `/success-checkout/{uidn}`, `/success-user-checkin/{uidn}` and
 * `/success-user-checkout/{uidn}`. The person's photo shows to signed-in staff of
 * the company only; 'Return to Home' shows only when signed in. The page reads the
 * latest check alone (the server gives anyone holding the code no more than that).
 */
import {
  Image,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IMAGE_SIZES } from '@sesame/shared';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useLocation, useParams } from 'react-router';
import { useAuth } from '../../../lib/auth';
import { formatTime } from '../../../lib/format';
import { useRecordCompany } from '../../../lib/shown-company';
import { usePresence, type CodeKind } from '../api/checks';
import checkinsWords from '../../../locales/fr/checkins.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ checkins: checkinsWords });

export default function ThankYouPage() {
  const { uidn = '' } = useParams();
  const { pathname } = useLocation();
  const kind: CodeKind = pathname.startsWith('/success-user-') ? 'user' : 'visitor';
  const leaving = pathname.includes('checkout');
  const { t } = useTranslation('checkins');
  const { user } = useAuth();
  const presence = usePresence(kind, uidn);
  // No company in these URLs: the navbar shows the person's company, not the last one visited.
  useRecordCompany(presence.data?.company.slug);
  const latest = presence.data?.checks[0];
  const at = leaving ? latest?.check_out_time : latest?.check_in_time;
  const name = presence.data ? `${presence.data.firstname} ${presence.data.lastname}`.trim() : '';

  return (
    <Container size="xs" py="xl">
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="md">
          {presence.isPending ? (
            <Center>
              <Loader aria-label={t('common:loading')} />
            </Center>
          ) : (
            presence.data?.image && (
              // Staff only (the server sends it to them alone): the identity document or
              // photo large enough to compare with the face in front of the desk.
              <Image
                src={presence.data.image}
                alt={t('thanks.photoOf', { name })}
                maw={IMAGE_SIZES.scanResult}
                mah={IMAGE_SIZES.scanResult}
                fit="contain"
                radius="md"
              />
            )
          )}
          <Title order={1} size="h2" ta="center">
            {t('thanks.title')}
          </Title>
          {name && (
            <Text size="lg" ta="center" fw={500}>
              {t(leaving ? 'thanks.goodbye' : 'thanks.welcome', { name })}
            </Text>
          )}
          {at && (
            <Text c="dimmed" ta="center">
              {t(leaving ? 'thanks.leftAt' : 'thanks.arrivedAt', { time: formatTime(at) })}
            </Text>
          )}
          {presence.data && (
            <Text size="sm" c="dimmed" ta="center">
              {presence.data.company.name}
            </Text>
          )}
          {user && (
            <Group justify="center" mt="sm">
              <Button component={Link} to={`/${user.company}/camera`}>
                {t('scan.scanAnother')}
              </Button>
              <Button component={Link} to={`/${user.company}`} variant="default">
                {t('thanks.home')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
