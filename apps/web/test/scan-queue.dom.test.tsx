/**
 * The scanner's offline queue (features/checkins/lib/scan-queue.ts) as the scan pages mount
 * it: `usePendingScans` over the browser's localStorage, its events and timers, sending
 * through the app's real HTTP client to a fake `fetch`. What it proves: kept scans survive
 * in the device's storage and are sent again, in order, each with its own Idempotency-Key
 * and site, when the page opens, every SCAN_RETRY_MS and as soon as the network is back;
 * the count follows the storage (this tab's scans and another tab's); a page closed stops
 * retrying.
 */
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  keepScan,
  pendingScans,
  SCAN_RETRY_MS,
  usePendingScans,
  type PendingScan,
} from '../src/features/checkins/lib/scan-queue';

const STORAGE_KEY = 'sesame.pendingScans';

const scan = (key: string, site?: string): PendingScan => ({
  key: `key-${key}-0123456789`,
  kind: key === 'member' ? 'user' : 'visitor',
  uidn: `CODE-${key}`,
  manual: false,
  at: 1,
  ...(site ? { site } : {}),
});

/** What the server answers next: reachable (its status) or not at all. */
let server: 'down' | number;
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const sent = () =>
  fetchMock.mock.calls.map(([url, init]) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    return `${String(url)} ${headers['idempotency-key']}`;
  });

async function settle() {
  await act(async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve();
  });
}

async function wait(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  await settle();
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.setItem('token', 'token-of-the-desk-0123456789');
  server = 'down';
  fetchMock = vi.fn<typeof fetch>(() =>
    server === 'down'
      ? Promise.reject(new TypeError('Failed to fetch'))
      : Promise.resolve(
          new Response(JSON.stringify({ status: 'in', message: 'Bienvenue' }), {
            status: server,
            headers: { 'content-type': 'application/json' },
          }),
        ),
  );
  vi.stubGlobal('fetch', fetchMock);
});

describe('the scanner’s offline queue on a page (usePendingScans)', () => {
  it('sends the scans kept on this device when the page opens, and again every few seconds until taken', async () => {
    keepScan(scan('a'));
    keepScan(scan('b', 'site-2'));
    const { result } = renderHook(() => usePendingScans());
    expect(result.current).toBe(2);
    await settle();
    // Unreachable: the first is tried, kept, and the second waits behind it.
    expect(sent()).toEqual(['/api/get-qr-data/CODE-a key-a-0123456789']);
    expect(result.current).toBe(2);

    server = 200;
    await wait(SCAN_RETRY_MS - 1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await wait(1);
    expect(sent()).toEqual([
      '/api/get-qr-data/CODE-a key-a-0123456789',
      '/api/get-qr-data/CODE-a key-a-0123456789',
      '/api/get-qr-data/CODE-b?site=site-2 key-b-0123456789',
    ]);
    expect(result.current).toBe(0);
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!)).toEqual([]);
  });

  it('sends at once when the network comes back, without waiting for the next round', async () => {
    keepScan(scan('member'));
    const { result } = renderHook(() => usePendingScans());
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    server = 200;
    act(() => void window.dispatchEvent(new Event('online')));
    await settle();
    expect(sent()[1]).toBe('/api/get-qr-user-data/CODE-member key-member-0123456789');
    expect(result.current).toBe(0);
  });

  it('keeps a scan while the database is out (503), drops one the server refused (404)', async () => {
    keepScan(scan('a'));
    keepScan(scan('b'));
    server = 503;
    const { result } = renderHook(() => usePendingScans());
    await settle();
    expect(result.current).toBe(2);
    expect(pendingScans().map((s) => s.uidn)).toEqual(['CODE-a', 'CODE-b']);

    server = 404;
    await wait(SCAN_RETRY_MS);
    // Nothing to retry for a code the server does not know: both are gone.
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(result.current).toBe(0);
  });

  it('counts a scan kept meanwhile on this page, and one kept by another tab', async () => {
    const { result } = renderHook(() => usePendingScans());
    await settle();
    expect(result.current).toBe(0);
    expect(fetchMock).not.toHaveBeenCalled();

    act(() => keepScan(scan('a')));
    expect(result.current).toBe(1);

    // Another tab wrote the storage: the browser says so with a `storage` event.
    localStorage.setItem(STORAGE_KEY, JSON.stringify([scan('a'), scan('b')]));
    act(() => void window.dispatchEvent(new Event('storage')));
    expect(result.current).toBe(2);
  });

  it('stops retrying once the page is closed; the scans stay for the next one', async () => {
    keepScan(scan('a'));
    const { unmount } = renderHook(() => usePendingScans());
    await settle();
    unmount();
    server = 200;
    await wait(SCAN_RETRY_MS * 3);
    act(() => void window.dispatchEvent(new Event('online')));
    await settle();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(pendingScans()).toHaveLength(1);
  });
});
