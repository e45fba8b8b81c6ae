import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckResult } from '@sesame/shared';
import {
  flushScans,
  isRetryable,
  keepScan,
  newScanKey,
  pendingScans,
  type PendingScan,
} from '../src/features/checkins/lib/scan-queue';
import { ApiError } from '../src/lib/api-client';

/** The browser's storage and events, as the queue uses them. */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const scan = (key: string, uidn = `CODE-${key}`): PendingScan => ({
  key,
  kind: 'visitor',
  uidn,
  manual: false,
  at: 0,
});
const ok = {} as CheckResult;

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('window', new EventTarget());
});

describe('the scanner’s offline queue', () => {
  it('keeps a scan once per key, in the order scanned, and says so', () => {
    const changed = vi.fn();
    window.addEventListener('sesame:pending-scans', changed);
    keepScan(scan('a'));
    keepScan(scan('b'));
    keepScan(scan('a'));
    expect(pendingScans().map((s) => s.key)).toEqual(['a', 'b']);
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('reads a damaged store as empty', () => {
    localStorage.setItem('sesame.pendingScans', '{not json');
    expect(pendingScans()).toEqual([]);
    localStorage.setItem('sesame.pendingScans', '{"a":1}');
    expect(pendingScans()).toEqual([]);
  });

  it('sends each kept scan with its own key, in order, and forgets it once taken', async () => {
    keepScan(scan('a'));
    // Scanned at a site's desk (issue 28): sent again with its site.
    keepScan({ ...scan('b'), site: 'site-b' });
    const send = vi.fn(() => Promise.resolve(ok));
    expect(await flushScans(send)).toBe(0);
    expect(send.mock.calls).toEqual([
      ['visitor', 'CODE-a', false, 'a', undefined],
      ['visitor', 'CODE-b', false, 'b', 'site-b'],
    ]);
    expect(pendingScans()).toEqual([]);
  });

  it('stops at the first scan the server still cannot take, and keeps it and those after', async () => {
    keepScan(scan('a'));
    keepScan(scan('b'));
    keepScan(scan('c'));
    const send = vi
      .fn<(...args: unknown[]) => Promise<CheckResult>>()
      .mockResolvedValueOnce(ok)
      .mockRejectedValueOnce(new ApiError(503, 'Base de données indisponible.'));
    expect(await flushScans(send)).toBe(2);
    expect(send).toHaveBeenCalledTimes(2);
    expect(pendingScans().map((s) => s.key)).toEqual(['b', 'c']);
  });

  it('drops a scan the server refused: there is nothing to retry', async () => {
    keepScan(scan('a'));
    keepScan(scan('b'));
    const send = vi
      .fn<(...args: unknown[]) => Promise<CheckResult>>()
      .mockRejectedValueOnce(new ApiError(404, 'Code inconnu.'))
      .mockResolvedValueOnce(ok);
    expect(await flushScans(send)).toBe(0);
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('drops a scan whose key the server says served another request (422), never sends it again', async () => {
    keepScan(scan('a'));
    const send = vi
      .fn<(...args: unknown[]) => Promise<CheckResult>>()
      .mockRejectedValue(
        new ApiError(422, "Cette clé d'idempotence a déjà servi pour une autre demande."),
      );
    expect(await flushScans(send)).toBe(0);
    expect(await flushScans(send)).toBe(0);
    expect(send).toHaveBeenCalledTimes(1);
    expect(pendingScans()).toEqual([]);
  });

  it('runs one flush at a time: a second call joins the first', async () => {
    keepScan(scan('a'));
    let release!: () => void;
    const send = vi.fn(
      () =>
        new Promise<CheckResult>((resolve) => {
          release = () => resolve(ok);
        }),
    );
    const first = flushScans(send);
    const second = flushScans(send);
    expect(second).toBe(first);
    release();
    expect(await first).toBe(0);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('retries only what the server did not decide', () => {
    for (const status of [0, 408, 429, 502, 503, 504]) {
      expect(isRetryable(new ApiError(status, undefined))).toBe(true);
    }
    // 422: the key was already used for another request (issue 26 §6), which a retry
    // with the same key can never change.
    for (const status of [400, 401, 403, 404, 409, 422, 500]) {
      expect(isRetryable(new ApiError(status, undefined))).toBe(false);
    }
    expect(isRetryable(new Error('boom'))).toBe(false);
  });

  it('makes keys the server accepts, different each time', () => {
    const key = newScanKey();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(newScanKey()).not.toBe(key);
  });
});
