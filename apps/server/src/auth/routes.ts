import { clientTag } from './refusals';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  loginResponseSchema,
  loginSchema,
  logoutResponseSchema,
  passwordChangeSchema,
  userInfoSchema,
} from '@sesame/shared';
import { requirePrincipal, signedIn } from './authorize';
import { LoginThrottle } from './login-throttle';
import { presentUserInfo } from './presenter';
import {
  changeOwnPassword,
  passwordManagedElsewhere,
  sessionExpiry,
  signIn,
  signOut,
  type SignedIn,
} from './service';
import { providerEndSessionUrl } from '../sso/sign-in-service';
import { clearFilesCookie, setFilesCookie } from '../files/cookie';
import { say } from '../language';

/**
 * The answer to a sign-in (a password's, or an identity provider's ticket, issue 33): the
 * session's bearer token, and the files cookie, the browser's key to its documents and
 * photos (an <img> sends no bearer header).
 */
export function answerSignedIn(
  app: FastifyInstance,
  reply: FastifyReply,
  signed: SignedIn,
): z.infer<typeof loginResponseSchema> {
  const key = app.fileUrls.sessionKey(signed.sessionId);
  setFilesCookie(reply, key, signed.expiresAt, app.config.publicUrl);
  return { token: signed.token, expires_at: signed.expiresAt.toISOString() };
}

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const throttle = new LoginThrottle({
    accountFreeAttempts: limits.loginAccountFreeAttempts,
    clientFreeAttempts: limits.loginClientFreeAttempts,
    accountWideFreeAttempts: limits.loginAccountWideFreeAttempts,
    firstDelaySeconds: limits.loginFirstDelaySeconds,
    holdSeconds: limits.loginHoldSeconds,
  });

  app.post(
    '/login_check',
    {
      // The throttle decides about failures; this only caps the requests one address sends
      // (each costs a password hash), well above an office's morning of sign-ins.
      config: {
        public: true,
        rateLimit: { max: limits.loginPerWindow, timeWindow: limits.windowMs },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail (as username) and password; answers a bearer token.',
        body: loginSchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const signed = await signIn(app.db, app.tokens, throttle, {
        email: request.body.username,
        password: request.body.password,
        client: request.ip,
        clientTag: clientTag(request.ip, app.config.jwtSecret),
        throttled: !limits.allowList.includes(request.ip),
        lang: request.lang,
      });
      request.log.info({ userId: signed.userId }, 'signed in');
      return answerSignedIn(app, reply, signed);
    },
  );

  app.put(
    '/me/password',
    {
      // Any signed-in person, for their own account only: no action of the matrix.
      config: { rateLimit: { max: limits.publicFormPerWindow, timeWindow: limits.windowMs } },
      schema: {
        tags: ['auth'],
        summary:
          "Mon compte (issue 17): change one's own password. The current one is checked (through the sign-in throttle), the new one follows the password policy and is typed twice; every other session of the account ends.",
        body: passwordChangeSchema,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      await changeOwnPassword(app.db, throttle, signedIn(request), {
        current: request.body.current_password,
        next: request.body.new_password,
        client: request.ip,
        clientTag: clientTag(request.ip, app.config.jwtSecret),
        throttled: !limits.allowList.includes(request.ip),
      });
      request.log.info({ userId: request.principal?.userId }, 'own password changed');
      return { message: say(request, (m) => m.account.passwordChanged) };
    },
  );

  app.get(
    '/user/info',
    {
      schema: {
        tags: ['auth'],
        summary:
          'The signed-in user: id, roles (first is active), company slug. Sets the files cookie again (the web asks on every load).',
        response: { 200: userInfoSchema },
      },
    },
    async (request, reply) => {
      const principal = requirePrincipal(request.principal);
      // A browser that lost the files cookie (or signed in before it existed) gets it back.
      const expiresAt = await sessionExpiry(app.db, principal.sessionId);
      if (expiresAt) {
        const key = app.fileUrls.sessionKey(principal.sessionId);
        setFilesCookie(reply, key, expiresAt, app.config.publicUrl);
      }
      return presentUserInfo(principal, await passwordManagedElsewhere(app.db, principal));
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['auth'],
        summary:
          "Revokes the token on the server, and clears the files cookie. A session an identity provider signed in (issue 33) also gets the provider's end-session URL, when it has one.",
        response: { 200: logoutResponseSchema },
      },
    },
    async (request, reply) => {
      const sessionId = requirePrincipal(request.principal).sessionId;
      const ssoCompanyId = await signOut(app.db, sessionId);
      clearFilesCookie(reply, app.config.publicUrl);
      const endSessionUrl = ssoCompanyId
        ? await providerEndSessionUrl(app, ssoCompanyId, request.log)
        : null;
      return {
        message: say(request, (m) => m.api.loggedOut),
        ...(endSessionUrl ? { end_session_url: endSessionUrl } : {}),
      };
    },
  );
};
