import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import pg from 'pg';
import { z } from 'zod';
import { poolStats } from '../db/pool-guard';

/** The longest /api/health waits for the database before answering 503. */
export const HEALTH_BUDGET_MS = 800;

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
