import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import pg from 'pg';
import { z } from 'zod';
import { poolStats } from '../db/pool-guard';

/** The longest /api/health (and each part of /api/ready) waits before answering 503. */
export const HEALTH_BUDGET_MS = 800;

/** Resolves as `work` does, or rejects once the budget is spent: a probe always answers. */
async function withinBudget<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within the budget`)),
      HEALTH_BUDGET_MS,
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const partState = z.enum(['ok', 'unreachable']);
const readyAnswer = z.object({
  status: z.enum(['ready', 'not ready']),
  database: partState,
  storage: partState,
  listener: z.enum(['ok', 'starting', 'deaf', 'interrupted']),
  /** What is not ok, in one sentence (503 only). */
  message: z.string().optional(),
});

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check.',
        response: {
          200: z.object({
            status: z.literal('ok'),
            database: z.literal('ok'),
            // PostgreSQL only: the pool's slots, for the operator's monitoring (issue 26 §0).
            database_pool: z
              .object({ max: z.number(), open: z.number(), idle: z.number(), waiting: z.number() })
              .optional(),
          }),
          503: z.object({ message: z.string() }),
        },
      },
    },
    async (request, reply) => {
      // A probe must answer, within a second, either way: a partitioned database
      // would otherwise hold it for as long as the partition lasts.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error('no answer within the health budget')),
          HEALTH_BUDGET_MS,
        );
      });
      try {
        await Promise.race([app.db.execute(sql`select 1`), late]);
        // drizzle's $client (the pool or PGlite) is not in the Database type.
        const client: unknown = (app.db as { $client?: unknown }).$client;
        return {
          status: 'ok' as const,
          database: 'ok' as const,
          database_pool: client instanceof pg.Pool ? poolStats(client) : undefined,
        };
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ message: 'database unreachable' });
      } finally {
        clearTimeout(timer);
      }
    },
  );

  app.get(
    '/ready',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary:
          'Readiness, for a load balancer: the database answers, the file storage answers, and the live ' +
          "feed hears the database (its start check's NOTIFY arrived and its connection is up). 503 names " +
          'what is not ok; /api/health stays the liveness check.',
        response: { 200: readyAnswer, 503: readyAnswer },
      },
    },
    async (request, reply) => {
      const hub = app.liveHub;
      // A process not started by main.ts (a test, a tool) has not run the check: run it now.
      // The answer does not wait for it: 'starting' until it has passed.
      if (hub.state === 'starting') void hub.verify();
      // The storage's own probe (files/storage.ts: the folder writable, the bucket's HEAD).
      const [database, files] = await Promise.all(
        [
          withinBudget(app.db.execute(sql`select 1`), 'database'),
          withinBudget(app.storage.check(), 'storage'),
        ].map((part) =>
          part.then(
            () => 'ok' as const,
            (error: unknown) => {
              request.log.warn({ err: error }, 'readiness check: a part is unreachable');
              return 'unreachable' as const;
            },
          ),
        ),
      );
      const parts = {
        database: database!,
        storage: files!,
        listener: hub.state,
      };
      const failing = Object.entries(parts).filter(([, state]) => state !== 'ok');
      if (failing.length === 0) return { status: 'ready' as const, ...parts };
      return reply.code(503).send({
        status: 'not ready' as const,
        ...parts,
        message: `not ready: ${failing.map(([part, state]) => `${part} ${state}`).join(', ')}`,
      });
    },
  );

  app.get(
    '/settings',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: "The web app's global settings: default company slug and public address.",
        response: { 200: z.object({ default_company_slug: z.string(), public_url: z.string() }) },
      },
    },
    async () => ({
      default_company_slug: app.config.defaultCompanySlug,
      public_url: app.config.publicUrl,
    }),
  );
};
