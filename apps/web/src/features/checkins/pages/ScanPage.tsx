/**
 * `/scan/{uidn}` and `/scan-user-qrcode/{uidn}`: what a phone's camera app opens
 * from a QR code. A signed-in receptionist's scan checks the holder in or out and
 * goes on to the thank-you page; a repeat inside the window says when the person
 * was already checked; a refusal says why. Without a session: a visitor's code opens
 * their card (the visitor scanned their own QR), a QR user's the login, and back here after it.
 */
import { useEffect, useRef } from 'react';
import { Alert, Button, Center, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { api } from '../../../lib/api-client';
import { hasSessionToken } from '../../../lib/session';
import { useListSite } from '../../../lib/list-site';
import { checkCode, type CodeKind } from '../api/checks';
import { scanFailureText } from '../lib/messages';
import { isRetryable, keepScan, newScanKey, usePendingScans } from '../lib/scan-queue';
import checkinsWords from '../../../locales/fr/checkins.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ checkins: checkinsWords });

export default function ScanPage() {
  const { uidn = '' } = useParams();
  const { pathname } = useLocation();
  const kind: CodeKind = pathname.startsWith('/scan-user-qrcode/') ? 'user' : 'visitor';
  const { t } = useTranslation('checkins');
  const { user } = useAuth();
  const navigate = useNavigate();
  // One key per scan: a retry from the offline queue is recognised by the server.
  const key = useRef(newScanKey());
  // The desk's site (issue 28): the header's choice on this device.
  const { site, isLoading: siteLoading } = useListSite();
  const check = useMutation({
    mutationFn: () => checkCode(kind, uidn, false, key.current, site),
  });
  const kept = check.isError && isRetryable(check.error);
  const pending = usePendingScans();
  // One check per visit of the page, even when React runs effects twice.
  const asked = useRef(false);

  useEffect(() => {
    // A signed-in desk's check waits for its site (the header's choice) to be known.
    if (asked.current || (hasSessionToken() && siteLoading)) return;
    asked.current = true;
    if (!hasSessionToken()) {
      const toLogin = () => {
        notifications.show({ message: t('scan.loginRequired'), color: 'yellow' });
        void navigate('/sign-in', { replace: true, state: { from: pathname } });
      };
      if (kind !== 'visitor') return toLogin();
      // A visitor scanning their own QR lands on their card (issue 15); the card offers
      // the front desk's sign-in, which comes back here to record the arrival.
      api
        .get<{ data: { company: { slug: string } } }>(`/visitor/card/${encodeURIComponent(uidn)}`)
        .then(({ data }) =>
          navigate(`/company/${data.company.slug}/meeting-request-qr/${uidn}`, {
            replace: true,
            state: { scanFrom: pathname },
          }),
        )
        .catch(toLogin);
      return;
    }
    check.mutate(undefined, {
      onSuccess: (result) => {
        if (result.redirectUrl) void navigate(result.redirectUrl, { replace: true });
      },
      onError: (error) => {
        // The server did not decide (network, database out): keep the scan and send it later.
        if (isRetryable(error))
          keepScan({ key: key.current, kind, uidn, manual: false, site, at: Date.now() });
      },
    });
  }, [check, kind, navigate, pathname, t, uidn, site, siteLoading]);

  const home = user ? `/${user.company}` : '/';
  return (
    <Container size="xs" py="xl">
      <PageTitle ta="center">{t('scan.title')}</PageTitle>
      {kept ? (
        <Alert color="yellow" role="alert" title={t('queue.keptTitle')}>
          {t('queue.kept')}
        </Alert>
      ) : check.isError ? (
        <Alert color="red" role="alert" title={t('scan.invalid')}>
          {scanFailureText(check.error, t)}
        </Alert>
      ) : check.data?.status === 'repeat' ? (
        <Alert color="yellow" role="alert" title={t('scan.repeatTitle')}>
          {check.data.message}
        </Alert>
      ) : (
        <Center py="xl">
          <Loader aria-label={t('scan.checking')} />
        </Center>
      )}
      {pending > 0 && (
        <Text ta="center" size="sm" c="dimmed" mt="sm" role="status">
          {t('queue.pending', { count: pending })}
        </Text>
      )}
      {(check.isError || check.data?.status === 'repeat') && (
        <Stack mt="lg">
          <Group justify="center">
            {user && (
              <Button component={Link} to={`/${user.company}/camera`}>
                {t('scan.scanAnother')}
              </Button>
            )}
            <Button component={Link} to={home} variant="default">
              {t('thanks.home')}
            </Button>
          </Group>
        </Stack>
      )}
    </Container>
  );
}
