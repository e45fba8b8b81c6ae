/**
 * The kiosk's offline queue (issue 29): a scanned arrival or departure the server could not
 * take (no network, the server out) is kept on the tablet with its Idempotency-Key and sent
 * once the network is back. Only the code read from the QR is kept — never a name: the
 * tablet keeps nothing of a visitor beyond the visit being typed. The server remembers each
 * key's answer, so a retry never checks anyone in or out twice.
 * Modelled on the desk scanner's queue (features/checkins/lib/scan-queue.ts).
 */
export const KIOSK_QUEUE_KEY = 'sesame.kioskPendingScans';

export type KioskCheckKind = 'check-in' | 'check-out';

export interface PendingKioskScan {
  key: string;
  kind: KioskCheckKind;
  code: string;
  /** When it was scanned (ms). */
  at: number;
}

/** The part of localStorage the queue uses (a stand-in in the tests). */
export type QueueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** An Idempotency-Key: random, URL-safe, 32 characters (the server takes 8 to 100). */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A failure the server did not decide (unreachable, busy, out): worth sending again. */
export function isRetryableStatus(status: number): boolean {
  return [0, 408, 429, 502, 503, 504].includes(status);
}

function isScan(value: unknown): value is PendingKioskScan {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.key === 'string' &&
    (v.kind === 'check-in' || v.kind === 'check-out') &&
    typeof v.code === 'string' &&
    typeof v.at === 'number'
  );
}

export interface KioskQueue {
  list(): PendingKioskScan[];
  keep(scan: PendingKioskScan): void;
  /**
   * Sends the kept scans in the order they were made, each once with its own key; stops at
   * the first one the server still cannot take (`send` throws a retryable status). A scan
   * the server refused for good (unknown code, another day) is dropped. Resolves with how
   * many are left.
   */
  flush(send: (scan: PendingKioskScan) => Promise<unknown>): Promise<number>;
}

export function createKioskQueue(
  storage: QueueStorage,
  statusOf: (error: unknown) => number,
  onChange: () => void = () => undefined,
): KioskQueue {
  const list = (): PendingKioskScan[] => {
    try {
      const value: unknown = JSON.parse(storage.getItem(KIOSK_QUEUE_KEY) ?? '[]');
      return Array.isArray(value) ? value.filter(isScan) : [];
    } catch {
      return [];
    }
  };
  const save = (scans: PendingKioskScan[]) => {
    storage.setItem(KIOSK_QUEUE_KEY, JSON.stringify(scans));
    onChange();
  };
  let flushing: Promise<number> | null = null;
  return {
    list,
    keep(scan) {
      const scans = list();
      if (!scans.some((s) => s.key === scan.key)) save([...scans, scan]);
    },
    flush(send) {
      if (flushing) return flushing;
      const run = (async () => {
        for (const scan of list()) {
          try {
            await send(scan);
          } catch (error) {
            if (isRetryableStatus(statusOf(error))) break;
          }
          save(list().filter((s) => s.key !== scan.key));
        }
        return list().length;
      })();
      flushing = run;
      void run.finally(() => {
        if (flushing === run) flushing = null;
      });
      return run;
    },
  };
}
