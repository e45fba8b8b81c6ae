/**
 * The end of a visitor's turn: arrived (the badge printing, then "Badge imprimé", or why not,
 * plainly) or left; then back to the welcome screen by itself after a few seconds, or at
 * "Terminer".
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { printBadge, type PrintResult } from '../lib/print';
import type { KioskCheckKind } from '../lib/offline-queue';

export interface Outcome {
  kind: KioskCheckKind;
  /** The server's words ("Bienvenue, Awa ! …"), in the visitor's language. */
  message?: string;
  /** Sent when the network is back: nothing printed now. */
  queued?: boolean;
  /** The visit to print a badge for (a check-in done now, on a kiosk that prints). */
  printFor?: string;
}

const BACK_AFTER_MS = 12_000;

export function Done({
  outcome,
  serverPrints,
  onFinish,
}: {
  outcome: Outcome;
  serverPrints: boolean;
  onFinish: () => void;
}) {
  const { t } = useTranslation('kiosk');
  const [print, setPrint] = useState<PrintResult | 'printing' | null>(
    outcome.printFor ? 'printing' : null,
  );
  const started = useRef(false);
  const finish = useEffectEvent(onFinish);

  useEffect(() => {
    if (!outcome.printFor || started.current) return;
    started.current = true;
    void printBadge(outcome.printFor, serverPrints).then(setPrint);
  }, [outcome.printFor, serverPrints]);

  useEffect(() => {
    if (print === 'printing') return;
    const timer = window.setTimeout(() => finish(), BACK_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, [print]);

  return (
    <Stack gap="lg" data-testid="kiosk-done">
      {outcome.message && (
        <Text size="xl" fw={600}>
          {outcome.message}
        </Text>
      )}
      {outcome.queued && (
        <Alert color="orange" variant="light">
          {outcome.kind === 'check-in' ? t('done.queuedIn') : t('done.queuedOut')}
        </Alert>
      )}
      <div role="status" aria-live="polite">
        {print === 'printing' && (
          <Stack gap="xs" align="center">
            <Loader aria-hidden />
            <Text size="lg">{t('done.printing')}</Text>
          </Stack>
        )}
        {print && print !== 'printing' && print.printed && (
          <Alert color="teal" variant="light" title={t('done.printed')}>
            {t('done.takeBadge')}
          </Alert>
        )}
        {print && print !== 'printing' && !print.printed && (
          <Alert color="red" variant="light">
            {print.reason
              ? t('done.printFailed', { reason: print.reason })
              : t('done.printFailedPlain')}
          </Alert>
        )}
      </div>
      <Button size="xl" onClick={onFinish} disabled={print === 'printing'}>
        {t('done.finish')}
      </Button>
    </Stack>
  );
}
