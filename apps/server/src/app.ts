/**
 * buildApp(): the whole server as a Fastify instance, used by main.ts and by tests.
 * Order (STYLE §6): third-party plugins, then our decorators, then routes.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyContextConfig,
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { API_KEY_PREFIX, UPLOAD_MAX_BYTES, installProductMessages, issueSay } from '@sesame/shared';
import { findApiKeyPrincipal } from './api-keys/service';
import { mayAct, routeActions, type RouteAction } from './auth/authorize';
import type { Principal } from './auth/principal';
import { keysSentence, rightsSentence } from './auth/openapi-rights';
import { loadPrincipal } from './auth/principal';
import { TokenService, type TokenClaims } from './auth/tokens';
import { DEFAULT_HTTP_TIMEOUTS, type Config } from './config';
import { isDatabaseUnavailable } from './db/availability';
import type { Database } from './db/client';
import { badRequest, errorCode, forbidden, HttpError, unauthenticated } from './errors';
import { containsNul, urlHasNul } from './input';
import { readRequestLanguage, say } from './language';
import { appLoggerOptions } from './log-redaction';
import { openStorage } from './files/open-storage';
import type { FileStorage } from './files/storage';
import { FileUrls } from './files/urls';
import { deviceTokenOf, loadKioskDevice, type KioskDevice } from './kiosks/device';
import { createMetrics } from './metrics/registry';
import { metricsRoutes } from './metrics/routes';
import { LiveHub } from './on-site/live';
import { openRateLimitCounters } from './rate-limits/counters';
import { apiRoutes } from './routes';
import { addSecurityHeaders } from './security-headers';
import { encodeFor, WebIndex } from './web-index';
import { scimRoutes } from './scim/routes';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Database;
    tokens: TokenService;
    storage: FileStorage;
    fileUrls: FileUrls;
  }
  interface FastifyRequest {
    /** The signed-in staff member, or null for an anonymous visitor. */
    principal: Principal | null;
    /** The verified token's claims (its session is checked by `principal`'s query or the route's). */
    claims: TokenClaims | null;
    /** The paired kiosk of a `config.kiosk` route (issue 29); null everywhere else. */
    kiosk: KioskDevice | null;
  }
  interface FastifyContextConfig {
    /** A route anyone may call. Every other /api route requires a signed-in user. */
    public?: boolean;
    /**
     * A route of the lobby's kiosk (issue 29): it takes a paired kiosk's device token and
     * nothing else (kiosks/device.ts); `request.kiosk` is that kiosk. No staff token opens it.
     */
    kiosk?: boolean;
    /**
     * The route checks the token's session inside its own single statement (the code
     * check, for its throughput): the principal is not loaded before it, and the route
     * must answer 401 itself when the session is not live.
     */
    sessionCheckedByRoute?: boolean;
    /**
     * Who may call a protected route: an action of the matrix (packages/shared), or a
     * list of them (any one will do). The only place a route says it: the guard checks
     * it right after authentication, before the body is parsed, so rate limit → 401 →
     * 403 → 400; `loadAuthorized` reads it again for the record's company. A route
     * whose right depends on what is asked (a list of meetings or of an event's guests)
     * names it from the raw request. A protected route without one is open to every
     * signed-in role (the caller's own account). With `sessionCheckedByRoute` the
     * route's statement checks it, in the same query as the session.
     */
    action?: RouteAction;
  }
  interface FastifyInstance {
    /** Every /api route as registered: the ladder and input-limit tests walk it. */
    routeTable: ApiRoute[];
  }
}

/** The request's bearer token, if any. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice(7).trim() || undefined : undefined;
}

/** Whether the request's bearer is an API key (`sk_…`), live or not. */
const isApiKey = (request: FastifyRequest) =>
  bearerOf(request)?.startsWith(API_KEY_PREFIX) === true;

/** Fastify's form of TRUST_PROXY: a hop count trusts that many proxies nearest the server. */
function trustedProxies(setting: Config['trustProxy']) {
  if (typeof setting !== 'number') return setting ?? false;
  return (_address: string, hop: number) => hop < setting;
}

/** One /api route, as the route table keeps it. */
export interface ApiRoute {
  method: string;
  url: string;
  public: boolean;
  /** A kiosk route: the device token only. */
  kiosk: boolean;
  sessionCheckedByRoute: boolean;
  /** Its `config.action` (`routeActions` turns it into the actions for a request). */
  action: RouteAction | undefined;
  schema: { body?: unknown; querystring?: unknown; params?: unknown; consumes?: string[] };
}

export interface AppOptions {
  config: Config;
  db: Database;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ config, db, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? appLoggerOptions(config.logLevel),
    // Client addresses come from the socket unless TRUST_PROXY names the proxies to
    // believe: otherwise anyone sets X-Forwarded-For and escapes every per-client limit.
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // A slow or silent client may not hold a socket for long (issue 12).
    requestTimeout: (config.httpTimeouts ?? DEFAULT_HTTP_TIMEOUTS).requestMs,
    connectionTimeout: (config.httpTimeouts ?? DEFAULT_HTTP_TIMEOUTS).connectionMs,
    // Ids in URLs are UUIDs and codes; nothing legitimate is longer.
    routerOptions: { maxParamLength: 200 },
  });
  installProductMessages();
  readRequestLanguage(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  addSecurityHeaders(app);
  await app.register(fastifyMultipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 2, fields: 60, fieldSize: 64 * 1024 },
  });
  // Counted in Redis, PostgreSQL or this process's memory (rate-limits/counters.ts).
  const counters = await openRateLimitCounters(config, db, app.log);
  app.addHook('onClose', counters.close);
  app.log.info({ rateLimitCounters: counters.kind }, 'rate-limit counters chosen');
  await app.register(fastifyRateLimit, {
    global: false,
    ...counters.pluginOptions,
    allowList: config.rateLimits.allowList,
    errorResponseBuilder: (request, context) => ({
      statusCode: 429,
      message: say(request, (m) => m.api.tooManyRequests),
      retryAfterMs: context.ttl,
    }),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Sésame API',
        description: 'Visitor management and access control. Errors: { message, errors? }.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              "A signed-in person's token (JWT), or a company's API key (`sk_…`, issue 34): each " +
              "route's description names the scope a key needs.",
          },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('tokens', new TokenService(config.jwtSecret));
  app.decorate('storage', await openStorage(config, app.log));
  app.addHook('onClose', async () => app.storage.close?.());
  app.decorate('fileUrls', new FileUrls(config.jwtSecret));
  // One live feed per app, listening on DATABASE_LISTEN_URL when set (on-site/live.ts).
  const liveHub = LiveHub.for(db, app.log, undefined, config.databaseListenUrl);
  app.decorate('liveHub', liveHub);
  app.addHook('onClose', () => liveHub.close());
  app.decorate(
    'metrics',
    await createMetrics(
      { db, liveStreams: () => liveHub.size, listening: () => liveHub.listening },
      config.metricsToken !== undefined,
    ),
  );
  // Every answer counted by its route's pattern (metrics/registry.ts), /metrics included.
  app.addHook('onResponse', async (request, reply) => app.metrics.observeRequest(request, reply));
  app.decorateRequest('principal', null);
  app.decorateRequest('claims', null);
  app.decorateRequest('kiosk', null);

  // Issue 34: every API key's calls, all routes together, counted where the routes' limits
  // are (rate-limits/counters.ts: shared by every instance on Redis or PostgreSQL).
  const keyLimit = app.createRateLimit({
    max: config.rateLimits.apiKeyPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key|${request.principal?.apiKey?.id ?? ''}`,
  });

  // Who is calling: a valid bearer token loads the principal; anything else is anonymous.
  // Runs per route after the rate limit (an onRequest hook), so a flood costs no query.
  // An API key (`sk_…`, issue 34) is read from the database on every call: its principal is
  // its service account, with the key and its scopes, and its own claims (no session row).
  const identify = async (request: FastifyRequest) => {
    const token = bearerOf(request);
    if (!token) return;
    if (token.startsWith(API_KEY_PREFIX)) {
      const caller = await findApiKeyPrincipal(app.db, app.config.jwtSecret, token);
      if (!caller) return;
      request.principal = caller;
      request.claims = { sub: caller.userId, sid: caller.sessionId };
      return;
    }
    const claims = await app.tokens.verify(token);
    if (!claims) return;
    request.claims = claims;
    if (request.routeOptions.config.sessionCheckedByRoute) return;
    request.principal = await loadPrincipal(app.db, claims.sid, claims.sub);
  };

  /** An API key's share of calls: 429 past its limit a minute, across every route. */
  const countKeyCall = async (request: FastifyRequest) => {
    const counted = await keyLimit(request);
    if (!counted.isAllowed && counted.isExceeded)
      throw new HttpError(429, (m) => m.api.tooManyRequests);
  };

  /**
   * Every /api route's guard, in the documented order, before the body is even parsed:
   * 401 without a live session (unless the route is public), 403 when the role has
   * none of the route's `action`s. A route is public only when it says so. A route
   * that checks the session in its own statement gets only the token's check here.
   * An API key (issue 34): 401 when it is not live; then its own rate limit (429); then
   * 403 unless one of the route's actions is both its role's and its scopes' (`mayAct`):
   * a route that names no action (a person's own pages) never opens to a key.
   */
  const guardFor = (config: FastifyContextConfig) => async (request: FastifyRequest) => {
    if (config.kiosk) {
      const token = deviceTokenOf(request.headers.authorization);
      const device = token ? await loadKioskDevice(app.db, app.config.jwtSecret, token) : null;
      if (!device) throw unauthenticated((m) => m.kiosk.deviceRefused);
      request.kiosk = device;
      return;
    }
    await identify(request);
    if (config.public) return;
    const who = request.principal;
    if (who?.apiKey) {
      await countKeyCall(request);
      if (!routeActions(config.action, request).some((action) => mayAct(who, action)))
        throw forbidden((m) => m.integrations.keyScopeMissing);
      return;
    }
    if (isApiKey(request)) throw unauthenticated((m) => m.integrations.keyRefused);
    if (config.sessionCheckedByRoute) {
      if (!request.claims) throw unauthenticated();
      return;
    }
    if (!who) throw unauthenticated();
    const actions = routeActions(config.action, request);
    if (actions.length > 0 && !actions.some((action) => mayAct(who, action))) throw forbidden();
  };
  /** Then 400 for text holding a NUL byte (PostgreSQL cannot store one); the schema's validation follows. */
  const refuseNul = async (request: FastifyRequest) => {
    if (urlHasNul(request.url) || containsNul(request.body)) throw badRequest();
  };

  const routeTable: ApiRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    const config: FastifyContextConfig = route.config ?? {};
    // An empty list would read as "no right named": every signed-in role.
    if (Array.isArray(config.action) && config.action.length === 0)
      throw new Error(`${route.url}: config.action lists no action`);
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        public: config.public === true,
        kiosk: config.kiosk === true,
        sessionCheckedByRoute: config.sessionCheckedByRoute === true,
        action: config.action,
        // Fastify types a route's schema loosely; the OpenAPI list reads only these fields of it.
        schema: (route.schema ?? {}) as ApiRoute['schema'],
      });
    }
    // Who may call it (and which API key scopes, issue 34); a signed-in person's own route
    // that names no right is said closed to keys.
    const rights =
      config.action && typeof config.action !== 'function'
        ? rightsSentence(config.action)
        : !config.action && !config.public && !config.kiosk
          ? keysSentence([])
          : undefined;
    if (rights && route.schema) {
      route.schema.description = route.schema.description
        ? `${route.schema.description}\n\n${rights}`
        : rights;
    }
    // The guard runs before the body is parsed (a malformed body from a caller without
    // the right is a 401 or a 403 too); the NUL check needs the parsed body.
    const guard = guardFor(config);
    route.preParsing = route.preParsing ? [guard, ...[route.preParsing].flat()] : guard;
    route.preValidation = route.preValidation
      ? [refuseNul, ...[route.preValidation].flat()]
      : refuseNul;
  });

  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      // Each issue in the request's language, by the catalogue key its check carries.
      const text = (issue: (typeof error.validation)[number]) => {
        const key = issueSay(issue);
        return key ? say(request, key) : (issue.message ?? say(request, (m) => m.api.badRequest));
      };
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
        errors[field] ??= text(issue);
      }
      const first = error.validation[0];
      return reply
        .code(400)
        .send({ message: first ? text(first) : say(request, (m) => m.api.badRequest), errors });
    }
    if (error instanceof HttpError) {
      const message = say(request, error.say);
      if (!error.errors) return reply.code(error.statusCode).send({ message });
      const errors = Object.fromEntries(
        Object.entries(error.errors).map(([field, said]) => [field, say(request, said)]),
      );
      return reply.code(error.statusCode).send({ message, errors });
    }
    // Fastify's errors carry statusCode and code; the handler is given them as plain Errors.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413 || errorCode(error) === 'FST_REQ_FILE_TOO_LARGE') {
      // The parser's own limit: the largest upload any field takes.
      return reply
        .code(413)
        .send({ message: say(request, (m) => m.api.fileTooLargeMax(UPLOAD_MAX_BYTES)) });
    }
    if (status === 429) {
      return reply.code(429).send({ message: say(request, (m) => m.api.tooManyRequests) });
    }
    if (status && status >= 400 && status < 500) {
      // Malformed JSON, wrong content type, multipart errors: the client's fault, said plainly.
      return reply.code(status).send({ message: say(request, (m) => m.api.badRequest) });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is out (dropped connection, timeout): nothing was recorded; retry soon.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '2')
        .send({ message: say(request, (m) => m.availability.databaseUnavailable) });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: say(request, (m) => m.api.internal) });
  });

  await app.register(apiRoutes, { prefix: '/api' });
  // Issue 33: the company directories' provisioning, with its own guard, types and errors.
  await app.register(scimRoutes, { prefix: '/scim/v2' });
  await app.register(metricsRoutes);

  const webDist = config.webDist;
  const indexHtml = webDist ? path.join(webDist, 'index.html') : undefined;
  let webIndex: WebIndex | undefined;
  if (webDist && indexHtml && existsSync(indexHtml)) {
    webIndex = new WebIndex(webDist, config.defaultCompanySlug);
    await app.register(fastifyStatic, {
      root: webDist,
      preCompressed: true,
      wildcard: false,
      index: false,
      maxAge: '1h',
      setHeaders: (reply, filePath) => {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          void reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if (
      request.url.startsWith('/api/') ||
      request.url === '/api' ||
      !webDist ||
      request.method !== 'GET'
    ) {
      return reply.code(404).send({ message: say(request, (m) => m.api.notFound) });
    }
    // Single-page app: every other GET is a screen of the web app.
    reply.header('cache-control', 'no-cache');
    // A public page names its chunks and first API reads, to load them beside the entry.
    const page = webIndex?.page(request.url.split('?')[0]!);
    if (!page?.tailored) return reply.sendFile('index.html', webDist);
    const { body, encoding } = encodeFor(page.html, request.headers['accept-encoding']);
    reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'accept-encoding');
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  });

  return app;
}
