/**
 * A visit the watchlist holds (issue 31): the kiosk says only "Merci, quelqu'un va venir vous
 * accueillir." — never why, nothing else on the screen — then goes back to its welcome
 * screen by itself. Security has been told; nobody is checked in.
 */
import { useEffect, useEffectEvent } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';

const BACK_AFTER_MS = 10_000;

export function Held({ onFinish }: { onFinish: () => void }) {
  const { t } = useTranslation('kiosk');
  const finish = useEffectEvent(onFinish);
  useEffect(() => {
    const timer = window.setTimeout(() => finish(), BACK_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Text size="xl" fw={600} role="status" data-testid="kiosk-held">
      {t('held')}
    </Text>
  );
}
