/**
 * The scanner's offline queue (issue 12 §2). A scan the server could not take
 * (no network, the database out: 503) is kept on this device with its
 * Idempotency-Key and sent again every few seconds and when the network comes
 * back. The server remembers each key's answer, so a retry never checks the
 * holder in or out twice, even when the first attempt did reach it.
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { checkCode, type CodeKind } from '../api/checks';

const STORAGE_KEY = 'sesame.pendingScans';
export const SCAN_RETRY_MS = 5_000;

export interface PendingScan {
  key: string;
  kind: CodeKind;
  uidn: string;
  manual: boolean;
  /** The desk's site it was scanned at (issue 28); sent again with it. */
  site?: string;
  /** When it was scanned (ms). */
  at: number;
}

/** A key for one scan: random, URL-safe, accepted by the server (8–100 characters). */
export function newScanKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether a failed scan should be kept and sent again (the server did not decide). */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && [0, 408, 429, 502, 503, 504].includes(error.status);
}

export function pendingScans(): PendingScan[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? (value as PendingScan[]) : [];
  } catch {
    return [];
  }
}

function save(scans: PendingScan[]): void {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(scans));
  window.dispatchEvent(new Event('sesame:pending-scans'));
}

export function keepScan(scan: PendingScan): void {
  const scans = pendingScans();
  if (!scans.some((s) => s.key === scan.key)) save([...scans, scan]);
}

function dropScan(key: string): void {
  save(pendingScans().filter((s) => s.key !== key));
}

let flushing: Promise<number> | null = null;

/**
 * Sends the kept scans in the order they were made, each with its own key; stops
 * at the first one the server still cannot take. Resolves with how many are left.
 */
export function flushScans(send = checkCode): Promise<number> {
  if (flushing) return flushing;
  const run = (async () => {
    for (const scan of pendingScans()) {
      try {
        await send(scan.kind, scan.uidn, scan.manual, scan.key, scan.site);
        dropScan(scan.key);
      } catch (error) {
        if (isRetryable(error)) break;
        dropScan(scan.key); // refused (unknown code, day over…): nothing to retry
      }
    }
    return pendingScans().length;
  })();
  // Cleared once this run settles, never before it is stored: a run with nothing to
  // send finishes synchronously, and clearing inside it would leave the settled
  // promise in place for good (no later retry would ever send).
  flushing = run;
  void run.finally(() => {
    if (flushing === run) flushing = null;
  });
  return run;
}

/** The number of scans waiting on this device; retries them while the page is open. */
export function usePendingScans(): number {
  const [count, setCount] = useState(() => pendingScans().length);
  const refresh = useCallback(() => setCount(pendingScans().length), []);
  useEffect(() => {
    const retry = () => void flushScans().then(refresh, refresh);
    retry();
    const timer = window.setInterval(retry, SCAN_RETRY_MS);
    window.addEventListener('online', retry);
    window.addEventListener('sesame:pending-scans', refresh);
    window.addEventListener('storage', refresh);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('online', retry);
      window.removeEventListener('sesame:pending-scans', refresh);
      window.removeEventListener('storage', refresh);
    };
  }, [refresh]);
  return count;
}
