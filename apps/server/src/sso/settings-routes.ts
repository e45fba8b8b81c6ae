/**
 * `/api/company/{id}/sso` and `/api/company/{id}/scim-tokens` (issue 33): a company's
 * single sign-on settings and its SCIM tokens, kept by its admin side ('sso.manage': its
 * super admin, and the platform's admins for every company). Another company's is a 404.
 * The client secret is write-only; a SCIM token is shown once, at its creation. Every
 * change is audited (settings-service.ts, scim-tokens.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  said,
  scimTokenCreatedSchema,
  scimTokenInputSchema,
  scimTokenSchema,
  ssoSettingsInputSchema,
  ssoSettingsSchema,
  ssoTestInputSchema,
  ssoTestResultSchema,
} from '@sesame/shared';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { notFound } from '../errors';
import { say } from '../language';
import {
  createScimToken,
  findScimTokenRow,
  listScimTokens,
  presentScimToken,
  revokeScimToken,
} from './scim-tokens';
import { SecretBox } from './secret-box';
import { presentSsoSettings } from './settings-presenter';
import { hasClientSecret, readSso, saveSso, testAnswer, testIssuer } from './settings-service';

const tokenParams = companyParams.extend({ tokenId: z.uuid(said((m) => m.api.badRequest)) });
const settingsAnswer = z.object({ message: z.string().optional(), data: ssoSettingsSchema });
const tokenAnswer = z.object({ message: z.string(), data: scimTokenSchema });
const tokenCreatedAnswer = z.object({ message: z.string(), data: scimTokenCreatedSchema });

export const ssoSettingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const box = new SecretBox(app.config.ssoSecretKey);
  const secret = app.config.jwtSecret;
  const publicUrl = app.config.publicUrl;
  const limits = app.config.rateLimits;

  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  const view = (stored: Awaited<ReturnType<typeof readSso>>) =>
    presentSsoSettings(stored.row, stored.domains, {
      publicUrl,
      hasClientSecret: hasClientSecret(stored.row, box),
    });

  app.get(
    '/company/:id/sso',
    {
      config: { action: 'sso.manage' },
      schema: {
        tags: ['sso'],
        summary:
          "A company's single sign-on settings (its id or slug), the defaults when never saved, with the " +
          'redirect URI and SCIM base URL to register at the provider. Never the client secret.',
        params: companyParams,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      return { data: view(await readSso(app.db, company.id)) };
    },
  );

  app.put(
    '/company/:id/sso',
    {
      config: { action: 'sso.manage' },
      schema: {
        tags: ['sso'],
        summary:
          "Saves the company's single sign-on settings and domains. A blank or absent client_secret keeps " +
          'the stored one; enabling needs one (400). A domain another company covers: 409.',
        params: companyParams,
        body: ssoSettingsInputSchema,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const stored = await saveSso(app.db, company.id, request.body, {
        userId: request.principal!.userId,
        box,
      });
      return { message: say(request, (m) => m.sso.saved), data: view(stored) };
    },
  );

  app.post(
    '/company/:id/sso/test',
    {
      config: {
        action: 'sso.manage',
        rateLimit: { max: limits.publicFormPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['sso'],
        summary:
          'Tests an issuer: reads its OpenID discovery document and says in one sentence whether it is a ' +
          'provider Sésame can sign in with (the issuer it announces, the code flow with PKCE). ' +
          "A provider's fault answers ok: false, never an error.",
        params: companyParams,
        body: ssoTestInputSchema,
        response: { 200: ssoTestResultSchema },
      },
    },
    async (request) => {
      await companyOf(request, request.params.id);
      const result = await testIssuer(request.body.issuer_url);
      return testAnswer(result, (message) => say(request, message));
    },
  );

  app.get(
    '/company/:id/scim-tokens',
    {
      config: { action: 'sso.manage' },
      schema: {
        tags: ['sso'],
        summary: "A company's SCIM tokens, revoked ones too, newest first. Never a token itself.",
        params: companyParams,
        response: { 200: z.object({ data: z.array(scimTokenSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const rows = await listScimTokens(app.db, company.id);
      return { data: rows.map(presentScimToken) };
    },
  );

  app.post(
    '/company/:id/scim-tokens',
    {
      config: { action: 'sso.manage' },
      schema: {
        tags: ['sso'],
        summary:
          'Creates a SCIM token and answers it in clear, this once (only its digest is kept). ' +
          'A company holds at most 10 unrevoked tokens (409).',
        params: companyParams,
        body: scimTokenInputSchema,
        response: { 201: tokenCreatedAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const { row, token } = await createScimToken(app.db, company.id, request.body.name, {
        userId: request.principal!.userId,
        secret,
      });
      reply.code(201);
      return {
        message: say(request, (m) => m.sso.tokenCreated),
        data: { ...presentScimToken(row), token },
      };
    },
  );

  app.delete(
    '/company/:id/scim-tokens/:tokenId',
    {
      config: { action: 'sso.manage' },
      schema: {
        tags: ['sso'],
        summary:
          "Revokes a SCIM token: the provider's next call with it is refused. Stays listed; revoking " +
          'it again changes nothing.',
        params: tokenParams,
        response: { 200: tokenAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const token = await findScimTokenRow(app.db, request.params.tokenId);
      if (!token || token.companyId !== company.id) throw notFound();
      const row = await revokeScimToken(app.db, token, { userId: request.principal!.userId });
      return { message: say(request, (m) => m.sso.tokenRevoked), data: presentScimToken(row) };
    },
  );
};
