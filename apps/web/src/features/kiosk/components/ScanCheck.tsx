/**
 * "Scanner mon code" / "Scanner mon badge": the camera reads the visitor's code and the kiosk
 * checks them in or out with it. Without the network (or with the server out) the scan is
 * kept — its code and Idempotency-Key only — and sent once the network is back.
 */
import { lazy, Suspense, useState } from 'react';
import { Alert, Center, Loader, Stack } from '@mantine/core';
import type { DocumentToSign, KioskCheckAnswer, SignatureInput } from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { LazySignDocuments } from '../../../components/signing/LazySignDocuments';
import { kioskApi, KioskApiError, statusOf } from '../api';
import {
  isRetryableStatus,
  newIdempotencyKey,
  type KioskCheckKind,
  type PendingKioskScan,
} from '../lib/offline-queue';

// The camera's decoders (jsQR) load with the scanner, not with the kiosk's first screen.
const Scanner = lazy(() => import('./Scanner').then((m) => ({ default: m.Scanner })));

export function ScanCheck({
  kind,
  onChecked,
  onQueued,
}: {
  kind: KioskCheckKind;
  onChecked: (check: KioskCheckAnswer) => void;
  onQueued: (scan: PendingKioskScan) => void;
}) {
  const { t } = useTranslation('kiosk');
  const [attempt, setAttempt] = useState(0);
  const [refused, setRefused] = useState<string | null>(null);

  /** Issue 31: the scanned visit's documents still to sign, before its check-in. */
  const [signing, setSigning] = useState<{ code: string; documents: DocumentToSign[] } | null>(
    null,
  );

  const handle = async (code: string, signatures?: SignatureInput[]) => {
    const key = newIdempotencyKey();
    try {
      if (kind === 'check-in' && !signatures) {
        const documents = await kioskApi.toSign({ code });
        if (documents.length) {
          setSigning({ code, documents });
          return;
        }
      }
      onChecked(await kioskApi.check(kind, { code }, key, signatures));
    } catch (error) {
      if (isRetryableStatus(statusOf(error))) {
        onQueued({ key, kind, code, at: Date.now() });
        return;
      }
      setRefused((error instanceof KioskApiError && error.serverMessage) || t('failed'));
      setSigning(null);
      // The camera again, for another try.
      setAttempt((n) => n + 1);
    }
  };

  if (signing) {
    return (
      <LazySignDocuments
        documents={signing.documents}
        size="xl"
        loadingLabel={t('loading')}
        onSigned={(signatures) => {
          if (signatures) void handle(signing.code, signatures);
        }}
      />
    );
  }

  return (
    <Stack gap="md">
      {refused && (
        <Alert color="red" variant="light" role="alert">
          {refused}
        </Alert>
      )}
      <Suspense
        fallback={
          <Center py="xl">
            <Loader aria-label={t('loading')} />
          </Center>
        }
      >
        <Scanner key={attempt} onCode={(code) => void handle(code)} />
      </Suspense>
    </Stack>
  );
}
