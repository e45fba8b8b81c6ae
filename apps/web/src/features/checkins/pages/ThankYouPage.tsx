/**
 * The four thank-you pages (spec §2): `/success-checkin/{uidn}`,
 * `/success-checkout/{uidn}`, `/success-user-checkin/{uidn}` and
 * `/success-user-checkout/{uidn}`. The person's photo shows to signed-in staff of
 * the company only; 'Return to Home' shows only when signed in. The page reads the
 * latest check alone (the server gives anyone holding the code no more than that), and
 * says what it holds whatever the address says (issue 27): a goodbye only to someone who
 * left, a welcome to someone inside, a neutral sentence to a code with no visit.
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
import { presenceShown } from '../api/presence-shown';
import { ApiError } from '../../../lib/api-client';
import checkinsWords from '../../../locales/fr/checkins.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ checkins: checkinsWords });

export default function ThankYouPage() {
  const { uidn = '' } = useParams();
  const { pathname } = useLocation();
  const kind: CodeKind = pathname.startsWith('/success-user-') ? 'user' : 'visitor';
  const { t } = useTranslation('checkins');
  const { user } = useAuth();
  const presence = usePresence(kind, uidn);
  // No company in these URLs: the navbar shows the person's company, not the last one visited.
  useRecordCompany(presence.data?.company.slug);
  const shown = presenceShown(presence.data?.checks[0]);
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
          {presence.isError && (
            // The screen's own words: the server's would stay in the language of the first load.
            <Text role="alert" c="red.8" ta="center">
              {presence.error instanceof ApiError && presence.error.status === 404
                ? t('thanks.unknownCode')
                : t('thanks.loadFailed')}
            </Text>
          )}
          {presence.data && (
            <>
              <Title order={1} size="h2" ta="center">
                {shown.state === 'inside'
                  ? t('thanks.arrivalTitle', { name })
                  : shown.state === 'left'
                    ? t('thanks.title')
                    : t('thanks.noVisitTitle')}
              </Title>
              <Text size="lg" ta="center" fw={500}>
                {shown.state === 'left'
                  ? t('thanks.goodbye', { name })
                  : shown.state === 'inside'
                    ? t('thanks.arrivedAt', { time: formatTime(shown.at) })
                    : t('thanks.noVisit', { name })}
              </Text>
              {shown.state === 'left' && (
                <Text c="dimmed" ta="center">
                  {t('thanks.leftAt', { time: formatTime(shown.at) })}
                </Text>
              )}
            </>
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
