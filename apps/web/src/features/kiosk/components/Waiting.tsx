/**
 * A walk-in waits for their host (issue 29): the kiosk says who was told and asks the server
 * every 2 s, up to the kiosk's wait. Accepted: the visitor is checked in and the badge prints.
 * Declined, or no answer in time: the front desk has been told (the request stays in the live
 * request list), and the kiosk goes back to its welcome screen.
 */
import { useEffect, useEffectEvent, useState } from 'react';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import type { KioskCheckAnswer } from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { kioskApi } from '../api';
import { newIdempotencyKey } from '../lib/offline-queue';

export const POLL_MS = 2000;
const BACK_AFTER_MS = 15_000;

export function Waiting({
  requestId,
  told,
  waitSeconds,
  onAccepted,
  onGiveUp,
}: {
  requestId: string;
  told: string | null;
  waitSeconds: number;
  onAccepted: (check: KioskCheckAnswer) => void;
  onGiveUp: () => void;
}) {
  const { t } = useTranslation('kiosk');
  const [ended, setEnded] = useState<'declined' | 'timeout' | null>(null);
  const accepted = useEffectEvent(onAccepted);
  const giveUp = useEffectEvent(onGiveUp);

  useEffect(() => {
    let stopped = false;
    let timer = 0;
    const deadline = Date.now() + waitSeconds * 1000;
    const key = newIdempotencyKey();
    const poll = async () => {
      if (stopped) return;
      try {
        const status = await kioskApi.walkInStatus(requestId);
        if (stopped) return;
        if (status === 'accepted') {
          accepted(await kioskApi.check('check-in', { request_id: requestId }, key));
          return;
        }
        if (status === 'declined') {
          setEnded('declined');
          return;
        }
      } catch {
        // The network or the server for a moment: asked again at the next turn.
      }
      if (stopped) return;
      if (Date.now() >= deadline) {
        // The front desk is sent the request now; said told even if this call fails, as
        // the request stays in the front desk's live request list either way.
        await kioskApi.tellFrontDesk(requestId).catch(() => undefined);
        if (!stopped) setEnded('timeout');
      } else timer = window.setTimeout(() => void poll(), POLL_MS);
    };
    timer = window.setTimeout(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [requestId, waitSeconds]);

  useEffect(() => {
    if (!ended) return;
    const timer = window.setTimeout(() => giveUp(), BACK_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [ended]);

  return (
    <Stack gap="lg" data-testid="kiosk-waiting">
      <Text size="xl" fw={600}>
        {told ? t('waiting.toldHost', { host: told }) : t('waiting.toldDesk')}
      </Text>
      <div role="status" aria-live="polite">
        {ended ? (
          <Alert color="blue" variant="light">
            {ended === 'declined' ? t('waiting.declined') : t('waiting.timeout')}
          </Alert>
        ) : (
          <Stack gap="sm" align="center">
            <Loader size="lg" aria-hidden />
            <Text size="lg">{t('waiting.wait')}</Text>
          </Stack>
        )}
      </div>
      {ended && (
        <Button size="xl" onClick={onGiveUp}>
          {t('home')}
        </Button>
      )}
    </Stack>
  );
}
