/**
 * The live feed (issue 14): the database announces every check made or closed and
 * every request filed or decided (triggers of migration 0008, channel 'sesame_live'),
 * whichever code path and whichever server instance wrote it. Each instance LISTENs
 * on ONE dedicated connection — not a pool client: a pooled client would be held
 * forever and lost silently when PostgreSQL drops it — and fans the events out in
 * process to its own live screens (the SSE route filters each screen's companies).
 *
 * The same connection hears 'sesame_session' (issue 26 §4, migration 0023): a session
 * revoked (logout, a new password, a disabled account) or a person's rights changed
 * (role, account status, company, password), so each instance ends that person's open
 * streams at once rather than when they next reconnect.
 *
 * When that connection drops — its error or end, or a probe it no longer answers (a
 * silent network cut sends neither) — the hub tells every screen it is `interrupted`
 * and opens it again with back-off; notifications sent meanwhile are lost, so once
 * it listens again the hub tells every screen to `resync` (refetch what it shows, and
 * the route checks each stream's session again). On PGlite the one in-process
 * database notifies directly.
 */
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import { liveEventSchema, type LiveEvent } from '@sesame/shared';
import type { Database } from '../db/client';

export const LIVE_CHANNEL = 'sesame_live';
/** Sessions ended and rights changed (migration 0023's triggers). */
export const SESSION_CHANNEL = 'sesame_session';
/** The LISTEN connection's application_name: how an operator (or a test) finds it in pg_stat_activity. */
export const LISTENER_NAME = 'sesame-live';

/** A session ended (`session_id`), or every session of a person whose rights changed. */
export interface AccessChange {
  type: 'accessChanged';
  userId: string;
  /** Only this session; null: every session of the person. */
  sessionId: string | null;
}

/**
 * What a listener is told: an event; that the feed is cut and events are being missed
 * (`interrupted`); that it is back and events may have been missed (`resync`); or
 * that someone's access changed.
 */
export type LiveMessage = LiveEvent | { type: 'resync' } | { type: 'interrupted' } | AccessChange;
export type LiveListener = (message: LiveMessage) => void;

const EVENT_TYPES: ReadonlySet<string> = new Set(
  liveEventSchema.options.map((option) => option.shape.type.value),
);

/** A message that is an event of the live lists (not the feed's state nor an access change). */
export function isLiveEvent(message: LiveMessage): message is LiveEvent {
  return EVENT_TYPES.has(message.type);
}

export interface LiveTiming {
  /** Back-off between attempts to reopen the LISTEN connection. */
  reconnectMs: { first: number; max: number };
  /** How often the LISTEN connection is asked a `select 1`, and how long it has to answer. */
  probe: { everyMs: number; timeoutMs: number };
}

const DEFAULT_TIMING: LiveTiming = {
  reconnectMs: { first: 250, max: 5_000 },
  // Generous against a busy database (a false alarm makes every screen refetch), short
  // enough that a cut nobody announced shows on the screens within seconds.
  probe: { everyMs: 5_000, timeoutMs: 4_000 },
};

const accessPayload = z.object({ user_id: z.string(), session_id: z.string().optional() });

export interface Source {
  /** Starts listening; `onPayload` gets each notification, `onLost` when the connection drops. */
  start(
    onPayload: (channel: string, payload: string) => void,
    onLost: (error: unknown) => void,
  ): Promise<void>;
  stop(): Promise<void>;
}

interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

function pgliteSource(client: PgliteLike): Source {
  let unlisten: (() => Promise<void>)[] = [];
  return {
    async start(onPayload) {
      for (const channel of [LIVE_CHANNEL, SESSION_CHANNEL]) {
        unlisten.push(await client.listen(channel, (payload) => onPayload(channel, payload)));
      }
    },
    async stop() {
      for (const stop of unlisten) await stop().catch(() => undefined);
      unlisten = [];
    },
  };
}

function postgresSource(pool: pg.Pool, probe: LiveTiming['probe']): Source {
  let client: pg.Client | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  return {
    async start(onPayload, onLost) {
      // The pool's own settings (address, timeouts, keep-alive), on a connection of its own.
      const next = new pg.Client({
        ...(pool as unknown as { options: pg.ClientConfig }).options,
        application_name: LISTENER_NAME,
      });
      let lost = false;
      let listening = false;
      // Only a connection that was listening is "lost"; a failed start is the caller's to retry.
      const drop = (error: unknown) => {
        if (lost) return;
        lost = true;
        clearInterval(timer);
        next.removeAllListeners('notification');
        next.end().catch(() => undefined);
        if (client === next) client = undefined;
        if (listening) onLost(error);
      };
      // A partition sends no error and no end: only a question left unanswered shows it.
      let asking = false;
      const timer = setInterval(() => {
        if (!listening || asking) return;
        asking = true;
        let late: NodeJS.Timeout | undefined;
        const unanswered = new Promise<never>((_, reject) => {
          late = setTimeout(
            () => reject(new Error('LISTEN connection did not answer its probe')),
            probe.timeoutMs,
          );
        });
        Promise.race([next.query('select 1'), unanswered])
          .then(
            () => undefined,
            (error: unknown) => drop(error),
          )
          .finally(() => {
            clearTimeout(late);
            asking = false;
          });
      }, probe.everyMs);
      timer.unref();
      next.on('error', drop);
      next.on('end', () => drop(new Error('LISTEN connection ended')));
      next.on('notification', (message) => {
        if (message.payload) onPayload(message.channel, message.payload);
      });
      client = next;
      probeTimer = timer;
      try {
        await next.connect();
        await next.query(`LISTEN ${LIVE_CHANNEL}; LISTEN ${SESSION_CHANNEL}`);
        listening = true;
      } catch (error) {
        drop(error);
        throw error;
      }
    },
    async stop() {
      clearInterval(probeTimer);
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
  private retryMs: number;
  private cut = false;

  constructor(
    private readonly source: Source,
    private readonly log: FastifyBaseLogger,
    private readonly timing: LiveTiming = DEFAULT_TIMING,
  ) {
    this.retryMs = timing.reconnectMs.first;
  }

  static for(db: Database, log: FastifyBaseLogger, timing: LiveTiming = DEFAULT_TIMING): LiveHub {
    const client: unknown = (db as { $client?: unknown }).$client;
    const source =
      client instanceof pg.Pool
        ? postgresSource(client, timing.probe)
        : pgliteSource(client as PgliteLike);
    return new LiveHub(source, log, timing);
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

  /** The LISTEN connection is down: events are being missed until the next `resync`. */
  get interrupted(): boolean {
    return this.cut;
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
      (channel, payload) => this.dispatch(channel, payload),
      (error) => this.lost(error),
    );
  }

  private dispatch(channel: string, payload: string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return;
    }
    if (channel === SESSION_CHANNEL) {
      const access = accessPayload.safeParse(parsed);
      if (!access.success) return;
      this.broadcast({
        type: 'accessChanged',
        userId: access.data.user_id,
        sessionId: access.data.session_id ?? null,
      });
      return;
    }
    if (channel !== LIVE_CHANNEL) return;
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

  /** The LISTEN connection dropped: screens hear so now; reopen it with back-off, then resync. */
  private lost(error: unknown): void {
    if (this.closed) return;
    this.log.warn({ err: error }, 'live feed connection lost; reconnecting');
    if (!this.cut) {
      this.cut = true;
      this.broadcast({ type: 'interrupted' });
    }
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.open().then(
        () => {
          this.started = Promise.resolve();
          this.retryMs = this.timing.reconnectMs.first;
          this.cut = false;
          this.log.info('live feed connection back');
          this.broadcast({ type: 'resync' });
        },
        () => {
          this.retryMs = Math.min(this.retryMs * 2, this.timing.reconnectMs.max);
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
