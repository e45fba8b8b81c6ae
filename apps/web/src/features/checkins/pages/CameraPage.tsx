/**
 * 'Login with QR Code' (spec §2, §4, §9): the in-app scanner. The rear camera
 * fills a 640×480 canvas checked every 500 ms. A code of this application (a
 * visitor's or member's scan link) opens its scan page; an e-mail-shaped code is
 * the kiosk presence of ARCHITECTURE §6 — it checks that member in, the same code
 * again checks them out, and never signs anyone into the application. An e-mail
 * is no secret: every e-mail check shows the person's photo next to the result,
 * for the agent to compare with the face.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Avatar, Badge, Button, Container, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link, useNavigate, useParams } from 'react-router';
import { IMAGE_SIZES, SCANNER } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { checkByEmail } from '../api/checks';
import { cameraVideoStyle, playCamera, stopCamera } from '../../../lib/camera';
import { useListSite } from '../../../lib/list-site';
import { createDecoder, type FrameDecoder } from '../../../lib/qr-decoder';
import { createFrameGate } from '../../../lib/frame-gate';
import { scanFailureText } from '../lib/messages';
import { readScanned } from '../lib/scanned';
import { usePendingScans } from '../lib/scan-queue';

/** The kiosk's present member survives a reload of the scanner, not the tab. */
const KIOSK_KEY = 'kioskPresence';

type Feedback = { tone: 'success' | 'info' | 'error'; text: string } | null;
const TONE_COLORS = { success: 'teal', info: 'blue', error: 'red' } as const;

/** Who an e-mail check was about: their name and photo (a URL signed for this session). */
type KioskPerson = { name: string; photo: string | null } | null;

export default function CameraPage() {
  const { domain = '' } = useParams();
  const { t } = useTranslation('checkins');
  const navigate = useNavigate();
  // The desk's site (issue 28): the header's choice, sent with each check.
  const { site } = useListSite();
  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const lockedUntil = useRef(0);
  const busy = useRef(false);
  // The code in front of the camera, read once: a badge left there is not posted again
  // until it has left the frame.
  const inFrame = useRef(createFrameGate(SCANNER.goneAfterFrames));
  const [cameraError, setCameraError] = useState(false);
  const [detecting, setDetecting] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [person, setPerson] = useState<KioskPerson>(null);
  const [kioskEmail, setKioskEmail] = useState<string | null>(() =>
    sessionStorage.getItem(KIOSK_KEY),
  );

  // Scans kept while the server could not take them go out from here too.
  const pending = usePendingScans();

  // A result stays a few seconds, then the scanner says it is ready for the next person.
  useEffect(() => {
    if (!feedback) return;
    const timer = window.setTimeout(() => {
      setFeedback(null);
      setPerson(null);
    }, SCANNER.resultShownMs);
    return () => window.clearTimeout(timer);
  }, [feedback]);

  const rememberKiosk = (email: string | null) => {
    if (email) sessionStorage.setItem(KIOSK_KEY, email);
    else sessionStorage.removeItem(KIOSK_KEY);
    setKioskEmail(email);
  };

  const handleCode = useCallback(
    async (value: string) => {
      lockedUntil.current = Date.now() + SCANNER.rescanLockMs;
      setPerson(null);
      const scanned = readScanned(value, window.location.origin);
      if (scanned.kind === 'link') {
        void navigate(scanned.path);
        return;
      }
      if (scanned.kind !== 'email') {
        setFeedback({ tone: 'error', text: t('camera.invalid', { value }) });
        return;
      }
      const present = sessionStorage.getItem(KIOSK_KEY);
      if (present && present !== scanned.email) {
        setFeedback({ tone: 'error', text: t('camera.alreadyLoggedIn', { user: present }) });
        return;
      }
      try {
        const result = await checkByEmail(scanned.email, site);
        lockedUntil.current = Date.now() + SCANNER.kioskLockMs;
        const name = `${result.person.firstname} ${result.person.lastname}`.trim();
        setPerson({ name, photo: result.photo });
        if (result.status === 'repeat') {
          setFeedback({ tone: 'info', text: result.message });
          return;
        }
        rememberKiosk(result.action === 'check_in' ? scanned.email : null);
        setFeedback({ tone: 'success', text: result.message });
      } catch (error) {
        setFeedback({ tone: 'error', text: scanFailureText(error, t) });
      }
    },
    [navigate, t, site],
  );

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    let decode: FrameDecoder | null = null;

    const tick = async () => {
      const video = videoRef.current;
      const canvas = canvasRef.current;
      if (stopped || busy.current || !decode || !video || !canvas) return;
      if (video.readyState < video.HAVE_CURRENT_DATA || Date.now() < lockedUntil.current) return;
      busy.current = true;
      try {
        canvas.getContext('2d')?.drawImage(video, 0, 0, SCANNER.width, SCANNER.height);
        const value = await decode(canvas);
        setDetecting(!value);
        if (inFrame.current.next(value) && value && !stopped) await handleCode(value);
      } catch (error) {
        console.warn('QR decoding failed', error);
      } finally {
        busy.current = false;
      }
    };

    const start = async () => {
      try {
        decode = await createDecoder();
        const camera = await playCamera(
          { facing: 'environment', width: SCANNER.width, height: SCANNER.height },
          () => videoRef.current,
          () => stopped,
        );
        if (!camera) return;
        stream = camera.stream;
        timer = window.setInterval(() => void tick(), SCANNER.intervalMs);
      } catch (error) {
        // Spec §8: a refused camera is logged; the screen offers the manual validation.
        console.warn('Camera unavailable', error);
        if (!stopped) setCameraError(true);
      }
    };
    void start();
    return () => {
      stopped = true;
      window.clearInterval(timer);
      stopCamera(stream);
    };
  }, [handleCode]);

  return (
    <Container size="sm" py="lg">
      <PageTitle ta="center">{t('camera.title')}</PageTitle>
      <Stack gap="md">
        {pending > 0 && (
          <Group justify="center">
            <Badge color="yellow" variant="light" role="status">
              {t('queue.pending', { count: pending })}
            </Badge>
          </Group>
        )}
        {kioskEmail && (
          <Group justify="center" gap="xs">
            <Badge size="lg" color="teal" variant="light">
              {t('camera.present', { user: kioskEmail })}
            </Badge>
            {/* Staff clear the kiosk's present person (who stays checked in: the on-site
                list checks them out) so the next person can use the scanner. */}
            <Button size="xs" variant="default" onClick={() => rememberKiosk(null)}>
              {t('camera.clearPresent')}
            </Button>
          </Group>
        )}
        {/* No camera: no black frame, the message below says what to do. */}
        <Paper
          withBorder
          radius="md"
          p={0}
          style={{
            overflow: 'hidden',
            background: '#000',
            display: cameraError ? 'none' : undefined,
          }}
        >
          <video
            ref={videoRef}
            muted
            playsInline
            aria-label={t('camera.videoLabel')}
            style={cameraVideoStyle()}
          />
        </Paper>
        <canvas ref={canvasRef} width={SCANNER.width} height={SCANNER.height} hidden />
        <div aria-live="polite" data-testid="scan-result">
          {feedback ? (
            <Group align="center" wrap="nowrap" gap="md">
              {person && (
                <Stack gap={4} align="center" data-testid="kiosk-person">
                  <Avatar
                    src={person.photo}
                    alt={t('camera.photoOf', { name: person.name })}
                    size={IMAGE_SIZES.medium * 1.5}
                    radius="md"
                  >
                    {person.photo ? null : t('camera.noPhoto')}
                  </Avatar>
                  <Text size="xs" c="dimmed" ta="center" maw={IMAGE_SIZES.medium * 1.5}>
                    {t('camera.comparePhoto')}
                  </Text>
                </Stack>
              )}
              <Alert
                color={TONE_COLORS[feedback.tone]}
                role="status"
                data-testid="scan-feedback"
                style={{ flex: 1 }}
              >
                {feedback.text}
              </Alert>
            </Group>
          ) : cameraError ? (
            <Alert color="yellow" role="status">
              {t('camera.unavailable')}
            </Alert>
          ) : (
            <Text ta="center" c="dimmed" size="sm">
              {detecting ? t('camera.noCode') : t('camera.aim')}
            </Text>
          )}
        </div>
        <Group justify="center">
          <Button component={Link} to={`/${domain}/manual-check`} variant="default">
            {t('camera.manual')}
          </Button>
          <Button component={Link} to={`/${domain}/menu`} variant="subtle">
            {t('camera.menu')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
