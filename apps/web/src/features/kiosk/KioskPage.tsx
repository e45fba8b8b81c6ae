/**
 * The kiosk (issue 29): the tablet's whole experience at `/kiosk`, outside the staff layout
 * and with no staff session. Not paired: the pairing screen. Paired: the welcome screen
 * ("Je suis attendu(e)", "Je n'ai pas de rendez-vous", "Je pars", the kiosk's languages),
 * each visitor's turn, then back to the welcome screen — at the end, or after the kiosk's
 * idle time without a touch, with everything typed discarded (the turn's components are
 * unmounted; nothing of a visitor is written to the tablet). It keeps the screen awake, asks
 * for full screen at the first touch, and works offline as an installed app: scanned arrivals
 * and departures wait in a queue (codes and idempotency keys only) until the network is back.
 */
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type FormEvent,
} from 'react';
import {
  Alert,
  Box,
  Button,
  Center,
  Group,
  Image,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { KioskCheckAnswer, KioskConfig } from '@sesame/shared';
import i18n, { useTranslation, withFrenchWords } from '../../lib/i18n';
import kioskWords from '../../locales/fr/kiosk.json';
import {
  forgetKiosk,
  kioskApi,
  KioskApiError,
  kioskToken,
  onReachableChange,
  serverReachable,
  statusOf,
  storeConfig,
  storedConfig,
  TOKEN_KEY,
  whenRefused,
} from './api';
import { Done, type Outcome } from './components/Done';
import { Held } from './components/Held';
import { NameSearch } from './components/NameSearch';
import { ScanCheck } from './components/ScanCheck';
import { Waiting } from './components/Waiting';
import { createIdleTimer } from './lib/idle';
import { createKioskQueue, type PendingKioskScan } from './lib/offline-queue';
import { registerKioskApp, useScreenAwake } from './lib/device';
import './kiosk.css';

// The walk-in's form (the host search, the privacy notice and its words) loads when a visitor
// taps "Je n'ai pas de rendez-vous"; the service worker keeps it for offline starts.
const WalkIn = lazy(() => import('./components/WalkIn').then((m) => ({ default: m.WalkIn })));

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ kiosk: kioskWords });

type Screen =
  | { name: 'welcome' }
  | { name: 'expected' }
  | { name: 'scanIn' }
  | { name: 'leaving' }
  | { name: 'scanOut' }
  | { name: 'searchOut' }
  | { name: 'walkIn' }
  | { name: 'waiting'; requestId: string; told: string | null }
  | { name: 'held' }
  | { name: 'done'; outcome: Outcome };

const QUEUE_EVENT = 'sesame:kiosk-queue';
const queue = createKioskQueue(
  typeof localStorage === 'undefined'
    ? { getItem: () => null, setItem: () => undefined }
    : localStorage,
  statusOf,
  () => window.dispatchEvent(new Event(QUEUE_EVENT)),
);
const RETRY_MS = 5000;

/** Online: the browser says so and the last call reached the server. */
function useOnline(): boolean {
  const browser = useSyncExternalStore(
    (listener) => {
      window.addEventListener('online', listener);
      window.addEventListener('offline', listener);
      return () => {
        window.removeEventListener('online', listener);
        window.removeEventListener('offline', listener);
      };
    },
    () => navigator.onLine,
  );
  const server = useSyncExternalStore(onReachableChange, serverReachable);
  return browser && server;
}

/** How many scans wait; they are sent when the network comes back, and every few seconds. */
function usePendingScans(): number {
  const [count, setCount] = useState(() => queue.list().length);
  useEffect(() => {
    const refresh = () => setCount(queue.list().length);
    const flush = () => {
      if (!queue.list().length) return;
      void queue
        .flush((scan) => kioskApi.check(scan.kind, { code: scan.code }, scan.key))
        .then(refresh, refresh);
    };
    flush();
    const timer = window.setInterval(flush, RETRY_MS);
    window.addEventListener('online', flush);
    window.addEventListener(QUEUE_EVENT, refresh);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', flush);
      window.removeEventListener(QUEUE_EVENT, refresh);
    };
  }, []);
  return count;
}

function OfflineBanner({ online, pending }: { online: boolean; pending: number }) {
  const { t } = useTranslation('kiosk');
  return (
    <div role="status" aria-live="polite">
      {!online && (
        <Alert color="orange" variant="filled" radius={0} data-testid="kiosk-offline">
          <Text fw={600}>{t('offline')}</Text>
          {pending > 0 && <Text>{t('pendingScans', { count: pending })}</Text>}
        </Alert>
      )}
      {online && pending > 0 && (
        <Alert color="yellow" variant="light" radius={0}>
          {t('pendingScans', { count: pending })}
        </Alert>
      )}
    </div>
  );
}

/** The screen's heading, focused when the screen changes (a screen reader says where it is). */
function Heading({ children }: { children: React.ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (document.activeElement === document.body || document.activeElement === null) {
      ref.current?.focus({ preventScroll: true });
    }
  }, []);
  return (
    <Title ref={ref} order={1} size="h1" tabIndex={-1} className="sesame-kiosk-heading">
      {children}
    </Title>
  );
}

function Pairing({
  refusal,
  onPaired,
}: {
  refusal: string | null;
  onPaired: (c: KioskConfig) => void;
}) {
  const { t } = useTranslation('kiosk');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(t('pairing.codeInvalid'));
      return;
    }
    setSending(true);
    setError(null);
    try {
      const paired = await kioskApi.pair(digits);
      localStorage.setItem(TOKEN_KEY, paired.token);
      storeConfig(paired.kiosk);
      onPaired(paired.kiosk);
    } catch (failure) {
      setSending(false);
      setError(
        statusOf(failure) === 0
          ? t('unreachable')
          : (failure instanceof KioskApiError && failure.serverMessage) || t('failed'),
      );
    }
  };
  return (
    <Stack gap="lg">
      <Heading>{t('pairing.title')}</Heading>
      {refusal && (
        <Alert color="red" variant="light" role="alert">
          {refusal}
        </Alert>
      )}
      <Text size="lg">{t('pairing.intro')}</Text>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="lg">
          <TextInput
            size="xl"
            label={t('pairing.code')}
            description={t('pairing.codeHelp')}
            value={code}
            error={error}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            styles={{ input: { letterSpacing: '0.4em', fontVariantNumeric: 'tabular-nums' } }}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setError(null);
            }}
          />
          <Button type="submit" size="xl" loading={sending}>
            {t('pairing.submit')}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

function Header({
  config,
  languages,
}: {
  config: KioskConfig;
  /** The language buttons: on the welcome screen only. */
  languages: boolean;
}) {
  const { t, i18n: translator } = useTranslation('kiosk');
  return (
    <Group
      component="header"
      justify="space-between"
      wrap="wrap"
      gap="md"
      className="sesame-kiosk-header"
    >
      <Group gap="md" wrap="nowrap">
        {config.company.logo && (
          <Image
            src={`/api/public/logo/${encodeURIComponent(config.company.logo)}`}
            alt=""
            h={56}
            w="auto"
            fit="contain"
          />
        )}
        <div>
          <Text fw={700} size="xl">
            {config.company.name}
          </Text>
          <Text c="dimmed">{config.site.name}</Text>
        </div>
      </Group>
      {languages && config.languages.length > 1 && (
        <Group gap="xs" role="group" aria-label={t('languages')}>
          {config.languages.map((lang) => (
            <Button
              key={lang}
              size="lg"
              lang={lang}
              variant={translator.language === lang ? 'filled' : 'default'}
              aria-pressed={translator.language === lang}
              onClick={() => void translator.changeLanguage(lang)}
            >
              {lang.toUpperCase()}
            </Button>
          ))}
        </Group>
      )}
    </Group>
  );
}

function Turn({
  config,
  online,
  onEnd,
  onQueued,
  onScreen,
}: {
  config: KioskConfig;
  online: boolean;
  onEnd: () => void;
  onQueued: (scan: PendingKioskScan) => void;
  onScreen: (name: Screen['name']) => void;
}) {
  const { t } = useTranslation('kiosk');
  const [screen, setScreen] = useState<Screen>({ name: 'welcome' });
  useEffect(() => onScreen(screen.name), [screen.name, onScreen]);

  const checked = (check: KioskCheckAnswer, kind: 'check-in' | 'check-out') =>
    check.status === 'held'
      ? setScreen({ name: 'held' })
      : setScreen({
          name: 'done',
          outcome: {
            kind,
            message: check.message,
            printFor:
              kind === 'check-in' && check.status === 'in' && config.print_badge
                ? check.request_id
                : undefined,
          },
        });
  const queued = (scan: PendingKioskScan) => {
    onQueued(scan);
    setScreen({ name: 'done', outcome: { kind: scan.kind, queued: true } });
  };
  const back = (to: Screen) => (
    <Button size="lg" variant="default" onClick={() => setScreen(to)} className="sesame-kiosk-back">
      {t('back')}
    </Button>
  );

  switch (screen.name) {
    case 'welcome':
      return (
        <Stack gap="xl">
          <Stack gap="xs">
            <Heading>{t('welcome.title')}</Heading>
            <Text size="lg">{t('welcome.intro')}</Text>
          </Stack>
          <Stack gap="lg">
            <Button
              size="xl"
              className="sesame-kiosk-choice"
              onClick={() => setScreen({ name: 'expected' })}
            >
              {t('welcome.expected')}
            </Button>
            <Button
              size="xl"
              className="sesame-kiosk-choice"
              variant="light"
              onClick={() => setScreen({ name: 'walkIn' })}
            >
              {t('welcome.walkIn')}
            </Button>
            <Button
              size="xl"
              className="sesame-kiosk-choice"
              variant="default"
              onClick={() => setScreen({ name: 'leaving' })}
            >
              {t('welcome.leaving')}
            </Button>
          </Stack>
        </Stack>
      );
    case 'expected':
      return (
        <Stack gap="lg">
          {back({ name: 'welcome' })}
          <Heading>{t('expected.title')}</Heading>
          <NameSearch kind="check-in" online={online} onChecked={(c) => checked(c, 'check-in')} />
          <Button size="xl" variant="light" onClick={() => setScreen({ name: 'scanIn' })}>
            {t('expected.scan')}
          </Button>
        </Stack>
      );
    case 'scanIn':
      return (
        <Stack gap="lg">
          {back({ name: 'expected' })}
          <Heading>{t('expected.scanTitle')}</Heading>
          <ScanCheck kind="check-in" onChecked={(c) => checked(c, 'check-in')} onQueued={queued} />
        </Stack>
      );
    case 'leaving':
      return (
        <Stack gap="lg">
          {back({ name: 'welcome' })}
          <Heading>{t('leaving.title')}</Heading>
          <Button
            size="xl"
            className="sesame-kiosk-choice"
            onClick={() => setScreen({ name: 'scanOut' })}
          >
            {t('leaving.scan')}
          </Button>
          <Button
            size="xl"
            className="sesame-kiosk-choice"
            variant="light"
            onClick={() => setScreen({ name: 'searchOut' })}
          >
            {t('leaving.search')}
          </Button>
        </Stack>
      );
    case 'scanOut':
      return (
        <Stack gap="lg">
          {back({ name: 'leaving' })}
          <Heading>{t('leaving.scanTitle')}</Heading>
          <ScanCheck
            kind="check-out"
            onChecked={(c) => checked(c, 'check-out')}
            onQueued={queued}
          />
        </Stack>
      );
    case 'searchOut':
      return (
        <Stack gap="lg">
          {back({ name: 'leaving' })}
          <Heading>{t('leaving.title')}</Heading>
          <NameSearch kind="check-out" online={online} onChecked={(c) => checked(c, 'check-out')} />
        </Stack>
      );
    case 'walkIn':
      return (
        <Stack gap="lg">
          {back({ name: 'welcome' })}
          <Heading>{t('walkIn.title')}</Heading>
          <Suspense
            fallback={
              <Center py="xl">
                <Loader aria-label={t('loading')} />
              </Center>
            }
          >
            <WalkIn
              config={config}
              online={online}
              onSent={(sent) => {
                if (sent.status === 'held') setScreen({ name: 'held' });
                else if (sent.status === 'let_in') {
                  setScreen({
                    name: 'done',
                    outcome: {
                      kind: 'check-in',
                      message: t('walkIn.letIn', { firstname: sent.firstname }),
                      printFor: config.print_badge ? sent.request_id : undefined,
                    },
                  });
                } else setScreen({ name: 'waiting', requestId: sent.request_id, told: sent.told });
              }}
            />
          </Suspense>
        </Stack>
      );
    case 'waiting':
      return (
        <Stack gap="lg">
          <Heading>{t('waiting.title')}</Heading>
          <Waiting
            requestId={screen.requestId}
            told={screen.told}
            waitSeconds={config.host_wait_seconds}
            onAccepted={(c) => checked(c, 'check-in')}
            onGiveUp={onEnd}
          />
        </Stack>
      );
    case 'held':
      // The watchlist holds the visit: these words and nothing else (no heading, no button).
      return <Held onFinish={onEnd} />;
    case 'done':
      return (
        <Stack gap="lg">
          <Heading>
            {screen.outcome.kind === 'check-in' ? t('done.titleIn') : t('done.titleOut')}
          </Heading>
          <Done outcome={screen.outcome} serverPrints={config.server_prints} onFinish={onEnd} />
        </Stack>
      );
  }
}

function PairedKiosk({ config }: { config: KioskConfig }) {
  const { t } = useTranslation('kiosk');
  const online = useOnline();
  const pending = usePendingScans();
  // Each visitor's turn is its own component tree: a new key discards everything typed.
  const [turn, setTurn] = useState(0);
  const [screen, setScreen] = useState<Screen['name']>('welcome');
  const waiting = useRef(false);
  const idle = useRef<ReturnType<typeof createIdleTimer> | null>(null);

  const home = config.languages[0] ?? 'fr';
  const endTurn = useCallback(() => {
    setTurn((n) => n + 1);
    if (i18n.language !== home) void i18n.changeLanguage(home);
  }, [home]);

  // Each start in the kiosk's first language (a visitor's choice lasts for their turn only).
  useEffect(() => {
    if (i18n.language !== home) void i18n.changeLanguage(home);
  }, [home]);

  useEffect(() => {
    const timer = createIdleTimer(config.idle_seconds * 1000, () => {
      if (!waiting.current) endTurn();
    });
    idle.current = timer;
    const activity = () => timer.activity();
    const events = ['pointerdown', 'keydown', 'input', 'touchstart', 'wheel'] as const;
    events.forEach((name) =>
      document.addEventListener(name, activity, { capture: true, passive: true }),
    );
    return () => {
      timer.stop();
      events.forEach((name) => document.removeEventListener(name, activity, { capture: true }));
    };
  }, [config.idle_seconds, endTurn]);

  // The waiting screen keeps its own time (the host's answer); every other one the idle time.
  const onScreen = useCallback((name: Screen['name']) => {
    setScreen(name);
    waiting.current = name === 'waiting';
    if (waiting.current) idle.current?.pause();
    else idle.current?.resume();
  }, []);

  useEffect(() => {
    document.title = `${t('title')} — ${config.company.name} — Sésame`;
  });

  return (
    <Box className="sesame-kiosk">
      <Header config={config} languages={screen === 'welcome'} />
      <OfflineBanner online={online} pending={pending} />
      <Box component="main" className="sesame-kiosk-main">
        <Box className="sesame-kiosk-content">
          <Turn
            key={turn}
            config={config}
            online={online}
            onEnd={endTurn}
            onQueued={(scan) => queue.keep(scan)}
            onScreen={onScreen}
          />
        </Box>
      </Box>
    </Box>
  );
}

export default function KioskPage() {
  const { t } = useTranslation('kiosk');
  const [token, setToken] = useState(kioskToken);
  const [config, setConfig] = useState<KioskConfig | null>(() =>
    kioskToken() ? storedConfig() : null,
  );
  const [refusal, setRefusal] = useState<string | null>(null);
  useScreenAwake();

  useEffect(() => registerKioskApp(), []);

  useEffect(() => {
    if (!config) document.title = `${t('pairing.title')} — Sésame`;
  });

  useEffect(() => {
    whenRefused((message) => {
      forgetKiosk();
      setToken(null);
      setConfig(null);
      setRefusal(message ?? t('pairing.refused'));
    });
  }, [t]);

  // The kiosk's settings, fresh at each start (an admin may have changed them).
  useEffect(() => {
    if (!token) return;
    let current = true;
    let timer = 0;
    const load = () =>
      kioskApi.me().then(
        (fresh) => {
          if (!current) return;
          storeConfig(fresh);
          setConfig(fresh);
        },
        (failure: unknown) => {
          // Offline: the stored settings serve meanwhile; asked again until the server answers.
          if (current && statusOf(failure) !== 401)
            timer = window.setTimeout(() => void load(), RETRY_MS);
        },
      );
    void load();
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [token]);

  if (!token || !config) {
    return (
      <Box className="sesame-kiosk">
        <Group component="header" className="sesame-kiosk-header">
          <Text fw={800} size="xl" c="sesame.8">
            {t('brand')}
          </Text>
        </Group>
        <Box component="main" className="sesame-kiosk-main">
          <Box className="sesame-kiosk-content">
            {token && !config ? (
              <Center py="xl">
                <Stack align="center">
                  <Title order={1} size="h2">
                    {t('title')}
                  </Title>
                  <Loader aria-label={t('loading')} />
                </Stack>
              </Center>
            ) : (
              <Pairing
                refusal={refusal}
                onPaired={(paired) => {
                  setRefusal(null);
                  setToken(kioskToken());
                  setConfig(paired);
                }}
              />
            )}
          </Box>
        </Box>
      </Box>
    );
  }
  return <PairedKiosk config={config} />;
}
