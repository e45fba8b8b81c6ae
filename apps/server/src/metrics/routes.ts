/**
 * GET /metrics (issue 32): the Prometheus text format, for a scraper holding METRICS_TOKEN.
 * Outside /api: it is the operator's, not the web app's, and takes no session. Without
 * METRICS_TOKEN it does not exist (404, as any unknown path); a wrong token is a 401.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { say } from '../language';

/** Compares digests, so the time taken tells nothing of the token, its length included. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export const metricsRoutes: FastifyPluginAsync = async (app) => {
  app.get(
    '/metrics',
    // Public as /api/health is (its own token, not a session); no rate limit: a scraper
    // calls it every few seconds from one address.
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      const expected = app.config.metricsToken;
      if (!expected) return reply.code(404).send({ message: say(request, (m) => m.api.notFound) });
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!given || !sameToken(given, expected)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send({ message: say(request, (m) => m.api.unauthenticated) });
      }
      // A token set means app.ts built the registry (createMetrics' `enabled`).
      const registry = app.metrics.registry;
      if (!registry) return reply.code(404).send({ message: say(request, (m) => m.api.notFound) });
      const text = await registry.metrics();
      return reply
        .header('content-type', registry.contentType)
        .header('cache-control', 'no-store')
        .send(text);
    },
  );
};
