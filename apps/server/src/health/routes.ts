import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Liveness and database check.',
        response: {
          200: z.object({ status: z.literal('ok'), database: z.literal('ok') }),
          503: z.object({ message: z.string() }),
        },
      },
    },
    async (request, reply) => {
      try {
        await app.db.execute(sql`select 1`);
        return { status: 'ok' as const, database: 'ok' as const };
      } catch (error) {
        request.log.error({ err: error }, 'health check: database unreachable');
        return reply.code(503).send({ message: 'database unreachable' });
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
