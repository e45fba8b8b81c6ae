/**
 * 'Liste des demandes' (`/{domain}/list-qrcode`). Live (issue 14): a request filed
 * anywhere appears without a reload, with a visible and an audible cue (a short tone
 * made by Web Audio, which the mute switch turns off; the choice is remembered).
 */
import { useState } from 'react';
import { Alert, Badge, Container, Group, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { mayPerform } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { playChime, useLiveFeed, useThrottledInvalidate } from '../../../lib/live';
import { useListSite } from '../../../lib/list-site';
import { RequestTable } from '../components/RequestTable';
import '@mantine/core/styles/Switch.css';

const MUTE_KEY = 'sesame.requests.muted';

export default function RequestListPage() {
  const { domain = '' } = useParams();
  const { t } = useTranslation('requests');
  const { user, role } = useAuth();
  const allowed = !!user && !!role && mayPerform(role, 'requests.list');
  const [muted, setMuted] = useState(() => localStorage.getItem(MUTE_KEY) === '1');
  const refresh = useThrottledInvalidate([['requests']]);
  // The header's site (issue 28): that site's requests only, as the list shows.
  const { site: siteId } = useListSite();
  const live = useLiveFeed({
    enabled: allowed,
    site: siteId,
    onResync: refresh,
    onEvent: (event) => {
      if (event.type !== 'request') return;
      refresh();
      if (event.op !== 'created') return;
      notifications.show({
        id: `request-${event.request_id}`,
        title: t('live.newRequestTitle'),
        message: t('live.newRequest'),
        color: 'blue',
        autoClose: 6000,
      });
      if (!muted) playChime();
    },
  });

  return (
    <Container size="xl" py="lg">
      <Group justify="space-between" align="center" mb="md">
        <PageTitle mb={0}>{t('title')}</PageTitle>
        {allowed && (
          <Group gap="md">
            <Badge
              color={live === 'live' ? 'green.9' : live === 'interrupted' ? 'red.9' : 'gray.7'}
              variant="filled"
              role="status"
              data-live={live}
            >
              {t(`live.status.${live}`)}
            </Badge>
            <Switch
              checked={!muted}
              onChange={(e) => {
                const next = !e.currentTarget.checked;
                setMuted(next);
                localStorage.setItem(MUTE_KEY, next ? '1' : '0');
              }}
              label={muted ? t('live.muted') : t('live.sound')}
              aria-label={muted ? t('live.unmute') : t('live.mute')}
              size="md"
            />
          </Group>
        )}
      </Group>
      {allowed ? (
        <RequestTable domain={domain} role={role} userCompany={user.company} />
      ) : (
        <Alert color="red" role="alert">
          {t('forbidden')}
        </Alert>
      )}
    </Container>
  );
}
