/**
 * The live feed (lib/live.ts) as a screen mounts it: `useLiveFeed` reading the server's
 * Server-Sent Events through a fake `fetch` whose answer is a stream the test writes to,
 * frame by frame, and ends. What it proves: the frames become events (split anywhere,
 * heartbeats ignored), the reconnection waits 1, 2, 4… up to 10 s and starts again at 1 s
 * once connected, the screen refetches after each reconnection (not after the first
 * connection), and a stream ended with the session (401 on reconnecting) ends the screen's
 * session and stops.
 */
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveEvent } from '@sesame/shared';
import { useLiveFeed, type LiveOptions } from '../src/lib/live';
import { SILENCE_LIMIT_MS } from '../src/lib/live-state';
import { getToken, onSessionEnded } from '../src/lib/session';

const TOKEN = 'token-of-the-session-0123456789';

/** One answer of the fake server: an open event stream, or a status without one. */
class Stream {
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  readonly response: Response;
  constructor() {
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
    });
    this.response = new Response(body, {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
  }
  async write(text: string) {
    await act(async () => {
      this.controller.enqueue(new TextEncoder().encode(text));
      await settle();
    });
  }
  /** As a browser's fetch does: the body fails once the request is aborted. */
  abortWith(signal: AbortSignal | null | undefined) {
    signal?.addEventListener('abort', () => {
      try {
        this.controller.error(new DOMException('aborted', 'AbortError'));
      } catch {
        // Already closed.
      }
    });
  }
  async end() {
    await act(async () => {
      this.controller.close();
      await settle();
    });
  }
}

/** Lets the stream's reads and the hook's promises run (no timer moves). */
async function settle() {
  for (let i = 0; i < 10; i++) await Promise.resolve();
  await new Promise<void>((resolve) => queueMicrotask(resolve));
}

/** Moves the fake clock and lets what it wakes run. */
async function wait(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    await settle();
  });
}

const frame = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
const READY = `retry: 2000\nevent: ready\ndata: {}\n\n`;
const PRESENCE = {
  type: 'presence',
  company_id: 'c1',
  site_id: null,
  person_id: 'p1',
  table: 'visitor',
  op: 'in',
} as const;

let answers: ((init?: RequestInit) => Promise<Response>)[];
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;

/** The next connection answers with a new stream (returned, to write to). */
function nextStream(): Stream {
  const stream = new Stream();
  answers.push((init) => {
    stream.abortWith(init?.signal);
    return Promise.resolve(stream.response);
  });
  return stream;
}
const nextStatus = (status: number) =>
  answers.push(() => Promise.resolve(new Response(null, { status })));
const nextFailure = () => answers.push(() => Promise.reject(new TypeError('Failed to fetch')));

function mount(options: Partial<LiveOptions> = {}) {
  const onEvent = vi.fn<(event: LiveEvent) => void>();
  const onResync = vi.fn();
  const hook = renderHook(() => useLiveFeed({ onEvent, onResync, ...options }));
  return { onEvent, onResync, hook, status: () => hook.result.current };
}

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.setItem('token', TOKEN);
  answers = [];
  fetchMock = vi.fn<typeof fetch>((_url, init) => {
    const answer = answers.shift();
    // An unplanned connection never answers (the test did not expect it).
    return answer ? answer(init) : new Promise<Response>(() => undefined);
  });
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the live feed (useLiveFeed)', () => {
  it('opens /api/live with the session’s token, the company and the site asked for', async () => {
    nextStream();
    const { hook } = mount({ company: 'acme', site: 's1' });
    await act(settle);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/live?company=acme&site=s1');
    expect(init?.headers).toMatchObject({
      accept: 'text/event-stream',
      authorization: `Bearer ${TOKEN}`,
    });
    hook.unmount();
  });

  it('reads the frames as events, split anywhere, heartbeats and unknown events ignored', async () => {
    const stream = nextStream();
    const { onEvent, onResync, status } = mount();
    await act(settle);
    expect(status()).toBe('connecting');
    await stream.write(READY);
    expect(status()).toBe('live');
    // The first connection is no reconnection: nothing to catch up on.
    expect(onResync).not.toHaveBeenCalled();

    const text = frame('presence', PRESENCE);
    await stream.write(': ping\n\n');
    await stream.write(text.slice(0, 17));
    expect(onEvent).not.toHaveBeenCalled();
    await stream.write(text.slice(17).replace(/\n/g, '\r\n'));
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith(PRESENCE);

    // Two events in one chunk; one the schema does not know is dropped.
    await stream.write(
      frame('request', { type: 'request', company_id: 'c1', request_id: 'r1', op: 'created' }) +
        frame('mystery', { type: 'mystery' }),
    );
    expect(onEvent).toHaveBeenCalledTimes(2);
    expect(onEvent).toHaveBeenLastCalledWith({
      type: 'request',
      company_id: 'c1',
      site_id: null,
      request_id: 'r1',
      op: 'created',
    });

    // The server's own feed cut, then back: interrupted, then a refetch.
    await stream.write(frame('interrupted', {}));
    expect(status()).toBe('interrupted');
    await stream.write(frame('resync', {}));
    expect(status()).toBe('live');
    expect(onResync).toHaveBeenCalledTimes(1);
  });

  it('reconnects after 1, 2, 4, 8, 10, 10 s of failures, then after 1 s again once connected', async () => {
    for (let i = 0; i < 6; i++) nextFailure();
    const { status } = mount();
    await act(settle);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(status()).toBe('offline');

    let calls = 1;
    for (const delay of [1_000, 2_000, 4_000, 8_000, 10_000]) {
      await wait(delay - 1);
      expect(fetchMock, `not before ${delay} ms`).toHaveBeenCalledTimes(calls);
      await wait(1);
      expect(fetchMock, `after ${delay} ms`).toHaveBeenCalledTimes(++calls);
    }
    // The sixth failure waits the cap again; this time the server answers.
    const stream = nextStream();
    await wait(10_000);
    expect(fetchMock).toHaveBeenCalledTimes(7);
    await stream.write(READY);
    expect(status()).toBe('live');

    // The stream ends on schedule: the next try is a second later, not ten.
    nextStream();
    await stream.end();
    expect(status()).toBe('offline');
    await wait(999);
    expect(fetchMock).toHaveBeenCalledTimes(7);
    await wait(1);
    expect(fetchMock).toHaveBeenCalledTimes(8);
  });

  it('refetches once reconnected (events may have been missed), not on the first connection', async () => {
    const first = nextStream();
    const { onResync, status } = mount();
    await act(settle);
    await first.write(READY);
    expect(onResync).not.toHaveBeenCalled();

    const second = nextStream();
    await first.end();
    expect(status()).toBe('offline');
    await wait(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    // Not before the server says it listens again.
    expect(onResync).not.toHaveBeenCalled();
    await second.write(READY);
    expect(onResync).toHaveBeenCalledTimes(1);
    expect(status()).toBe('live');
  });

  it('gives up a silent stream (no heartbeat) and opens another, interrupted meanwhile', async () => {
    const first = nextStream();
    const { onResync, status } = mount();
    await act(settle);
    await first.write(READY);
    const second = nextStream();
    await wait(SILENCE_LIMIT_MS);
    expect(status()).toBe('interrupted');
    await wait(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await second.write(READY);
    expect(status()).toBe('live');
    expect(onResync).toHaveBeenCalledTimes(1);
  });

  it('ends the screen’s session when the stream ends with it (401 on reconnecting), and stops', async () => {
    const ended = vi.fn();
    const unsubscribe = onSessionEnded(ended);
    const stream = nextStream();
    const { onResync, status } = mount();
    await act(settle);
    await stream.write(READY);

    // The server ends the stream as the session ends; the reconnection hears why.
    nextStatus(401);
    await stream.end();
    await wait(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(getToken()).toBeNull();
    expect(status()).toBe('offline');
    // No retry, however long the screen stays open.
    await wait(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(onResync).not.toHaveBeenCalled();
    unsubscribe();
  });

  it('keeps a session signed in again meanwhile: a 401 for the old token ends nothing', async () => {
    const ended = vi.fn();
    const unsubscribe = onSessionEnded(ended);
    let answer!: (response: Response) => void;
    answers.push(() => new Promise<Response>((resolve) => (answer = resolve)));
    mount();
    await act(settle);
    // Someone signs in again while the old token's request is on its way.
    localStorage.setItem('token', 'a-new-token-0123456789');
    await act(async () => {
      answer(new Response(null, { status: 401 }));
      await settle();
    });
    expect(ended).not.toHaveBeenCalled();
    expect(getToken()).toBe('a-new-token-0123456789');
    await wait(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('stops listening on a 403, and closes the stream when the screen goes', async () => {
    nextStatus(403);
    mount();
    await act(settle);
    await wait(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    const stream = nextStream();
    const { hook } = mount();
    await act(settle);
    await stream.write(READY);
    const signal = fetchMock.mock.calls[1]![1]!.signal!;
    expect(signal.aborted).toBe(false);
    hook.unmount();
    expect(signal.aborted).toBe(true);
    await wait(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});
