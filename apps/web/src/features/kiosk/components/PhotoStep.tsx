/**
 * The walk-in's photo, when the kiosk asks for one: the tablet's front camera, "Prendre la
 * photo" draws the frame to a canvas and keeps it as a JPEG data URL of at most
 * KIOSK_LIMITS.photoMaxBytes; "Reprendre la photo" starts again. Nothing is stored: the photo
 * lives in this visit's state until it is sent with the walk-in.
 */
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { Alert, Button, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { KIOSK_LIMITS } from '@sesame/shared';
import { cameraVideoStyle, playCamera, stopCamera } from '../../../lib/camera';
import { useTranslation } from '../../../lib/i18n';
import { firstThatFits, fitWithin } from '../lib/photo';

const MAX_SIDE = 720;

export function PhotoStep({
  photo,
  onPhoto,
  onUnavailable,
}: {
  photo: string | null;
  onPhoto: (dataUrl: string | null) => void;
  onUnavailable: () => void;
}) {
  const { t } = useTranslation('kiosk');
  const videoRef = useRef<HTMLVideoElement>(null);
  const [noCamera, setNoCamera] = useState(false);
  const [tooLarge, setTooLarge] = useState(false);
  const [ready, setReady] = useState(false);
  const unavailable = useEffectEvent(onUnavailable);

  useEffect(() => {
    if (photo) return;
    let stopped = false;
    let stream: MediaStream | undefined;
    void (async () => {
      try {
        const camera = await playCamera(
          { facing: 'user', width: 960, height: 720 },
          () => videoRef.current,
          () => stopped,
        );
        if (!camera) return;
        stream = camera.stream;
        if (camera.video) setReady(true);
      } catch {
        if (!stopped) {
          setNoCamera(true);
          unavailable();
        }
      }
    })();
    return () => {
      stopped = true;
      setReady(false);
      stopCamera(stream);
    };
  }, [photo]);

  const take = () => {
    const video = videoRef.current;
    if (!video || !video.videoWidth) return;
    const size = fitWithin(video.videoWidth, video.videoHeight, MAX_SIDE);
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return;
    // As the visitor saw it (the preview is a mirror).
    context.translate(size.width, 0);
    context.scale(-1, 1);
    context.drawImage(video, 0, 0, size.width, size.height);
    const dataUrl = firstThatFits(
      (quality) => canvas.toDataURL('image/jpeg', quality),
      KIOSK_LIMITS.photoMaxBytes,
    );
    setTooLarge(!dataUrl);
    if (dataUrl) onPhoto(dataUrl);
  };

  if (noCamera) {
    return (
      <Alert color="orange" variant="light" role="alert">
        {t('photo.noCamera')}
      </Alert>
    );
  }
  return (
    <Stack gap="md" align="center">
      <Text size="lg">{t('photo.intro')}</Text>
      <Paper
        withBorder
        radius="md"
        p={0}
        style={{ overflow: 'hidden', background: '#000', width: 'min(100%, 420px)' }}
      >
        {photo ? (
          <Image
            src={photo}
            alt={t('photo.preview')}
            style={{ aspectRatio: '4 / 3' }}
            fit="cover"
          />
        ) : (
          <video
            ref={videoRef}
            muted
            playsInline
            aria-label={t('photo.video')}
            style={cameraVideoStyle({ mirrored: true })}
          />
        )}
      </Paper>
      {tooLarge && (
        <Text c="red.8" role="alert">
          {t('photo.tooLarge')}
        </Text>
      )}
      <Group justify="center">
        {photo ? (
          <Button size="xl" variant="default" onClick={() => onPhoto(null)}>
            {t('photo.retake')}
          </Button>
        ) : (
          <Button size="xl" onClick={take} disabled={!ready}>
            {t('photo.take')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
