/**
 * A live screen in a test: `GET /api/live` opened over HTTP (the server must listen) and
 * read as the browser does, event by event. It remembers every event's type in order
 * (`ready`, `interrupted`, `resync`, the list events) and whether the server ended the
 * stream, and waits for either without a fixed sleep.
 */
import type { LiveEvent } from '@sesame/shared';
import { readEvents } from './sse';

export interface LiveStream {
  /** The list events heard (presence, request, rollCall), in order. */
  seen: LiveEvent[];
  /** Every event's type, in order of arrival. */
  types: string[];
  /** The next list event matching `match`, or a failure after `deadlineMs`. */
  next(match: (event: LiveEvent) => boolean, deadlineMs?: number): Promise<LiveEvent>;
  /** Waits for an event of this type (`interrupted`, `resync`); fails after `deadlineMs`. */
  heard(type: string, deadlineMs?: number): Promise<void>;
  /** How many times the server said events may have been missed. */
  resyncs(): number;
  /** Resolves with the time (Date.now()) the server ended the stream; never on `close()`. */
  ended: Promise<number>;
  /** Whether the server has ended the stream. */
  isEnded(): boolean;
  /** The screen goes away. */
  close(): void;
}

/** Opens a stream as `token`; fails unless the server answers 200 with an event stream. */
export async function openLiveStream(base: string, token: string, query = ''): Promise<LiveStream> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/live${query}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
    throw new Error(`the live stream answered ${res.status}: ${await res.text()}`);
  }
  const seen: LiveEvent[] = [];
  const types: string[] = [];
  const waiters = new Set<() => void>();
  const wakeAll = () => {
    for (const wake of waiters) wake();
  };
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  let serverEnded = false;
  // `readEvents` returns when the server ends the stream, or when `close` aborts it: only
  // the first resolves `ended`.
  const ended = new Promise<number>((resolve) => {
    void readEvents(res, (type, data) => {
      if (!type) return;
      types.push(type);
      if (type === 'ready') ready();
      else if (type !== 'resync' && type !== 'interrupted' && data)
        seen.push(JSON.parse(data) as LiveEvent);
      wakeAll();
    }).then(() => {
      ready();
      wakeAll();
      if (abort.signal.aborted) return;
      serverEnded = true;
      resolve(Date.now());
    });
  });
  await isReady;

  /** Waits until `found` holds; fails with `what` after `deadlineMs`. */
  const waitUntil = async (found: () => boolean, what: () => string, deadlineMs: number) => {
    const deadline = Date.now() + deadlineMs;
    while (!found()) {
      if (Date.now() > deadline) throw new Error(what());
      await new Promise<void>((resolve) => {
        const wake = () => {
          waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, deadline - Date.now() + 1);
        waiters.add(wake);
      });
    }
  };

  return {
    seen,
    types,
    resyncs: () => types.filter((type) => type === 'resync').length,
    ended,
    isEnded: () => serverEnded,
    close: () => abort.abort(),
    async next(match, deadlineMs = 5_000) {
      await waitUntil(
        () => seen.some(match),
        () => `no matching event; seen ${JSON.stringify(seen)}`,
        deadlineMs,
      );
      return seen.find(match)!;
    },
    async heard(type, deadlineMs = 5_000) {
      await waitUntil(
        () => types.includes(type),
        () => `no ${type} event; heard ${JSON.stringify(types)}`,
        deadlineMs,
      );
    },
  };
}
