/**
 * Signing in through the company's identity provider (issue 33), three public steps: the
 * login page asks where an address signs in (`/sso/begin`), the provider sends the browser
 * back (`/sso/callback`, which redirects to the login page), and the login page trades the
 * one-time ticket for its session (`/sso/exchange`). The work is in sign-in-service.ts.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginResponseSchema,
  ssoBeginResultSchema,
  ssoBeginSchema,
  ssoExchangeSchema,
} from '@sesame/shared';
import { answerSignedIn } from '../auth/routes';
import { HttpError } from '../errors';
import { ProviderUnavailable } from './oidc-client';
import { beginSignIn, exchangeTicket, finishSignIn, type SsoContext } from './sign-in-service';

export const ssoSignInRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const rateLimit = { max: limits.publicFormPerWindow, timeWindow: limits.windowMs };
  const context = (log: SsoContext['log']): SsoContext => ({
    db: app.db,
    tokens: app.tokens,
    publicUrl: app.config.publicUrl,
    ssoSecretKey: app.config.ssoSecretKey,
    log,
  });

  app.post(
    '/sso/begin',
    {
      config: { public: true, rateLimit },
      schema: {
        tags: ['auth'],
        summary:
          "Where an address signs in: when its domain is covered by a company's enabled identity provider, the provider's authorization URL to send the browser to (OpenID Connect, code flow with PKCE). 503 when the provider does not answer.",
        body: ssoBeginSchema,
        response: { 200: ssoBeginResultSchema },
      },
    },
    async (request) => {
      try {
        return await beginSignIn(context(request.log), request.body.email, request.lang);
      } catch (error) {
        if (!(error instanceof ProviderUnavailable)) throw error;
        request.log.warn({ reason: error.message }, 'sso: the provider does not answer');
        throw new HttpError(503, (m) => m.sso.providerUnavailable);
      }
    },
  );

  app.get(
    '/sso/callback',
    {
      config: { public: true, rateLimit },
      schema: {
        tags: ['auth'],
        summary:
          "The identity provider's redirect back (authorization response). Redirects to the login page with `sso_ticket` (trade it at POST /api/sso/exchange) or `sso_error` (the message's key).",
        querystring: z.object({
          state: z.string().max(1000).optional(),
          code: z.string().max(4000).optional(),
          error: z.string().max(1000).optional(),
        }),
      },
    },
    async (request, reply) => {
      const at = request.url.indexOf('?');
      const query = at >= 0 ? request.url.slice(at + 1) : '';
      const target = await finishSignIn(context(request.log), query);
      return reply.redirect(target, 302);
    },
  );

  app.post(
    '/sso/exchange',
    {
      config: { public: true, rateLimit },
      schema: {
        tags: ['auth'],
        summary:
          "Trades the one-time ticket the identity provider's sign-in ended with for the session's bearer token (once; 401 when unknown, used or expired). Sets the files cookie as /login_check does.",
        body: ssoExchangeSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const signed = await exchangeTicket(app.db, app.tokens, request.body.ticket);
      if (!signed) throw new HttpError(401, (m) => m.sso.signInExpired);
      return answerSignedIn(app, reply, signed);
    },
  );
};
