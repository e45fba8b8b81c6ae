import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_MESSAGES, loginResponseSchema, loginSchema, userInfoSchema } from '@sesame/shared';
import { sessions, users } from '../db/schema';
import { HttpError, unauthenticated } from '../errors';
import { audit } from '../audit/service';
import { requirePrincipal } from './authorize';
import { LoginThrottle } from './login-throttle';
import { decoyHash, verifyPassword } from './passwords';
import { tokenExpiry } from './tokens';
import { presentUserInfo } from './presenter';

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
      const email = request.body.username.toLowerCase();
      const throttled = !limits.allowList.includes(request.ip);
      // Counted (as a failure until proven otherwise) before the password is read.
      if (throttled && !(await throttle.claim(app.db, email, request.ip))) {
        throw new HttpError(429, API_MESSAGES.tooManyRequests);
      }

      const [user] = await app.db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email))
        .limit(1);
      const valid = await verifyPassword(
        user?.passwordHash ?? (await decoyHash()),
        request.body.password,
      );
      if (!user || !valid || !user.status) {
        // An unknown address names no company nor account: nothing of it is kept.
        if (user) {
          await audit(app.db, {
            companyId: user.companyId,
            actorUserId: user.id,
            action: 'auth.sign_in_failed',
            subjectType: 'user',
            subjectId: user.id,
            detail: { reason: valid ? 'disabled' : 'password' },
          });
        }
        if (!user || !valid) throw new HttpError(401, API_MESSAGES.badCredentials);
        throw new HttpError(403, API_MESSAGES.accountDisabled);
      }
      if (throttled) await throttle.succeeded(app.db, email, request.ip);

      const expiresAt = tokenExpiry();
      const session = await app.db.transaction(async (tx) => {
        const [opened] = await tx
          .insert(sessions)
          .values({ userId: user.id, expiresAt })
          .returning({ id: sessions.id });
        await audit(tx, {
          companyId: user.companyId,
          actorUserId: user.id,
          action: 'auth.signed_in',
          subjectType: 'user',
          subjectId: user.id,
        });
        return opened;
      });
      const token = await app.tokens.sign({ sub: user.id, sid: session!.id }, expiresAt);
      request.log.info({ userId: user.id }, 'signed in');
      return { token, expires_at: expiresAt.toISOString() };
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
      const principal = request.principal;
      if (!principal) throw unauthenticated();
      await app.db
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(eq(sessions.id, principal.sessionId));
      return { message: API_MESSAGES.loggedOut };
    },
  );
};
