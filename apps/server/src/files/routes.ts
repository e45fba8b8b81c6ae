import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { files } from '../db/schema';
import { notFound } from '../errors';

export const fileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/files/:id',
    {
      // Public in the sense of "no bearer header": the signature is the permission.
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'A private document or photo, through a signed URL handed out to staff.',
        params: z.object({ id: z.uuid() }),
        querystring: z.object({ expires: z.coerce.number(), signature: z.string().max(100) }),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!app.fileUrls.verify(id, request.query.expires, request.query.signature))
        throw notFound();
      const [file] = await app.db.select().from(files).where(eq(files.id, id)).limit(1);
      const bytes = file ? await app.storage.get(file.storedName) : null;
      if (!file || !bytes) throw notFound();
      return reply
        .header('content-type', file.mediaType)
        .header('content-disposition', `inline; filename="${file.storedName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=600')
        .send(bytes);
    },
  );

  app.get(
    '/public/logo/:name',
    {
      config: { public: true },
      schema: {
        tags: ['files'],
        summary: 'A company logo (public).',
        params: z.object({ name: z.string().regex(/^[a-f0-9]{32}\.(png|jpg|webp)$/) }),
      },
    },
    async (request, reply) => {
      const [file] = await app.db
        .select()
        .from(files)
        .where(and(eq(files.storedName, request.params.name), eq(files.ownerType, 'company_logo')))
        .limit(1);
      const bytes = file ? await app.storage.get(file.storedName) : null;
      if (!file || !bytes) throw notFound();
      return reply
        .header('content-type', file.mediaType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=86400')
        .send(bytes);
    },
  );
};
