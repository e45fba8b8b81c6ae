/**
 * `/api/company/{id}/api-keys` (issue 34): a company's API keys, kept by its admin side
 * ('integrations.manage': its super admin, and the platform's admins for every company).
 * Another company's, or another company's key, is a 404. A key is shown once, at its
 * creation; every change is audited (service.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  API_KEY_LIMITS,
  apiKeyCreatedSchema,
  apiKeyInputSchema,
  apiKeySchema,
  said,
} from '@sesame/shared';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { notFound } from '../errors';
import { say } from '../language';
import { createApiKey, findApiKeyRow, listApiKeys, presentApiKey, revokeApiKey } from './service';

const keyParams = companyParams.extend({ keyId: z.uuid(said((m) => m.api.badRequest)) });
const keyAnswer = z.object({ message: z.string(), data: apiKeySchema });
const keyCreatedAnswer = z.object({ message: z.string(), data: apiKeyCreatedSchema });

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const secret = app.config.jwtSecret;

  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  app.get(
    '/company/:id/api-keys',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['api-keys'],
        summary:
          "A company's API keys (its id or slug), revoked ones too, newest first: name, scopes, the key's " +
          'first characters, expiry, last use (written at most once a minute). Never a key itself.',
        params: companyParams,
        response: { 200: z.object({ data: z.array(apiKeySchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const rows = await listApiKeys(app.db, company.id);
      return { data: rows.map(presentApiKey) };
    },
  );

  app.post(
    '/company/:id/api-keys',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['api-keys'],
        summary:
          'Creates an API key (`name`, `scopes`, optional `expires_at`) and answers it in clear, this once ' +
          '(`sk_…`; only its digest is kept). The key calls the same routes as the screens with ' +
          '`Authorization: Bearer sk_…`, as a caller of this company limited to its scopes (each route says ' +
          `which scope opens it), at most ${API_KEY_LIMITS.requestsPerMinute} calls a minute; what it does ` +
          `is in the audit log as the key. A company holds at most ${API_KEY_LIMITS.keysMax} unrevoked keys (409).`,
        params: companyParams,
        body: apiKeyInputSchema,
        response: { 201: keyCreatedAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const { name, scopes, expires_at } = request.body;
      const { row, key } = await createApiKey(
        app.db,
        company.id,
        { name, scopes, expiresAt: expires_at ? new Date(expires_at) : null },
        { userId: request.principal!.userId, secret },
      );
      reply.code(201);
      return {
        message: say(request, (m) => m.integrations.keyCreated),
        data: { ...presentApiKey(row), key },
      };
    },
  );

  app.delete(
    '/company/:id/api-keys/:keyId',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['api-keys'],
        summary:
          'Revokes an API key: its next call is refused (401) on every instance. Stays listed; revoking ' +
          'it again changes nothing.',
        params: keyParams,
        response: { 200: keyAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const key = await findApiKeyRow(app.db, request.params.keyId);
      if (!key || key.companyId !== company.id) throw notFound();
      const row = await revokeApiKey(app.db, key, { userId: request.principal!.userId });
      return { message: say(request, (m) => m.integrations.keyRevoked), data: presentApiKey(row) };
    },
  );
};
