/**
 * Issue 26 §4: a live screen's stream (GET /api/live) ends within 2 s when its session
 * ends or its person's rights change — logout, a disabled account, a role change, a new
 * password — on every server instance (on PostgreSQL a second instance shares the
 * database; PGlite is one process's database). And issue 26 §0: when an instance's
 * LISTEN connection is cut, its screens are told at once (`interrupted`) and resync once
 * it is back; a session that ended meanwhile is not resynced but ended.
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import pg from 'pg';
import type { LiveEvent } from '@sesame/shared';
import { buildApp } from '../src/app';
import { openPostgres, type Database, type DatabaseHandle } from '../src/db/client';
import { userChecks, users } from '../src/db/schema';
import { createScimToken } from '../src/sso/scim-tokens';
import {
  LISTENER_NAME,
  LiveHub,
  SESSION_CHANNEL,
  type LiveMessage,
  type Source,
} from '../src/on-site/live';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildQrUser, buildTenant, buildUser, TEST_PASSWORD } from './helpers/factories';
import { openLiveStream, type LiveStream } from './helpers/live-stream';
import { until } from './helpers/poll';

type UserRow = Awaited<ReturnType<typeof buildUser>>;

const ctx = useTestApp();
const onPostgres = testDatabaseKind === 'postgres';
/** The bar: a stream outlives its session by 2 s at most. */
const WITHIN_MS = 2_000;

const silentLog = {
  warn: () => undefined,
  info: () => undefined,
} as unknown as FastifyBaseLogger;

const pool = () => (ctx.db as unknown as { $client: pg.Pool }).$client;
const databaseUrl = () =>
  (pool() as unknown as { options: { connectionString: string } }).options.connectionString;

/** The session id inside a token (its `sid` claim). */
const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;

/** What a second GET /api/live with this token answers: 200 (and it is closed), 401, 403. */
async function reconnects(base: string, token: string): Promise<number> {
  const abort = new AbortController();
  const res = await fetch(`${base}/api/live`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  abort.abort();
  return res.status;
}

/** A person's check-in of a QR card, straight in the table: every list screen hears it. */
async function someoneArrives(company: { id: string; siteId: string }) {
  const card = await buildQrUser(ctx.db, { company });
  await ctx.db.insert(userChecks).values({
    companyId: company.id,
    siteId: company.siteId,
    qrUserId: card.id,
    checkInMethod: 'scan',
  });
  return (event: LiveEvent) => event.type === 'presence' && event.person_id === card.id;
}

describe('a live stream ends with its session or its rights, on every instance', () => {
  /** Each instance's address: this app's, and on PostgreSQL a second one's on the same database. */
  const bases: string[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const streams: LiveStream[] = [];

  beforeAll(async () => {
    bases.push(await ctx.app.listen({ port: 0, host: '127.0.0.1' }));
    if (onPostgres) {
      const second: DatabaseHandle = await openPostgres(databaseUrl(), 4);
      const other: FastifyInstance = await buildApp({
        config: ctx.config,
        db: second.db,
        logger: false,
      });
      bases.push(await other.listen({ port: 0, host: '127.0.0.1' }));
      cleanups.push(async () => {
        await other.close();
        await second.close();
      });
    }
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** One stream per instance for `token`. */
  const openOnEveryInstance = async (token: string) => {
    const opened = await Promise.all(bases.map((base) => openLiveStream(base, token)));
    streams.push(...opened);
    return opened;
  };

  /** Runs `change` and expects every stream to end within WITHIN_MS of its start. */
  const endsWithin = async (opened: LiveStream[], change: () => Promise<unknown>) => {
    const at = Date.now();
    await change();
    const ends = await Promise.all(
      opened.map((stream) =>
        Promise.race([
          stream.ended,
          new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 5_000)),
        ]),
      ),
    );
    for (const endedAt of ends) expect(endedAt - at).toBeLessThan(WITHIN_MS);
  };

  it('logout ends that session’s streams; its other sessions and colleagues keep theirs', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = staff.ROLE_EMPLOYEE;
    const leaving = await tokenFor(ctx.app, desk.email);
    const otherTab = await tokenFor(ctx.app, desk.email);
    const colleague = await tokenFor(ctx.app, staff.ROLE_SUPERVISOR.email);
    const ending = await openOnEveryInstance(leaving);
    const staying = [
      ...(await openOnEveryInstance(otherTab)),
      ...(await openOnEveryInstance(colleague)),
    ];

    await endsWithin(ending, async () => {
      const res = await as(ctx.app, leaving)({ method: 'POST', url: '/api/logout' });
      expect(res.statusCode).toBe(200);
    });
    for (const base of bases) expect(await reconnects(base, leaving)).toBe(401);
    // The others still hear what happens.
    const arrival = await someoneArrives(company);
    for (const stream of staying) {
      await stream.next(arrival);
      expect(stream.isEnded()).toBe(false);
    }
  });

  /** PUT /api/user/:id as `admin`: the user's own fields, with `changes`. */
  const editUser = (admin: string, user: UserRow) => (changes: Record<string, unknown>) =>
    as(
      ctx.app,
      admin,
    )({
      method: 'PUT',
      url: `/api/user/${user.id}`,
      payload: {
        name: user.name,
        firstname: user.firstname,
        email: user.email,
        role: user.roles[0],
        status: true,
        company_id: user.companyId,
        ...changes,
      },
    });

  it('disabling the account ends every stream of the person, and they cannot reconnect', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const admin = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    const first = await tokenFor(ctx.app, desk.email);
    const second = await tokenFor(ctx.app, desk.email);
    const opened = [...(await openOnEveryInstance(first)), ...(await openOnEveryInstance(second))];
    await endsWithin(opened, async () => {
      const res = await editUser(admin, desk)({ status: false });
      expect(res.statusCode, res.body).toBe(200);
    });
    for (const base of bases) {
      expect(await reconnects(base, first)).toBe(401);
      expect(await reconnects(base, second)).toBe(401);
    }
  });

  it('deactivating the account by SCIM (issue 33) ends every stream of the person at once', async () => {
    const { company } = await buildTenant(ctx.db);
    const person = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    await ctx.db.update(users).set({ provisionedBy: 'scim' }).where(eq(users.id, person.id));
    const { token: directory } = await createScimToken(ctx.db, company.id, 'Entra ID', {
      userId: null,
      secret: ctx.config.jwtSecret,
    });
    const token = await tokenFor(ctx.app, person.email);
    const opened = await openOnEveryInstance(token);
    await endsWithin(opened, async () => {
      const res = await ctx.app.inject({
        method: 'PATCH',
        url: `/scim/v2/Users/${person.id}`,
        headers: { authorization: `Bearer ${directory}`, 'content-type': 'application/scim+json' },
        payload: {
          schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
          Operations: [{ op: 'replace', value: { active: false } }],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    for (const base of bases) expect(await reconnects(base, token)).toBe(401);
  });

  it('a role change ends the streams; the reconnection hears as the new role, or is refused', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const admin = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    const token = await tokenFor(ctx.app, desk.email);

    await endsWithin(await openOnEveryInstance(token), async () => {
      const res = await editUser(admin, desk)({ role: 'ROLE_SUPERVISOR' });
      expect(res.statusCode, res.body).toBe(200);
    });
    // Still signed in: the screen reconnects and listens as a supervisor.
    const again = await openOnEveryInstance(token);
    const arrival = await someoneArrives(company);
    for (const stream of again) await stream.next(arrival);

    // Demoted to a plain user (a host): the stream ends; the reconnection is accepted, as a
    // host hears their own invitations' news (issue 30), and nothing of the desk's lists.
    await endsWithin(again, async () => {
      const res = await editUser(admin, { ...desk, roles: ['ROLE_SUPERVISOR'] })({
        role: 'ROLE_USER',
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    for (const base of bases) expect(await reconnects(base, token)).toBe(200);
  });

  it('a password set by an admin ends the person’s streams; the old sessions are refused', async () => {
    const { company, staff } = await buildTenant(ctx.db);
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const admin = await tokenFor(ctx.app, staff.ROLE_ADMIN.email);
    const token = await tokenFor(ctx.app, desk.email);
    await endsWithin(await openOnEveryInstance(token), async () => {
      const res = await editUser(admin, desk)({ password: 'Un-Nouveau-Mot-2-Passe' });
      expect(res.statusCode, res.body).toBe(200);
    });
    for (const base of bases) expect(await reconnects(base, token)).toBe(401);
  });

  it('changing one’s own password ends the other sessions’ streams (and this one reconnects)', async () => {
    const { company } = await buildTenant(ctx.db);
    const desk = await buildUser(ctx.db, { company, role: 'ROLE_EMPLOYEE' });
    const here = await tokenFor(ctx.app, desk.email);
    const elsewhere = await tokenFor(ctx.app, desk.email);
    const opened = [
      ...(await openOnEveryInstance(here)),
      ...(await openOnEveryInstance(elsewhere)),
    ];
    await endsWithin(opened, async () => {
      const next = 'Mon-Nouveau-Secret-42';
      const res = await as(
        ctx.app,
        here,
      )({
        method: 'PUT',
        url: '/api/me/password',
        payload: { current_password: TEST_PASSWORD, new_password: next, confirm_password: next },
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    for (const base of bases) {
      expect(await reconnects(base, elsewhere)).toBe(401);
      expect(await reconnects(base, here)).toBe(200);
    }
  });

  it.runIf(onPostgres)(
    'a cut listener tells the screens at once, and they resync when it is back',
    async () => {
      const { company, staff } = await buildTenant(ctx.db);
      const token = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
      const [stream] = await openOnEveryInstance(token);
      const at = Date.now();
      // Every instance's listener on this database.
      const killed = await pool().query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = $1`,
        [LISTENER_NAME],
      );
      expect(killed.rowCount).toBeGreaterThan(0);
      await stream!.heard('interrupted', WITHIN_MS);
      expect(Date.now() - at).toBeLessThan(WITHIN_MS);
      await stream!.heard('resync', 10_000);
      expect(stream!.types.indexOf('interrupted')).toBeLessThan(stream!.types.indexOf('resync'));
      await stream!.next(await someoneArrives(company));
    },
  );

  it.runIf(onPostgres)(
    'while the listener is down a new screen hears it is interrupted, and a session ended meanwhile is not resynced but ended',
    async () => {
      const { company, staff } = await buildTenant(ctx.db);
      const leaving = await tokenFor(ctx.app, staff.ROLE_EMPLOYEE.email);
      const staying = await tokenFor(ctx.app, staff.ROLE_SUPERVISOR.email);
      const [ending] = await openOnEveryInstance(leaving);
      // The database refuses new connections for a moment: the listener cannot come back.
      const database = new URL(databaseUrl()).pathname.slice(1);
      const server = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      const inside = new pg.Client({ connectionString: databaseUrl() });
      await server.connect();
      await inside.connect();
      await server.query(`alter database ${database} allow_connections false`);
      try {
        await inside.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = current_database() and application_name = $1`,
          [LISTENER_NAME],
        );
        await ending!.heard('interrupted', WITHIN_MS);
        // A screen opened now is told at once that it hears nothing yet.
        const late = await openLiveStream(bases[0]!, staying);
        streams.push(late);
        await late.heard('interrupted', WITHIN_MS);
        expect(late.types.slice(0, 2)).toEqual(['ready', 'interrupted']);
        // Signed out while nobody listens: the announcement reaches no instance.
        await inside.query('update sessions set revoked_at = now() where id = $1', [
          sessionOf(leaving),
        ]);
        await server.query(`alter database ${database} allow_connections true`);
        await late.heard('resync', 15_000);
        await until(() => ending!.isEnded(), 'the signed-out stream to end', 5_000);
        expect(ending!.types).not.toContain('resync');
        await late.next(await someoneArrives(company));
      } finally {
        await server.query(`alter database ${database} allow_connections true`);
        await server.end();
        await inside.end();
      }
    },
  );
});

describe('the hub', () => {
  /** A LISTEN source the test drives: it delivers payloads and drops when told. */
  function fakeSource() {
    let deliver: ((channel: string, payload: string) => void) | undefined;
    let lose: ((error: unknown) => void) | undefined;
    let starts = 0;
    let refuse = false;
    const source: Source = {
      async start(onPayload, onLost) {
        starts += 1;
        if (refuse) throw new Error('refused');
        deliver = onPayload;
        lose = onLost;
      },
      async stop() {},
    };
    return {
      source,
      send: (channel: string, payload: string) => deliver?.(channel, payload),
      drop: () => lose?.(new Error('cut')),
      refuse: (value: boolean) => (refuse = value),
      starts: () => starts,
    };
  }
  const timing = { reconnectMs: { first: 20, max: 40 }, probe: { everyMs: 1_000, timeoutMs: 500 } };

  it('says interrupted once when its connection drops, and resync once it listens again', async () => {
    const fake = fakeSource();
    const hub = new LiveHub(fake.source, silentLog, timing);
    const heard: LiveMessage[] = [];
    await hub.subscribe((message) => heard.push(message));
    expect(hub.interrupted).toBe(false);
    fake.refuse(true);
    fake.drop();
    expect(hub.interrupted).toBe(true);
    expect(heard).toEqual([{ type: 'interrupted' }]);
    // Retries fail a while: still interrupted, said once.
    await until(() => fake.starts() >= 3, 'three attempts to listen again');
    expect(heard).toEqual([{ type: 'interrupted' }]);
    fake.refuse(false);
    await until(() => heard.length === 2, 'the resync');
    expect(heard[1]).toEqual({ type: 'resync' });
    expect(hub.interrupted).toBe(false);
    await hub.close();
  });

  it('turns a session announcement into an access change, and ignores what it cannot read', async () => {
    const fake = fakeSource();
    const hub = new LiveHub(fake.source, silentLog, timing);
    const heard: LiveMessage[] = [];
    await hub.subscribe((message) => heard.push(message));
    fake.send(SESSION_CHANNEL, JSON.stringify({ user_id: 'u1', session_id: 's1' }));
    fake.send(SESSION_CHANNEL, JSON.stringify({ user_id: 'u2' }));
    fake.send(SESSION_CHANNEL, '{not json');
    fake.send(SESSION_CHANNEL, JSON.stringify({ session_id: 's3' }));
    fake.send('elsewhere', JSON.stringify({ user_id: 'u4' }));
    expect(heard).toEqual([
      { type: 'accessChanged', userId: 'u1', sessionId: 's1' },
      { type: 'accessChanged', userId: 'u2', sessionId: null },
    ]);
    await hub.close();
  });

  it.runIf(onPostgres)(
    'notices a connection that stops answering (no error, no end) by its probe',
    async () => {
      // A TCP relay to PostgreSQL that can go silent, as a network cut does.
      const target = new URL(databaseUrl());
      const pairs: [net.Socket, net.Socket][] = [];
      const relay = net.createServer((socket) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        pairs.push([socket, upstream]);
        socket.pipe(upstream);
        upstream.pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      });
      await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
      const through = new URL(databaseUrl());
      through.hostname = '127.0.0.1';
      through.port = String((relay.address() as net.AddressInfo).port);
      const relayed = new pg.Pool({ connectionString: through.toString() });
      const hub = LiveHub.for({ $client: relayed } as unknown as Database, silentLog, {
        reconnectMs: { first: 50, max: 200 },
        probe: { everyMs: 150, timeoutMs: 300 },
      });
      const heard: LiveMessage[] = [];
      try {
        await hub.subscribe((message) => heard.push(message));
        // The open connection goes silent (nothing relayed, nothing closed); new ones pass.
        for (const [socket, upstream] of pairs) {
          socket.unpipe(upstream);
          upstream.unpipe(socket);
          socket.pause();
          upstream.pause();
        }
        const at = Date.now();
        await until(() => heard.some((m) => m.type === 'interrupted'), 'interrupted', 5_000);
        expect(Date.now() - at).toBeLessThan(WITHIN_MS);
        await until(() => heard.some((m) => m.type === 'resync'), 'resync', 5_000);
      } finally {
        await hub.close();
        await relayed.end();
        for (const [socket, upstream] of pairs) {
          socket.destroy();
          upstream.destroy();
        }
        await new Promise<void>((resolve) => relay.close(() => resolve()));
      }
    },
  );
});
