/**
 * The live feed (issue 14): Server-Sent Events read with fetch(), so the stream
 * carries the bearer token in its header like every other call (EventSource cannot
 * send one, and a token in a URL ends up in logs). When the stream ends or fails it
 * reconnects with back-off, and once connected again the screen refetches what it
 * shows (`onResync`): whatever happened meanwhile is caught up, nothing is lost.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { liveEventSchema, type LiveEvent } from '@sesame/shared';
import { languageHeader } from './language';
import { getToken } from './session';

export type LiveStatus = 'connecting' | 'live' | 'offline';

export interface LiveOptions {
  /** Narrow to one company (roles that see every company). */
  company?: string;
  onEvent: (event: LiveEvent) => void;
  /** Events may have been missed (a reconnection): refetch. */
  onResync: () => void;
  enabled?: boolean;
}

const BACKOFF_MS = { first: 1_000, max: 10_000 };

/** Splits an SSE text stream into (event, data) pairs. */
function parseBlocks(buffer: string): { blocks: [string, string][]; rest: string } {
  const blocks: [string, string][] = [];
  let rest = buffer.replace(/\r\n/g, '\n');
  let cut: number;
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    let type = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) type = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) blocks.push([type, data.join('\n')]);
  }
  return { blocks, rest };
}

export function useLiveFeed(options: LiveOptions): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const enabled = options.enabled ?? true;
  const company = options.company;

  useEffect(() => {
    if (!enabled) return;
    const abort = new AbortController();
    let backoff = BACKOFF_MS.first;
    let connectedBefore = false;

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
        setStatus((s) => (s === 'live' ? 'offline' : s));
        try {
          const token = getToken();
          const query = company ? `?company=${encodeURIComponent(company)}` : '';
          const response = await fetch(`/api/live${query}`, {
            headers: {
              accept: 'text/event-stream',
              ...languageHeader(),
              ...(token ? { authorization: `Bearer ${token}` } : {}),
            },
            signal: abort.signal,
            cache: 'no-store',
          });
          // Signed out or not allowed: no point in retrying.
          if (response.status === 401 || response.status === 403) {
            setStatus('offline');
            return;
          }
          if (!response.ok || !response.body) throw new Error(`live ${response.status}`);
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const parsed = parseBlocks(buffer + value);
            buffer = parsed.rest;
            for (const [type, data] of parsed.blocks) {
              if (type === 'ready') {
                setStatus('live');
                backoff = BACKOFF_MS.first;
                if (connectedBefore) latest.current.onResync();
                connectedBefore = true;
              } else if (type === 'resync') {
                latest.current.onResync();
              } else {
                const event = liveEventSchema.safeParse(JSON.parse(data));
                if (event.success) latest.current.onEvent(event.data);
              }
            }
          }
        } catch {
          if (abort.signal.aborted) return;
        }
        setStatus('offline');
        // A stream that ends on schedule reconnects at once; a failure waits longer each time.
        await wait(backoff);
        backoff = Math.min(backoff * 2, BACKOFF_MS.max);
      }
    };
    void run();
    return () => abort.abort();
  }, [enabled, company]);

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
