/**
 * The live feed (issue 14): the database announces every check made or closed and
 * every request filed or decided (triggers of migration 0008, channel 'sesame_live'),
 * whichever code path and whichever server instance wrote it. Each instance LISTENs
 * on ONE dedicated connection — not a pool client: a pooled client would be held
 * forever and lost silently when PostgreSQL drops it — and fans the events out in
 * process to its own live screens (the SSE route filters each screen's companies).
 *
 * When that connection drops it is opened again with back-off; notifications sent
 * meanwhile are lost, so on reconnecting the hub tells every screen to `resync`
 * (refetch what it shows). On PGlite the one in-process database notifies directly.
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { liveEventSchema, type LiveEvent } from '@sesame/shared';
import type { Database } from '../db/client';

export const LIVE_CHANNEL = 'sesame_live';

/** What a screen is told: an event, or that events may have been missed. */
export type LiveMessage = LiveEvent | { type: 'resync' };
export type LiveListener = (message: LiveMessage) => void;

/** Back-off between attempts to reopen the LISTEN connection. */
const RECONNECT_MS = { first: 250, max: 5_000 };

interface Source {
  /** Starts listening; `onMessage` gets each payload, `onLost` when the connection drops. */
  start(onPayload: (payload: string) => void, onLost: (error: unknown) => void): Promise<void>;
  stop(): Promise<void>;
}

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

function pgliteSource(client: PgliteLike): Source {
  let unlisten: (() => Promise<void>) | undefined;
  return {
    async start(onPayload) {
      unlisten = await client.listen(LIVE_CHANNEL, onPayload);
    },
    async stop() {
      await unlisten?.().catch(() => undefined);
      unlisten = undefined;
    },
  };
}

function postgresSource(pool: pg.Pool): Source {
  let client: pg.Client | undefined;
  return {
    async start(onPayload, onLost) {
      // The pool's own settings (address, timeouts, keep-alive), on a connection of its own.
      const next = new pg.Client({ ...(pool as unknown as { options: pg.ClientConfig }).options });
      let lost = false;
      let listening = false;
      // Only a connection that was listening is "lost"; a failed start is the caller's to retry.
      const drop = (error: unknown) => {
        if (lost) return;
        lost = true;
        next.removeAllListeners('notification');
        next.end().catch(() => undefined);
        if (client === next) client = undefined;
        if (listening) onLost(error);
      };
      next.on('error', drop);
      next.on('end', () => drop(new Error('LISTEN connection ended')));
      next.on('notification', (message) => {
        if (message.channel === LIVE_CHANNEL && message.payload) onPayload(message.payload);
      });
      client = next;
      try {
        await next.connect();
        await next.query(`LISTEN ${LIVE_CHANNEL}`);
        listening = true;
      } catch (error) {
        drop(error);
        throw error;
      }
    },
    async stop() {
      const current = client;
      client = undefined;
      if (!current) return;
      current.removeAllListeners();
      current.on('error', () => undefined);
      await current.end().catch(() => undefined);
    },
  };
}

export class LiveHub {
  private readonly listeners = new Set<LiveListener>();
  private started: Promise<void> | undefined;
  private closed = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = RECONNECT_MS.first;

  constructor(
    private readonly source: Source,
    private readonly log: FastifyBaseLogger,
  ) {}

  static for(db: Database, log: FastifyBaseLogger): LiveHub {
    const client: unknown = (db as { $client?: unknown }).$client;
    const source =
      client instanceof pg.Pool ? postgresSource(client) : pgliteSource(client as PgliteLike);
    return new LiveHub(source, log);
  }

  /**
   * Adds a listener; the first one opens the LISTEN connection (a server nobody
   * watches holds none). Resolves once the hub listens, so nothing after is missed.
   */
  async subscribe(listener: LiveListener): Promise<() => void> {
    this.listeners.add(listener);
    try {
      await this.ensureStarted();
    } catch (error) {
      this.listeners.delete(listener);
      throw error;
    }
    return () => this.listeners.delete(listener);
  }

  get size(): number {
    return this.listeners.size;
  }

  private ensureStarted(): Promise<void> {
    this.started ??= this.open().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  private open(): Promise<void> {
    return this.source.start(
      (payload) => this.dispatch(payload),
      (error) => this.lost(error),
    );
  }

  private dispatch(payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    const event = liveEventSchema.safeParse(parsed);
    if (!event.success) return;
    this.broadcast(event.data);
  }

  private broadcast(message: LiveMessage): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (error) {
        this.log.warn({ err: error }, 'live listener failed');
      }
    }
  }

  /** The LISTEN connection dropped: reopen it with back-off, then tell screens to resync. */
  private lost(error: unknown): void {
    if (this.closed) return;
    this.log.warn({ err: error }, 'live feed connection lost; reconnecting');
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.open().then(
        () => {
          this.started = Promise.resolve();
          this.retryMs = RECONNECT_MS.first;
          this.log.info('live feed connection back');
          this.broadcast({ type: 'resync' });
        },
        () => {
          this.retryMs = Math.min(this.retryMs * 2, RECONNECT_MS.max);
          this.scheduleRetry();
        },
      );
    }, this.retryMs);
    this.retryTimer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.listeners.clear();
    if (this.started) await this.started.catch(() => undefined);
    await this.source.stop();
  }
}
