/**
 * SCIM 2.0 (RFC 7643, RFC 7644) at /scim/v2 (issue 33): a company's directory (Entra ID,
 * Okta) creates, changes, deactivates and deletes its staff accounts and pushes its groups,
 * whose display names give roles (company_sso.role_mappings). Not under /api: its own guard
 * (`Authorization: Bearer scim_…`, a token of the company, sso/scim-tokens.ts) after a rate
 * limit per token, its own body type (`application/scim+json`, or `application/json`), its
 * own answers (`application/scim+json`) and errors (RFC 7644 §3.12, errors.ts), an unknown
 * path included. The company is the token's: another company's record is a 404.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SSO_LIMITS } from '@sesame/shared';
import { isDatabaseUnavailable } from '../db/availability';
import { HttpError } from '../errors';
import { containsNul, urlHasNul } from '../input';
import { digest } from '../kiosks/device';
import { say } from '../language';
import { findScimToken } from '../sso/scim-tokens';
import {
  ScimError,
  invalidSyntax,
  invalidValue,
  scimErrorBody,
  scimNotFound,
  scimUnauthorized,
  type ScimType,
} from './errors';
import { parseFilter } from './filter';
import {
  createScimGroup,
  deleteScimGroup,
  findScimGroup,
  listScimGroups,
  patchGroup,
  presentScimGroup,
  readGroupResource,
  writeScimGroup,
} from './groups';
import { readPatch } from './patch';
import {
  attributeList,
  listResponse,
  project,
  resourceTypes,
  schemas,
  scimBase,
  serviceProviderConfig,
  type ScimResource,
} from './presenter';
import {
  createScimUser,
  deleteScimUser,
  findScimUser,
  listScimUsers,
  patchUser,
  presentScimUser,
  readUserResource,
  writeScimUser,
  type ScimCaller,
} from './users';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
const MINUTE = 60_000;

type Query = Record<string, string | string[] | undefined>;
interface WithId {
  Params: { id: string };
  Querystring: Query;
}

/** One query parameter: a repeated one is a 400. */
function param(query: Query, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw invalidValue(name);
  return value;
}

/** `startIndex` (1-based, below 1 read as 1) and `count` (at most SSO_LIMITS.scimPageMax). */
function paging(query: Query) {
  const integer = (name: string, fallback: number) => {
    const text = param(query, name);
    if (text === undefined || text === '') return fallback;
    if (!/^-?\d{1,9}$/.test(text)) throw invalidValue(name);
    return Number(text);
  };
  const startIndex = Math.max(1, integer('startIndex', 1));
  const count = Math.min(
    SSO_LIMITS.scimPageMax,
    Math.max(0, integer('count', SSO_LIMITS.scimPageMax)),
  );
  return { startIndex, count };
}

function filterOf(query: Query) {
  const text = param(query, 'filter');
  if (text === undefined || text.trim() === '') return undefined;
  return { parsed: parseFilter(text), text };
}

function projection(query: Query) {
  return {
    attributes: attributeList(param(query, 'attributes')),
    excluded: attributeList(param(query, 'excludedAttributes')),
  };
}

export const scimRoutes: FastifyPluginAsync = async (app) => {
  const base = scimBase(app.config.publicUrl);
  const secret = app.config.jwtSecret;
  const callers = new WeakMap<FastifyRequest, ScimCaller>();

  const bearerOf = (request: FastifyRequest) => {
    const header = request.headers.authorization;
    return header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
  };

  /** Counted per token (its digest names the counter), else per client address. */
  const config = {
    rateLimit: {
      max: SSO_LIMITS.scimRequestsPerMinute,
      timeWindow: MINUTE,
      keyGenerator: (request: FastifyRequest) => {
        const token = bearerOf(request);
        return token ? `scim|${digest(secret, token)}` : `scim|ip|${request.ip}`;
      },
    },
  };

  app.addContentTypeParser(
    'application/scim+json',
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  );

  // After the rate limit (the routes' onRequest), before the body is parsed: 401 first.
  app.addHook('preParsing', async (request) => {
    const token = bearerOf(request);
    const found = token ? await findScimToken(app.db, secret, token) : null;
    if (!found) throw scimUnauthorized();
    callers.set(request, { ...found, base });
  });
  app.addHook('preValidation', async (request) => {
    if (urlHasNul(request.url) || containsNul(request.body)) throw invalidSyntax();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('content-type', SCIM_CONTENT_TYPE);
    return payload;
  });

  const send = (reply: FastifyReply, status: number, detail: string, scimType?: ScimType) =>
    reply.code(status).send(scimErrorBody(status, detail, scimType));

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ScimError) {
      return send(reply, error.status, say(request, error.say), error.scimType);
    }
    if (error instanceof HttpError) {
      return send(reply, error.statusCode, say(request, error.say));
    }
    // Fastify's errors carry statusCode; others have none.
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 429) {
      return send(
        reply,
        429,
        say(request, (m) => m.api.tooManyRequests),
      );
    }
    if (status === 413 || status === 415) {
      return send(
        reply,
        status,
        say(request, (m) => m.api.badRequest),
      );
    }
    if (status && status >= 400 && status < 500) {
      // Malformed JSON, an empty body: the client's fault.
      return send(
        reply,
        400,
        say(request, (m) => m.scim.invalidSyntax),
        'invalidSyntax',
      );
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '2');
      return send(
        reply,
        503,
        say(request, (m) => m.availability.databaseUnavailable),
      );
    }
    request.log.error({ err: error }, 'unhandled SCIM error');
    return send(
      reply,
      500,
      say(request, (m) => m.api.internal),
    );
  });

  app.setNotFoundHandler(async (request, reply) =>
    send(
      reply,
      404,
      say(request, (m) => m.api.notFound),
    ),
  );

  const caller = (request: FastifyRequest): ScimCaller => {
    const found = callers.get(request);
    if (!found) throw scimUnauthorized();
    return found;
  };

  const one = (resource: ScimResource, query: Query) => {
    const { attributes, excluded } = projection(query);
    return project(resource, attributes, excluded);
  };

  // Discovery (RFC 7644 §4).
  app.get('/ServiceProviderConfig', { config }, async () => serviceProviderConfig(base));
  app.get('/ResourceTypes', { config }, async () => {
    const types = resourceTypes(base);
    return listResponse(types, types.length, 1);
  });
  app.get<WithId>('/ResourceTypes/:id', { config }, async (request) => {
    const type = resourceTypes(base).find((t) => t.id === request.params.id);
    if (!type) throw scimNotFound();
    return type;
  });
  app.get('/Schemas', { config }, async () => {
    const all = schemas(base);
    return listResponse(all, all.length, 1);
  });
  app.get<WithId>('/Schemas/:id', { config }, async (request) => {
    const schema = schemas(base).find((s) => s.id === request.params.id);
    if (!schema) throw scimNotFound();
    return schema;
  });

  // Users (RFC 7644 §3.3–3.6).
  app.get<{ Querystring: Query }>('/Users', { config }, async (request) => {
    const { startIndex, count } = paging(request.query);
    const filter = filterOf(request.query);
    const { resources, total } = await listScimUsers(app.db, caller(request), {
      filter,
      startIndex,
      count,
    });
    return listResponse(
      resources.map((r) => one(r, request.query)),
      total,
      startIndex,
    );
  });

  const userOr404 = async (request: FastifyRequest<WithId>) => {
    const row = await findScimUser(app.db, caller(request), request.params.id);
    if (!row) throw scimNotFound();
    return row;
  };

  app.get<WithId>('/Users/:id', { config }, async (request) =>
    one(await presentScimUser(app.db, caller(request), await userOr404(request)), request.query),
  );

  app.post<{ Querystring: Query }>('/Users', { config }, async (request, reply) => {
    const resource = await createScimUser(app.db, caller(request), readUserResource(request.body));
    // A created resource always has its meta with its location (presentUser).
    const location = (resource.meta as { location: string }).location;
    return reply.code(201).header('location', location).send(one(resource, request.query));
  });

  app.put<WithId>('/Users/:id', { config }, async (request) => {
    const resource = await writeScimUser(app.db, caller(request), request.params.id, (current) =>
      readUserResource(request.body, current),
    );
    return one(resource, request.query);
  });

  app.patch<WithId>('/Users/:id', { config }, async (request) => {
    const steps = readPatch(request.body);
    const resource = await writeScimUser(app.db, caller(request), request.params.id, (current) =>
      patchUser(current, steps),
    );
    return one(resource, request.query);
  });

  app.delete<WithId>('/Users/:id', { config }, async (request, reply) => {
    await deleteScimUser(app.db, caller(request), await userOr404(request));
    return reply.code(204).send();
  });

  // Groups.
  const withMembers = (query: Query) => {
    const { attributes, excluded } = projection(query);
    return attributes ? attributes.includes('members') : !excluded?.includes('members');
  };

  app.get<{ Querystring: Query }>('/Groups', { config }, async (request) => {
    const { startIndex, count } = paging(request.query);
    const { resources, total } = await listScimGroups(app.db, caller(request), {
      filter: filterOf(request.query),
      startIndex,
      count,
      withMembers: withMembers(request.query),
    });
    return listResponse(
      resources.map((r) => one(r, request.query)),
      total,
      startIndex,
    );
  });

  const groupOr404 = async (request: FastifyRequest<WithId>) => {
    const row = await findScimGroup(app.db, caller(request), request.params.id);
    if (!row) throw scimNotFound();
    return row;
  };

  app.get<WithId>('/Groups/:id', { config }, async (request) => {
    const group = await groupOr404(request);
    const resource = await presentScimGroup(
      app.db,
      caller(request),
      group,
      withMembers(request.query),
    );
    return one(resource, request.query);
  });

  app.post<{ Querystring: Query }>('/Groups', { config }, async (request, reply) => {
    const resource = await createScimGroup(
      app.db,
      caller(request),
      readGroupResource(request.body),
    );
    // A created resource always has its meta with its location (presentGroup).
    const location = (resource.meta as { location: string }).location;
    return reply.code(201).header('location', location).send(one(resource, request.query));
  });

  app.put<WithId>('/Groups/:id', { config }, async (request) => {
    const current = await groupOr404(request);
    const draft = readGroupResource(request.body);
    const resource = await writeScimGroup(
      app.db,
      caller(request),
      current,
      () => draft,
      withMembers(request.query),
    );
    return one(resource, request.query);
  });

  app.patch<WithId>('/Groups/:id', { config }, async (request) => {
    const current = await groupOr404(request);
    const steps = readPatch(request.body);
    const resource = await writeScimGroup(
      app.db,
      caller(request),
      current,
      (members) => patchGroup(current, members, steps),
      withMembers(request.query),
    );
    return one(resource, request.query);
  });

  app.delete<WithId>('/Groups/:id', { config }, async (request, reply) => {
    await deleteScimGroup(app.db, caller(request), await groupOr404(request));
    return reply.code(204).send();
  });
};
