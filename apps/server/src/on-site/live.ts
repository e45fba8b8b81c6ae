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
 *
 * Behind a pooler in transaction mode (PgBouncer) a LISTEN is accepted and then nothing
 * ever arrives: the server connection it ran on went back to the pool. DATABASE_LISTEN_URL
 * names PostgreSQL's direct address for this one connection (issue 32), and `verify()`
 * (at start, main.ts) proves the feed hears a NOTIFY sent the way the app's writes send
 * theirs, or says in one sentence what is wrong; /api/ready reports it.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import { liveEventSchema, type LiveEvent } from '@sesame/shared';
import type { Database } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live feed of this app (app.ts): the SSE route, /api/ready and /metrics read it. */
    liveHub: LiveHub;
  }
}

export const LIVE_CHANNEL = 'sesame_live';
/** Sessions ended and rights changed (migration 0023's triggers). */
export const SESSION_CHANNEL = 'sesame_session';
/** The start check's own channel: a NOTIFY the hub sends itself, heard by nobody else. */
export const CHECK_CHANNEL = 'sesame_listen_check';
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
  /** How long `verify()` waits for its own NOTIFY, and how often a failed one is tried again. */
  verify?: { waitMs: number; retryMs: number };
}

const DEFAULT_TIMING: LiveTiming & Required<Pick<LiveTiming, 'verify'>> = {
  reconnectMs: { first: 250, max: 5_000 },
  // Generous against a busy database (a false alarm makes every screen refetch), short
  // enough that a cut nobody announced shows on the screens within seconds.
  probe: { everyMs: 5_000, timeoutMs: 4_000 },
  // A NOTIFY is heard within milliseconds; seconds cover a loaded database. Tried again
  // so that a database that was slow at start does not leave the instance unready.
  verify: { waitMs: 3_000, retryMs: 30_000 },
};

/**
 * What /api/ready says of the feed: it heard its own NOTIFY (`ok`); not checked yet or
 * checking (`starting`); it listens but hears nothing, or cannot listen (`deaf`); its
 * connection dropped and is being reopened (`interrupted`).
 */
export type ListenerState = 'ok' | 'starting' | 'deaf' | 'interrupted';

/** Sends a NOTIFY through the app's own pool, as its writes do. */
export type Notifier = (channel: string, payload: string) => Promise<void>;

/** Where the feed listens: the one sentence on a failed check names the setting to change. */
interface ListenSetting {
  kind: 'postgres' | 'pglite';
  /** DATABASE_LISTEN_URL is set. */
  listenUrl: boolean;
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The one sentence an operator reads when the start check fails. */
export function deafSentence(
  setting: ListenSetting,
  failure: { connect: unknown } | { send: unknown } | 'silent',
): string {
  const lead = 'The live screens receive nothing:';
  if (failure !== 'silent' && 'connect' in failure) {
    return setting.listenUrl
      ? `${lead} the listener cannot connect to DATABASE_LISTEN_URL (${reason(failure.connect)}); check that address.`
      : `${lead} the listener cannot connect to the database (${reason(failure.connect)}).`;
  }
  if (failure !== 'silent') {
    return `${lead} the database refused the start check's NOTIFY (${reason(failure.send)}); it is tried again.`;
  }
  if (setting.kind === 'pglite')
    return `${lead} the embedded database's notifications do not arrive; restart the server.`;
  return setting.listenUrl
    ? `${lead} DATABASE_LISTEN_URL does not hear the database DATABASE_URL writes to; point it at PostgreSQL's direct address of that same database, not at a pooler.`
    : `${lead} DATABASE_URL seems to point at a pooler in transaction mode; set DATABASE_LISTEN_URL to PostgreSQL's direct address.`;
}

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
      for (const channel of [LIVE_CHANNEL, SESSION_CHANNEL, CHECK_CHANNEL]) {
        unlisten.push(await client.listen(channel, (payload) => onPayload(channel, payload)));
      }
    },
    async stop() {
      for (const stop of unlisten) await stop().catch(() => undefined);
      unlisten = [];
    },
  };
}

/** Where a pg.ClientConfig says to connect; replaced as a whole by DATABASE_LISTEN_URL. */
const ADDRESS_KEYS = ['connectionString', 'host', 'port', 'user', 'password', 'database'] as const;

/** The pool's settings (timeouts, keep-alive), at `listenUrl` when set, else the pool's address. */
export function listenerConfig(pool: pg.Pool, listenUrl: string | undefined): pg.ClientConfig {
  // pg keeps a pool's settings in `options`, which its types do not say (pg 8).
  const options = { ...(pool as unknown as { options: pg.ClientConfig }).options };
  if (listenUrl) {
    for (const key of ADDRESS_KEYS) delete options[key];
    options.connectionString = listenUrl;
  }
  return { ...options, application_name: LISTENER_NAME };
}

function postgresSource(
  pool: pg.Pool,
  probe: LiveTiming['probe'],
  listenUrl: string | undefined,
): Source {
  let client: pg.Client | undefined;
  let probeTimer: NodeJS.Timeout | undefined;
  return {
    async start(onPayload, onLost) {
      // A connection of its own, never one of the pool's.
      const next = new pg.Client(listenerConfig(pool, listenUrl));
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
        await next.query(
          `LISTEN ${LIVE_CHANNEL}; LISTEN ${SESSION_CHANNEL}; LISTEN ${CHECK_CHANNEL}`,
        );
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
  /** The start check: not run, running, heard, or failed (with the sentence said). */
  private receiving: 'unchecked' | 'checking' | 'ok' | 'deaf' = 'unchecked';
  private checking: Promise<boolean> | undefined;
  private recheckTimer: NodeJS.Timeout | undefined;
  /** The check's NOTIFY awaited: its payload and what to call when it arrives. */
  private readonly awaited = new Map<string, () => void>();
  private lastSentence: string | undefined;

  constructor(
    private readonly source: Source,
    private readonly log: FastifyBaseLogger,
    private readonly timing: LiveTiming = DEFAULT_TIMING,
    private readonly notify?: Notifier,
    private readonly setting: ListenSetting = { kind: 'postgres', listenUrl: false },
  ) {
    this.retryMs = timing.reconnectMs.first;
  }

  /** The hub of `db`: on PostgreSQL it listens at `listenUrl` (DATABASE_LISTEN_URL) when set. */
  static for(
    db: Database,
    log: FastifyBaseLogger,
    timing: LiveTiming = DEFAULT_TIMING,
    listenUrl?: string,
  ): LiveHub {
    // drizzle's $client (the pool or PGlite) is not in the Database type.
    const client: unknown = (db as { $client?: unknown }).$client;
    const postgres = client instanceof pg.Pool;
    // Not a pg pool: PGlite, whose listen and query have this shape.
    const source = postgres
      ? postgresSource(client, timing.probe, listenUrl)
      : pgliteSource(client as PgliteLike);
    // In a transaction through the pool, as the triggers of every write send theirs: a
    // pooler lends it whichever server connection, exactly what the feed must survive.
    const notify: Notifier = async (channel, payload) => {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_notify(${channel}, ${payload})`);
      });
    };
    return new LiveHub(source, log, timing, notify, {
      kind: postgres ? 'postgres' : 'pglite',
      listenUrl: postgres && listenUrl !== undefined,
    });
  }

  /**
   * Adds a listener; the LISTEN connection opens with the first one, or earlier with the
   * start check (`verify`, main.ts). Resolves once the hub listens, so nothing after is missed.
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

  /** What /api/ready reports (ListenerState). */
  get state(): ListenerState {
    if (this.cut) return 'interrupted';
    if (this.receiving === 'ok') return 'ok';
    if (this.receiving === 'deaf') return 'deaf';
    return 'starting';
  }

  /** The feed listens and has heard its own NOTIFY: live screens get what is written. */
  get listening(): boolean {
    return this.state === 'ok';
  }

  /** The sentence of the last failed check, while it is failing. */
  get problem(): string | undefined {
    return this.receiving === 'deaf' ? this.lastSentence : undefined;
  }

  /**
   * The start check (main.ts; /api/ready runs it when nothing has): opens the LISTEN
   * connection, sends itself a NOTIFY through the pool, and waits for it. A failure is
   * logged once as one sentence and tried again every `verify.retryMs` until it passes.
   * Resolves whether the NOTIFY arrived; never rejects.
   */
  verify(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    return this.checking;
  }

  private async check(): Promise<boolean> {
    if (this.receiving !== 'deaf') this.receiving = 'checking';
    const failed = (failure: Parameters<typeof deafSentence>[1]) => {
      const sentence = deafSentence(this.setting, failure);
      // Said once while it lasts: the retries every 30 s would fill the log.
      if (this.receiving !== 'deaf' || sentence !== this.lastSentence) this.log.error(sentence);
      this.lastSentence = sentence;
      this.receiving = 'deaf';
      this.scheduleRecheck();
      return false;
    };
    try {
      await this.ensureStarted();
    } catch (error) {
      return failed({ connect: error });
    }
    if (!this.notify) return failed('silent');
    const payload = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<boolean>((resolve) => {
      this.awaited.set(payload, () => resolve(true));
      timer = setTimeout(
        () => resolve(false),
        (this.timing.verify ?? DEFAULT_TIMING.verify).waitMs,
      );
    });
    try {
      await this.notify(CHECK_CHANNEL, payload);
    } catch (error) {
      clearTimeout(timer);
      this.awaited.delete(payload);
      return failed({ send: error });
    }
    const arrived = await heard;
    clearTimeout(timer);
    this.awaited.delete(payload);
    if (this.closed) return false;
    if (!arrived) return failed('silent');
    if (this.receiving === 'deaf')
      this.log.info('The live screens receive again: the start check passed.');
    this.receiving = 'ok';
    this.lastSentence = undefined;
    return true;
  }

  private scheduleRecheck(): void {
    if (this.closed || this.recheckTimer) return;
    this.recheckTimer = setTimeout(
      () => {
        this.recheckTimer = undefined;
        void this.verify();
      },
      (this.timing.verify ?? DEFAULT_TIMING.verify).retryMs,
    );
    this.recheckTimer.unref();
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
    if (channel === CHECK_CHANNEL) {
      this.awaited.get(payload)?.();
      return;
    }
    // Every check made anywhere is announced: with no screen open here, none is read (a busy
    // desk's instance otherwise parses and validates each of them for nobody).
    if (this.listeners.size === 0) return;
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
    if (this.recheckTimer) clearTimeout(this.recheckTimer);
    // A check waiting for its NOTIFY ends now rather than at its deadline.
    for (const wake of this.awaited.values()) wake();
    if (this.checking) await this.checking;
    this.listeners.clear();
    if (this.started) await this.started.catch(() => undefined);
    await this.source.stop();
  }
}
