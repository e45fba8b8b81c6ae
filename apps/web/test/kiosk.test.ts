/**
 * The kiosk's pure logic (issue 29): its offline queue (scanned codes with their keys, each
 * sent once), its idle reset, which QR codes it reads as a visitor's code, the photo's size,
 * and the files its service worker keeps.
 */
import { describe, expect, it, vi } from 'vitest';
import { createIdleTimer, type Clock } from '../src/features/kiosk/lib/idle';
import {
  createKioskQueue,
  isRetryableStatus,
  KIOSK_QUEUE_KEY,
  newIdempotencyKey,
  type PendingKioskScan,
} from '../src/features/kiosk/lib/offline-queue';
import { dataUrlBytes, firstThatFits, fitWithin } from '../src/features/kiosk/lib/photo';
import { visitorCodeOf } from '../src/features/kiosk/lib/scanned-code';
import { kioskFiles, serviceWorkerSource } from '../scripts/kiosk-service-worker';

function memoryStorage() {
  const values = new Map<string, string>();
  return {
    values,
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

class Refused extends Error {
  constructor(public readonly status: number) {
    super(`HTTP ${status}`);
  }
}
const statusOf = (error: unknown) => (error instanceof Refused ? error.status : 0);

const scan = (key: string, kind: PendingKioskScan['kind'] = 'check-in'): PendingKioskScan => ({
  key,
  kind,
  code: `CODE-${key}`,
  at: 1,
});

describe('the kiosk offline queue', () => {
  it('keeps a scan once per key, with its code and key only', () => {
    const storage = memoryStorage();
    const queue = createKioskQueue(storage, statusOf);
    queue.keep(scan('k1'));
    queue.keep(scan('k1'));
    queue.keep(scan('k2', 'check-out'));
    expect(queue.list().map((s) => [s.key, s.kind])).toEqual([
      ['k1', 'check-in'],
      ['k2', 'check-out'],
    ]);
    const stored = JSON.parse(storage.values.get(KIOSK_QUEUE_KEY)!) as object[];
    expect(Object.keys(stored[0]!).sort()).toEqual(['at', 'code', 'key', 'kind']);
  });

  it('sends each kept scan once, in order, with its own key, and empties', async () => {
    const queue = createKioskQueue(memoryStorage(), statusOf);
    queue.keep(scan('k1'));
    queue.keep(scan('k2', 'check-out'));
    const sent: string[] = [];
    const left = await queue.flush(async (s) => {
      sent.push(`${s.kind}:${s.key}:${s.code}`);
    });
    expect(left).toBe(0);
    expect(sent).toEqual(['check-in:k1:CODE-k1', 'check-out:k2:CODE-k2']);
    expect(await queue.flush(async () => sent.push('again'))).toBe(0);
    expect(sent).toHaveLength(2);
  });

  it('stops at the first scan the server still cannot take, and keeps it and the ones after', async () => {
    const queue = createKioskQueue(memoryStorage(), statusOf);
    queue.keep(scan('k1'));
    queue.keep(scan('k2'));
    queue.keep(scan('k3'));
    const left = await queue.flush(async (s) => {
      if (s.key === 'k2') throw new Refused(0);
    });
    expect(left).toBe(2);
    expect(queue.list().map((s) => s.key)).toEqual(['k2', 'k3']);
  });

  it('drops a scan the server refused for good (unknown code, another day)', async () => {
    const queue = createKioskQueue(memoryStorage(), statusOf);
    queue.keep(scan('k1'));
    queue.keep(scan('k2'));
    const left = await queue.flush(async (s) => {
      if (s.key === 'k1') throw new Refused(404);
    });
    expect(left).toBe(0);
  });

  it('sends nothing twice when asked to flush while a flush runs', async () => {
    const queue = createKioskQueue(memoryStorage(), statusOf);
    queue.keep(scan('k1'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const send = vi.fn(() => gate);
    const first = queue.flush(send);
    const second = queue.flush(send);
    release();
    expect(await first).toBe(0);
    expect(await second).toBe(0);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('reads a damaged store as empty, and tells which failures are worth a retry', () => {
    const storage = memoryStorage();
    storage.setItem(KIOSK_QUEUE_KEY, '{not json');
    expect(createKioskQueue(storage, statusOf).list()).toEqual([]);
    storage.setItem(KIOSK_QUEUE_KEY, JSON.stringify([{ key: 1 }, scan('ok')]));
    expect(
      createKioskQueue(storage, statusOf)
        .list()
        .map((s) => s.key),
    ).toEqual(['ok']);
    expect([0, 429, 503].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404, 409].some(isRetryableStatus)).toBe(false);
  });

  it('makes keys the server accepts (8 to 100 URL-safe characters), each different', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

/** A clock the test moves by hand. */
function manualClock() {
  let now = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  const clock: Clock = {
    setTimeout: (run, ms) => {
      timers.set(next, { at: now + ms, run });
      return next++;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers]) {
      if (timer.at <= now) {
        timers.delete(id);
        timer.run();
      }
    }
  };
  return { clock, advance };
}

describe('the kiosk idle reset', () => {
  it('goes back once after the idle time without a touch', () => {
    const { clock, advance } = manualClock();
    const onIdle = vi.fn();
    createIdleTimer(60_000, onIdle, clock);
    advance(59_999);
    expect(onIdle).not.toHaveBeenCalled();
    advance(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    advance(600_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('counts again from each touch', () => {
    const { clock, advance } = manualClock();
    const onIdle = vi.fn();
    const timer = createIdleTimer(60_000, onIdle, clock);
    advance(50_000);
    timer.activity();
    advance(50_000);
    expect(onIdle).not.toHaveBeenCalled();
    advance(10_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });

  it('holds while paused (the waiting screen), and stops for good', () => {
    const { clock, advance } = manualClock();
    const onIdle = vi.fn();
    const timer = createIdleTimer(15_000, onIdle, clock);
    timer.pause();
    advance(100_000);
    expect(onIdle).not.toHaveBeenCalled();
    timer.resume();
    advance(15_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    timer.activity();
    timer.stop();
    timer.activity();
    advance(100_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
  });
});

describe('what the kiosk camera reads as a visitor code', () => {
  const origin = 'https://sesame.example';
  it.each([
    ['the badge QR (the code itself)', '7KQ2-M9XD-4TRA', '7KQ2-M9XD-4TRA'],
    ['the mail QR (a scan link)', `${origin}/scan/7KQ2-M9XD-4TRA`, '7KQ2-M9XD-4TRA'],
    [
      'a scan link by another address of the server',
      'http://10.0.0.5:3000/scan/7KQ2M9XD4TRA',
      '7KQ2M9XD4TRA',
    ],
    ['with spaces around', '  7KQ2M9XD4TRA \n', '7KQ2M9XD4TRA'],
  ])('takes %s', (_what, value, code) => {
    expect(visitorCodeOf(value)).toBe(code);
  });

  it.each([
    ['another page of this application', `${origin}/demo/menu`],
    ['a member card link', `${origin}/scan-user-qrcode/7KQ2-M9XD-4TRA`],
    ['an e-mail', 'awa@example.com'],
    ['a script address', 'javascript:alert(1)'],
    ['a scan link with more after the code', `${origin}/scan/7KQ2/more`],
    ['text with spaces', 'hello world'],
    ['nothing', '   '],
  ])('refuses %s', (_what, value) => {
    expect(visitorCodeOf(value)).toBeNull();
  });
});

describe('the walk-in photo', () => {
  it('counts the bytes a data URL decodes to', () => {
    expect(dataUrlBytes(`data:image/jpeg;base64,${btoa('abc')}`)).toBe(3);
    expect(dataUrlBytes(`data:image/jpeg;base64,${btoa('abcd')}`)).toBe(4);
    expect(dataUrlBytes(`data:image/jpeg;base64,${btoa('abcde')}`)).toBe(5);
  });

  it('draws the frame at most maxSide on its longer side, never larger than it is', () => {
    expect(fitWithin(1280, 960, 720)).toEqual({ width: 720, height: 540 });
    expect(fitWithin(480, 640, 720)).toEqual({ width: 480, height: 640 });
  });

  it('takes the first quality whose JPEG fits, else none', () => {
    const sizes: Record<number, number> = { 0.85: 600, 0.75: 450, 0.6: 300 };
    const encode = (quality: number) =>
      `data:image/jpeg;base64,${btoa('x'.repeat(sizes[quality] ?? 100))}`;
    const chosen = firstThatFits(encode, 400);
    expect(dataUrlBytes(chosen!)).toBe(300);
    expect(firstThatFits(encode, 50)).toBeNull();
    expect(firstThatFits(() => 'data:image/png;base64,AAAA', 400)).toBeNull();
  });
});

describe('the kiosk service worker', () => {
  const chunk = (
    fileName: string,
    extra: Partial<Parameters<typeof kioskFiles>[0][number]> = {},
  ) => ({
    type: 'chunk' as const,
    fileName,
    isEntry: false,
    facadeModuleId: null,
    imports: [],
    dynamicImports: [],
    ...extra,
  });
  const files = kioskFiles([
    chunk('assets/index.js', {
      isEntry: true,
      imports: ['assets/shell.js'],
      dynamicImports: ['assets/LoginPage.js', 'assets/KioskPage.js'],
      viteMetadata: { importedCss: new Set(['assets/index.css']) },
    }),
    chunk('assets/shell.js'),
    chunk('assets/LoginPage.js', { facadeModuleId: '/src/features/auth/pages/LoginPage.tsx' }),
    chunk('assets/KioskPage.js', {
      facadeModuleId: '/app/apps/web/src/features/kiosk/KioskPage.tsx',
      imports: ['assets/form-layer.js'],
    }),
    chunk('assets/form-layer.js'),
    chunk('assets/kiosk-en.js', { facadeModuleId: '/app/apps/web/src/locales/en/kiosk.json' }),
    chunk('assets/menu-en.js', { facadeModuleId: '/app/apps/web/src/locales/en/menu.json' }),
  ]);

  it('keeps the kiosk page, the entry and the kiosk chunk with what they import, and nothing of the staff app', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        '/kiosk',
        '/assets/index.js',
        '/assets/index.css',
        '/assets/shell.js',
        '/assets/KioskPage.js',
        '/assets/form-layer.js',
        '/assets/kiosk-en.js',
        '/kiosk.webmanifest',
      ]),
    );
    expect(files).not.toContain('/assets/LoginPage.js');
    expect(files).not.toContain('/assets/menu-en.js');
  });

  it('never answers /api nor a page other than /kiosk, and names its cache after its files', () => {
    const source = serviceWorkerSource(files);
    expect(source).toContain("url.pathname.startsWith('/api/')");
    expect(source).toContain("if (url.pathname !== PAGE && url.pathname !== PAGE + '/') return;");
    expect(serviceWorkerSource([...files, '/assets/other.js'])).not.toBe(source);
  });
});
