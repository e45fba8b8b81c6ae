import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_MESSAGES, loginResponseSchema, loginSchema, userInfoSchema } from '@sesame/shared';
import { requirePrincipal } from './authorize';
import { LoginThrottle } from './login-throttle';
import { presentUserInfo } from './presenter';
import { signIn, signOut } from './service';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const throttle = new LoginThrottle({
    accountFreeAttempts: limits.loginAccountFreeAttempts,
    clientFreeAttempts: limits.loginClientFreeAttempts,
    firstDelaySeconds: limits.loginFirstDelaySeconds,
  });

  app.post(
    '/login_check',
    {
      config: { public: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail (as username) and password; answers a bearer token.',
        body: loginSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request) => {
      const signed = await signIn(app.db, app.tokens, throttle, {
        email: request.body.username,
        password: request.body.password,
        client: request.ip,
        throttled: !limits.allowList.includes(request.ip),
      });
      request.log.info({ userId: signed.userId }, 'signed in');
      return { token: signed.token, expires_at: signed.expiresAt.toISOString() };
    },
  );

  app.get(
    '/user/info',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user: id, roles (first is active), company slug.',
        response: { 200: userInfoSchema },
      },
    },
    async (request) => presentUserInfo(requirePrincipal(request.principal)),
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revokes the token on the server.',
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await signOut(app.db, requirePrincipal(request.principal).sessionId);
      return { message: API_MESSAGES.loggedOut };
    },
  );
};
