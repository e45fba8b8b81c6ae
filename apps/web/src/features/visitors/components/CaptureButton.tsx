import { useState, type RefObject } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { downloadNodeAsPng } from '../../../lib/capture';

/** The spec's capture name of a meeting card: meeting-{company}-{code}.png. */
export function meetingCaptureName(companySlug: string, uidn: string): string {
  return `meeting-${companySlug}-${uidn}.png`;
}

export function CaptureButton({
  target,
  filename,
}: {
  target: RefObject<HTMLElement | null>;
  filename: string;
}) {
  const { t } = useTranslation('visitors');
  const [busy, setBusy] = useState(false);
  const capture = async () => {
    if (!target.current) return;
    setBusy(true);
    try {
      await downloadNodeAsPng(target.current, filename);
    } catch {
      notifications.show({ color: 'red', message: t('card.captureFailed') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="light" onClick={() => void capture()} loading={busy}>
      {t('card.capture')}
    </Button>
  );
}
