/**
 * The live feed (issue 14): Server-Sent Events read with fetch(), so the stream
 * carries the bearer token in its header like every other call (EventSource cannot
 * send one, and a token in a URL ends up in logs). When the stream ends or fails it
 * reconnects with back-off, and once connected again the screen refetches what it
 * shows (`onResync`): whatever happened meanwhile is caught up, nothing is lost.
 *
 * The server ends a stream when its session ends or its role changes (issue 26 §4): the
 * reconnection then says which — a 401 ends the screen's session (lib/session.ts), a
 * 403 stops listening, a 200 hears as the new role. While the server's own feed is cut,
 * or the stream is silent past two heartbeats, the screen shows the feed as interrupted
 * until it refetches (lib/live-state.ts).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { liveEventSchema, type LiveEvent } from '@sesame/shared';
import { languageHeader } from './language';
import { nextLiveStatus, parseBlocks, SILENCE_LIMIT_MS, type LiveStatus } from './live-state';
import { endSession, getToken } from './session';

export type { LiveStatus } from './live-state';

export interface LiveOptions {
  /** Narrow to one company (roles that see every company). */
  company?: string;
  /** One site's events only (issue 28: a front-desk screen opened on a site). */
  site?: string;
  onEvent: (event: LiveEvent) => void;
  /** Events may have been missed (a reconnection): refetch. */
  onResync: () => void;
  enabled?: boolean;
}

const BACKOFF_MS = { first: 1_000, max: 10_000 };

export function useLiveFeed(options: LiveOptions): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const enabled = options.enabled ?? true;
  const company = options.company;
  const site = options.site;

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let backoff = BACKOFF_MS.first;
    let connectedBefore = false;
    const signal = (what: Parameters<typeof nextLiveStatus>[1]) =>
      setStatus((s) => nextLiveStatus(s, what));

    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        abort.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });

    const run = async () => {
      while (!abort.signal.aborted) {
        signal('connecting');
        // This connection only: a silent stream is given up and opened again.
        const connection = new AbortController();
        const stop = () => connection.abort();
        abort.signal.addEventListener('abort', stop);
        let silence: ReturnType<typeof setTimeout> | undefined;
        const heard = () => {
          clearTimeout(silence);
          silence = setTimeout(() => {
            signal('silent');
            connection.abort();
          }, SILENCE_LIMIT_MS);
        };
        // A request that never answers is a silence too.
        heard();
        try {
          const token = getToken();
          const params = new URLSearchParams();
          if (company) params.set('company', company);
          if (site) params.set('site', site);
          const query = params.toString() ? `?${params.toString()}` : '';
          const response = await fetch(`/api/live${query}`, {
            headers: {
              accept: 'text/event-stream',
              ...languageHeader(),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            signal: connection.signal,
            cache: 'no-store',
          });
          // Signed out (the server ended the stream with the session) or not allowed: no
          // point in retrying. A 401 ends this screen's session, unless a new sign-in
          // replaced the token the stream was opened with.
          if (response.status === 401 || response.status === 403) {
            if (response.status === 401 && token && getToken() === token) endSession();
            signal('closed');
            return;
          }
          if (!response.ok || !response.body) throw new Error(`live ${response.status}`);
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            heard();
            const parsed = parseBlocks(buffer + value);
            buffer = parsed.rest;
            for (const [type, data] of parsed.blocks) {
              if (type === 'ready') {
                signal('ready');
                backoff = BACKOFF_MS.first;
                if (connectedBefore) latest.current.onResync();
                connectedBefore = true;
              } else if (type === 'interrupted') {
                signal('interrupted');
              } else if (type === 'resync') {
                signal('resync');
                latest.current.onResync();
              } else {
                const event = liveEventSchema.safeParse(JSON.parse(data));
                if (event.success) latest.current.onEvent(event.data);
              }
            }
          }
        } catch {
          if (abort.signal.aborted) return;
        } finally {
          clearTimeout(silence);
          abort.signal.removeEventListener('abort', stop);
        }
        signal('closed');
        // A stream that ends on schedule reconnects after a second; a failure waits longer each time.
        await wait(backoff);
        backoff = Math.min(backoff * 2, BACKOFF_MS.max);
      }
    };
    void run();
    return () => abort.abort();
  }, [enabled, company, site]);

  return status;
}

/**
 * Invalidates `keys` at most once per `gapMs` (the last change always lands): at
 * fifty scans a second, a screen refetches a few times a second, not fifty.
 */
export function useThrottledInvalidate(keys: QueryKey[], gapMs = 400): () => void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const serialized = JSON.stringify(keys);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      for (const queryKey of JSON.parse(serialized) as QueryKey[])
        void client.invalidateQueries({ queryKey });
    }, gapMs);
  }, [client, serialized, gapMs]);
}

/** A short two-note chime made on the spot (Web Audio): no sound file to load. */
export function playChime(): void {
  const Context =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  try {
    const audio = new Context();
    const start = audio.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      const at = start + i * 0.16;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.15);
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + 0.16);
    }
    setTimeout(() => void audio.close(), 600);
  } catch {
    // A browser that refuses audio before any click: the visible cue remains.
  }
}
