/**
 * QR user details (spec §2 `/qr-details`): name, email, contact, title, QR image
 * and uidn. The row comes from the list's navigation state for an instant
 * display, and the id in the query string is fetched, so the page also works
 * opened directly or reloaded. A lost card can be re-issued from here.
 */
import {
  Alert,
  Anchor,
  Button,
  Center,
  Container,
  Group,
  Loader,
  Stack,
  Text,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { mayPerform, type QrUserCard } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { PersonRights } from '../../../components/PersonRights';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { keepCameFrom } from '../../../lib/came-from';
import { useQrUser, useReissue } from '../api/qr-users';
import { MemberBadge } from '../components/MemberCard';
import { QrUserCardWithCapture } from '../components/QrUserCard';
import { displayName } from '../lib/names';
import { detailsPath, expiryPath } from '../lib/paths';

export default function QrDetailsPage() {
  const { t } = useTranslation('qrUsers');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { user, role } = useAuth();
  const fromState = (location.state as { qrUser?: QrUserCard } | null)?.qrUser;
  const id = params.get('id') ?? fromState?.id ?? '';
  const query = useQrUser(id, fromState);
  const reissue = useReissue();
  const domain = user?.company ?? query.data?.company.slug ?? '';

  const content = () => {
    // A malformed id (400) names no card, like an unknown one (404).
    const unknown =
      query.isError &&
      query.error instanceof ApiError &&
      (query.error.status === 404 || query.error.status === 400);
    if (!id || unknown) {
      return (
        <Alert color="red" role="alert">
          {t('details.notFound')}
        </Alert>
      );
    }
    if (query.isError) {
      return (
        <Alert color="red" role="alert">
          {t('details.failed')}
        </Alert>
      );
    }
    if (!query.data) {
      return (
        <Center py="xl">
          <Loader aria-label={t('card.capturing')} />
        </Center>
      );
    }
    const card = query.data;
    const name = displayName(card) || card.uidn;
    const mayReissue =
      !!role &&
      !card.revoked &&
      mayPerform(role, card.kind === 'member' ? 'members.create' : 'qrUsers.create');
    const mayEditExpiry =
      !!role &&
      !card.revoked &&
      (mayPerform(role, 'qrUsers.updateExpiry') || mayPerform(role, 'qrUsers.create'));

    const confirmReissue = () =>
      modals.openConfirmModal({
        title: t('details.reissueTitle'),
        children: <Text size="sm">{t('details.reissueBody', { name })}</Text>,
        labels: { confirm: t('details.reissueConfirm'), cancel: t('details.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () => {
          reissue
            .mutateAsync(card.id)
            .then((answer) => {
              notifications.show({ color: 'teal', message: t('details.reissued') });
              void navigate(detailsPath(answer.data.id), {
                state: { qrUser: answer.data, ...keepCameFrom(location.state) },
                replace: true,
              });
            })
            .catch((error: unknown) => {
              notifications.show({
                color: 'red',
                message: error instanceof ApiError ? error.message : t('details.failed'),
              });
            });
        },
      });

    return (
      <Stack gap="lg" align="center">
        {card.revoked && (
          <Alert color="orange" role="status" w="100%">
            {t('details.replaced')}{' '}
            {card.replaced_by && (
              <Anchor
                component={Link}
                to={detailsPath(card.replaced_by)}
                state={keepCameFrom(location.state)}
              >
                {t('details.openReplacement')}
              </Anchor>
            )}
          </Alert>
        )}
        {card.kind === 'member' ? (
          <MemberBadge data={card} domain={card.company.slug} />
        ) : (
          <QrUserCardWithCapture card={card} domain={card.company.slug} />
        )}
        <Group justify="center" gap="sm">
          {mayEditExpiry && (
            <Button component={Link} to={expiryPath(domain, card.id)} variant="light">
              {t('details.editExpiry')}
            </Button>
          )}
          {mayReissue && (
            <Button
              variant="outline"
              color="red"
              onClick={confirmReissue}
              loading={reissue.isPending}
            >
              {t('details.reissue')}
            </Button>
          )}
        </Group>
        <PersonRights
          kind="qr_user"
          personKey={card.id}
          listPath={
            card.kind === 'member'
              ? `/company/${card.company.slug}/members`
              : `/${domain || card.company.slug}/qr-code-list`
          }
        />
      </Stack>
    );
  };

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('details.title')}</PageTitle>
      {content()}
      {domain && role && mayPerform(role, 'qrUsers.list') && (
        <Group justify="center" mt="lg">
          <Anchor component={Link} to={`/${domain}/qr-code-list`}>
            {t('details.back')}
          </Anchor>
        </Group>
      )}
    </Container>
  );
}
