/**
 * `/api/company/{id}/chat` (issue 34): a company's chat connections, kept by its admin side
 * ('integrations.manage': its super admin, and the platform's admins for every company).
 * Another company's is a 404. The Slack bot token and the channels' URLs are write-only:
 * the answers say whether a token is kept and each channel's URL host, never a secret.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  chatChannelInputSchema,
  chatChannelSchema,
  chatSettingsInputSchema,
  chatSettingsSchema,
  said,
} from '@sesame/shared';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { say } from '../language';
import { SecretBox } from '../sso/secret-box';
import { addChannel, readChat, removeChannel, saveBotToken } from './settings';

const channelParams = companyParams.extend({ channelId: z.uuid(said((m) => m.api.badRequest)) });
const settingsAnswer = z.object({ message: z.string().optional(), data: chatSettingsSchema });

export const chatRoutes: FastifyPluginAsyncZod = async (app) => {
  const box = new SecretBox(app.config.ssoSecretKey, 'chat-secret');

  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  app.get(
    '/company/:id/chat',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['integrations'],
        summary:
          "A company's chat connections (its id or slug): whether a Slack bot token is kept, and its " +
          "Slack and Teams channels, each with its URL's host only. Never the token or a URL.",
        params: companyParams,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      return { data: await readChat(app.db, company.id, box) };
    },
  );

  app.put(
    '/company/:id/chat',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['integrations'],
        summary:
          'Saves the Slack bot token (hosts then get direct messages, found by their e-mail): absent or ' +
          'blank keeps the stored one, null removes it. Audited, never answered back.',
        params: companyParams,
        body: chatSettingsInputSchema,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      await saveBotToken(app.db, company.id, request.body.slack_bot_token, {
        userId: request.principal!.userId,
        box,
      });
      return {
        message: say(request, (m) => m.integrations.chatSaved),
        data: await readChat(app.db, company.id, box),
      };
    },
  );

  app.post(
    '/company/:id/chat/channels',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['integrations'],
        summary:
          'Connects a channel: a Slack incoming webhook or a Teams Workflows webhook, for every site ' +
          '(site_id null) or one. The URL must be https and public (400 on url); at most 20 channels (409).',
        params: companyParams,
        body: chatChannelInputSchema,
        response: { 201: z.object({ message: z.string(), data: chatChannelSchema }) },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const channel = await addChannel(app.db, company.id, request.body, {
        userId: request.principal!.userId,
        box,
        allowPrivate: app.config.webhookAllowPrivate,
      });
      reply.code(201);
      return { message: say(request, (m) => m.integrations.channelAdded), data: channel };
    },
  );

  app.delete(
    '/company/:id/chat/channels/:channelId',
    {
      config: { action: 'integrations.manage' },
      schema: {
        tags: ['integrations'],
        summary: 'Disconnects a channel: nothing more is posted to it. Audited.',
        params: channelParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      await removeChannel(app.db, company.id, request.params.channelId, {
        userId: request.principal!.userId,
      });
      return { message: say(request, (m) => m.integrations.channelRemoved) };
    },
  );
};
