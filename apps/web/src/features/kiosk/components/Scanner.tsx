/**
 * The tablet's camera reading a QR code (the mail's or the badge's): the desk scanner's
 * decoder (BarcodeDetector, else jsQR), on the device only. `onCode` gets the visitor's code
 * once; a QR that is not a Sésame visit code is said plainly and the camera keeps looking.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Alert, Paper, Stack, Text } from '@mantine/core';
import { SCANNER } from '@sesame/shared';
import { cameraVideoStyle, playCamera, stopCamera } from '../../../lib/camera';
import { useTranslation } from '../../../lib/i18n';
import { createDecoder } from '../../../lib/qr-decoder';
import { createFrameGate } from '../../../lib/frame-gate';
import { visitorCodeOf } from '../lib/scanned-code';

export function Scanner({ onCode }: { onCode: (code: string) => void }) {
  const { t } = useTranslation('kiosk');
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [noCamera, setNoCamera] = useState(false);
  const [notOurs, setNotOurs] = useState(false);
  const handled = useEffectEvent(onCode);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | undefined;
    let timer = 0;
    let busy = false;
    let done = false;
    const gate = createFrameGate(SCANNER.goneAfterFrames);
    const start = async () => {
      try {
        const decode = await createDecoder();
        const camera = await playCamera(
          { facing: 'user', width: SCANNER.width, height: SCANNER.height },
          () => videoRef.current,
          () => stopped,
        );
        if (!camera) return;
        stream = camera.stream;
        const { video } = camera;
        timer = window.setInterval(() => {
          const canvas = canvasRef.current;
          if (stopped || busy || done || !video || !canvas) return;
          if (video.readyState < video.HAVE_CURRENT_DATA) return;
          busy = true;
          canvas.getContext('2d')?.drawImage(video, 0, 0, SCANNER.width, SCANNER.height);
          void decode(canvas)
            .then((value) => {
              if (stopped || done || !gate.next(value) || !value) return;
              const code = visitorCodeOf(value);
              if (!code) {
                setNotOurs(true);
                return;
              }
              done = true;
              handled(code);
            })
            .catch(() => undefined)
            .finally(() => {
              busy = false;
            });
        }, SCANNER.intervalMs);
      } catch {
        if (!stopped) setNoCamera(true);
      }
    };
    void start();
    return () => {
      stopped = true;
      window.clearInterval(timer);
      stopCamera(stream);
    };
  }, []);

  return (
    <Stack gap="md">
      {noCamera ? (
        <Alert color="orange" variant="light" role="alert">
          {t('scanner.noCamera')}
        </Alert>
      ) : (
        <>
          <Text size="lg">{t('scanner.hint')}</Text>
          <Paper withBorder radius="md" p={0} style={{ overflow: 'hidden', background: '#000' }}>
            <video
              ref={videoRef}
              muted
              playsInline
              aria-label={t('scanner.video')}
              style={cameraVideoStyle({ mirrored: true, maxHeight: '50vh' })}
            />
          </Paper>
        </>
      )}
      <canvas ref={canvasRef} width={SCANNER.width} height={SCANNER.height} hidden />
      <div role="status" aria-live="polite">
        {notOurs && (
          <Text c="red.8" fw={600}>
            {t('scanner.notOurs')}
          </Text>
        )}
      </div>
    </Stack>
  );
}
