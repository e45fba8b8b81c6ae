/**
 * `/api/company/{id}/webhooks` (issue 34): a company's webhook endpoints and their delivery
 * log, kept by its admin side ('integrations.manage': its super admin, and the platform's
 * admins for every company). Another company's endpoint is a 404. The signing secret is
 * answered once, at creation.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  listQuerySchema,
  paginatedSchema,
  said,
  webhookCreatedSchema,
  webhookDeliverySchema,
  webhookInputSchema,
  webhookSchema,
  webhookUpdateSchema,
} from '@sesame/shared';
import { companyItself, loadAuthorized, signedIn } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { say } from '../language';
import { SecretBox } from '../sso/secret-box';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  queueTestEvent,
  resendDelivery,
  updateWebhook,
} from './service';

const webhookParams = companyParams.extend({
  webhookId: z.uuid(said((m) => m.api.badRequest)),
});
const deliveryParams = webhookParams.extend({
  deliveryId: z.uuid(said((m) => m.api.badRequest)),
});
const saidAnswer = z.object({ message: z.string() });

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const box = new SecretBox(app.config.ssoSecretKey, 'webhook-secret');
  const actorOf = (request: FastifyRequest) => ({
    userId: signedIn(request).userId,
    box,
    allowPrivate: app.config.webhookAllowPrivate,
  });

  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  const right = { action: 'integrations.manage' } as const;

  app.get(
    '/company/:id/webhooks',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary:
          "A company's webhook endpoints (its id or slug), each with its last delivery's outcome. Never the secret.",
        params: companyParams,
        response: { 200: z.object({ data: z.array(webhookSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      return { data: await listWebhooks(app.db, company.id) };
    },
  );

  app.post(
    '/company/:id/webhooks',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary:
          'Adds a webhook endpoint: its URL (https to a public address, unless the operator allows ' +
          'private ones), its events, and a Standard Webhooks secret (whsec_…) or one drawn here. ' +
          'The answer carries the secret, this once.',
        params: companyParams,
        body: webhookInputSchema,
        response: { 201: z.object({ message: z.string(), data: webhookCreatedSchema }) },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const data = await createWebhook(app.db, company.id, request.body, actorOf(request));
      return reply
        .code(201)
        .send({ message: say(request, (m) => m.integrations.webhookCreated), data });
    },
  );

  app.patch(
    '/company/:id/webhooks/:webhookId',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary:
          "Changes an endpoint's URL or events, or switches it off or on again (after a 410 Gone).",
        params: webhookParams,
        body: webhookUpdateSchema,
        response: { 200: z.object({ message: z.string(), data: webhookSchema }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const data = await updateWebhook(
        app.db,
        company.id,
        request.params.webhookId,
        request.body,
        actorOf(request),
      );
      return { message: say(request, (m) => m.integrations.webhookSaved), data };
    },
  );

  app.delete(
    '/company/:id/webhooks/:webhookId',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary: 'Deletes an endpoint and its delivery log.',
        params: webhookParams,
        response: { 200: saidAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      await deleteWebhook(app.db, company.id, request.params.webhookId, actorOf(request));
      return { message: say(request, (m) => m.integrations.webhookDeleted) };
    },
  );

  app.post(
    '/company/:id/webhooks/:webhookId/test',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary:
          'Sends a test event (type webhook.test) to the endpoint; its outcome shows in the delivery log.',
        params: webhookParams,
        response: { 202: saidAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      await queueTestEvent(app.db, company.id, request.params.webhookId);
      return reply.code(202).send({ message: say(request, (m) => m.integrations.testQueued) });
    },
  );

  app.get(
    '/company/:id/webhooks/:webhookId/deliveries',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary:
          "An endpoint's delivery log, newest first: each delivery's state, attempts, last status and the answer's first bytes.",
        params: webhookParams,
        querystring: listQuerySchema,
        response: { 200: paginatedSchema(webhookDeliverySchema) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      return listDeliveries(app.db, company.id, request.params.webhookId, request.query);
    },
  );

  app.post(
    '/company/:id/webhooks/:webhookId/deliveries/:deliveryId/resend',
    {
      config: right,
      schema: {
        tags: ['integrations'],
        summary:
          'Sends a delivery again: the same message (its webhook-id and body), queued after the endpoint’s others.',
        params: deliveryParams,
        response: { 202: saidAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      await resendDelivery(
        app.db,
        company.id,
        request.params.webhookId,
        request.params.deliveryId,
        actorOf(request),
      );
      return reply.code(202).send({ message: say(request, (m) => m.integrations.resendQueued) });
    },
  );
};
