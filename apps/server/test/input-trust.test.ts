/**
 * Issue 11 §1 and §6: what an anonymous request can send. Every string a route
 * reads is bounded before any pattern; a megabyte of crafted text is a quick 400;
 * guards answer in the documented order (401 → 403 → 400) on every protected
 * route, generated from the route table; malformed input is a 400, never a 500.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyRequest, InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  EMAIL_PATTERN,
  companyCreateSchema,
  companyInlineUpdateSchema,
  companyUpdateSchema,
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  invitationDetailsSchema,
  invitationImportFieldsSchema,
  mayPerform,
  visitorFormSchema,
  ROLES,
  type Action,
} from '@sesame/shared';
import type { ApiRoute } from '../src/app';
import { routeActions } from '../src/auth/authorize';
import { as, multipart, startTestApp, tokenFor, useTestApp } from './helpers/app';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildTenant,
  buildUser,
  buildVisitor,
} from './helpers/factories';
import { qrPng } from '../src/qr/qr';

/** The slow case of the old e-mail pattern: many dots and no final label. */
const MEGABYTE_EMAIL = `a@${'a.'.repeat(400_000)}`;
/** The largest body the server accepts (1 MiB) less room for the JSON around the string. */
const NEAR_MEGABYTE = 1024 * 1024 - 512;
const megabyteOf = (unit: string) => unit.repeat(Math.floor(NEAR_MEGABYTE / unit.length));

/** Multipart forms the server parses with a shared schema inside the handler. */
const MULTIPART_SCHEMAS: Record<string, z.ZodType> = {
  visitorFormSchema,
  companyCreateSchema,
  companyUpdateSchema,
  companyInlineUpdateSchema,
  createQrUserFieldsSchema,
  createMemberFieldsSchema,
  invitationDetailsSchema,
  invitationImportFieldsSchema,
};

interface ZodNode {
  _zod: {
    def: {
      type: string;
      format?: string;
      checks?: { _zod: { def: { check: string } } }[];
      shape?: Record<string, ZodNode>;
      innerType?: ZodNode;
      in?: ZodNode;
      out?: ZodNode;
      schema?: ZodNode;
      options?: ZodNode[];
      element?: ZodNode;
      left?: ZodNode;
      right?: ZodNode;
      valueType?: ZodNode;
    };
  };
}

/** Strings of a schema that no maximum length bounds (paths like `body.email`). */
function unboundedStrings(node: ZodNode | undefined, path: string, seen = new Set()): string[] {
  if (!node?._zod || seen.has(node)) return [];
  seen.add(node);
  const def = node._zod.def;
  if (def.type === 'string') {
    // Fixed formats (uuid, iso datetime) are bounded by their own linear shape.
    if (def.format && def.format !== 'regex') return [];
    const bounded = (def.checks ?? []).some((c) => c._zod.def.check === 'max_length');
    const fixedLength = (def.checks ?? []).some((c) => c._zod.def.check === 'length_equals');
    return bounded || fixedLength ? [] : [path];
  }
  const children: [string, ZodNode | undefined][] = [
    ...Object.entries(def.shape ?? {}).map(([k, v]) => [`${path}.${k}`, v] as [string, ZodNode]),
    [path, def.innerType],
    // A pipe's output is what its input already bounded: its input is what a client sends.
    [path, def.in],
    [path, def.type === 'pipe' ? undefined : def.out],
    [path, def.schema],
    [`${path}[]`, def.element],
    [path, def.left],
    [path, def.right],
    [`${path}{}`, def.valueType],
    ...(def.options ?? []).map((o, i) => [`${path}|${i}`, o] as [string, ZodNode]),
  ];
  return children.flatMap(([p, child]) => unboundedStrings(child, p, seen));
}

describe('input limits (issue 11 §1)', () => {
  const ctx = useTestApp();

  it('every string of every route and every multipart form has a maximum length', () => {
    const unbounded: string[] = [];
    for (const route of ctx.app.routeTable) {
      for (const part of ['body', 'querystring', 'params'] as const) {
        const schema = route.schema[part] as ZodNode | undefined;
        unbounded.push(...unboundedStrings(schema, `${route.method} ${route.url} ${part}`));
      }
    }
    for (const [name, schema] of Object.entries(MULTIPART_SCHEMAS)) {
      unbounded.push(...unboundedStrings(schema as unknown as ZodNode, name));
    }
    expect(unbounded).toEqual([]);
  });

  it('the e-mail pattern reads a megabyte of its worst case and refuses it', () => {
    expect(EMAIL_PATTERN.test(MEGABYTE_EMAIL)).toBe(false);
    expect(EMAIL_PATTERN.test('ada@example.co.uk')).toBe(true);
    for (const bad of ['ada@example', 'ada@@example.com', 'a da@example.com', 'ada@example..com'])
      expect(EMAIL_PATTERN.test(bad)).toBe(false);
  });

  it('login answers a megabyte username with a 400', async () => {
    for (const username of [MEGABYTE_EMAIL.slice(0, NEAR_MEGABYTE), megabyteOf('a')]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/login_check',
        payload: { username, password: 'whatever-password' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Veuillez saisir une adresse email valide.');
    }
  });

  it('the public forms answer a megabyte field with a 400 and store nothing', async () => {
    const company = await buildCompany(ctx.db);
    const event = await buildEvent(ctx.db, { company });
    const file = { filename: 'id.png', contentType: 'image/png', bytes: await qrPng('id') };
    const fields = {
      company_id: company.slug,
      firstname: 'Ada',
      lastname: 'Lovelace',
      id_number: 'CI-1',
      organisation_name: 'Analytical',
      email: MEGABYTE_EMAIL.slice(0, NEAR_MEGABYTE - 4096),
      contact: '0102030405',
      request_date: '01/01/2099',
      request_time: '10:30',
      // Issue 16: the privacy notice accepted.
      privacy_accepted: '1',
    };
    for (const url of [
      '/api/visitor/create',
      `/api/evenement/${company.slug}/${event.slug}/register`,
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url,
        ...multipart(fields, { request_image: file }),
      });
      expect(res.statusCode, url).toBe(400);
    }
    const request = await ctx.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: '00000000-0000-4000-8000-000000000000', reason: megabyteOf('x') },
    });
    expect(request.statusCode).toBe(400);
  });

  it('protected routes answer 401 to an anonymous megabyte before reading it', async () => {
    const user = await buildUser(ctx.db, { company: await buildCompany(ctx.db) });
    const kiosk = await ctx.app.inject({
      method: 'POST',
      url: '/api/kiosk/check',
      payload: { email: MEGABYTE_EMAIL.slice(0, NEAR_MEGABYTE) },
    });
    expect(kiosk.statusCode).toBe(401);
    const update = await ctx.app.inject({
      method: 'PUT',
      url: `/api/user/${user.id}`,
      payload: { email: MEGABYTE_EMAIL.slice(0, NEAR_MEGABYTE) },
    });
    expect(update.statusCode).toBe(401);
  });
});

/** A concrete URL for a route pattern: every parameter gets a well-formed value. */
function concreteUrl(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, (_m, name: string) =>
    name === 'id' ? '00000000-0000-4000-8000-000000000000' : 'x',
  );
}

/**
 * The protected routes open to every signed-in role, with no `config.action`: the
 * caller's own account. Any other protected route must name its right.
 */
const OWN_ACCOUNT = [
  'PUT /api/me/password',
  'GET /api/user/info',
  'POST /api/logout',
  'GET /api/me/mail-preferences',
  'PUT /api/me/mail-preferences',
];

/** Well-formed input for the routes whose own statement checks the right (403 after validation). */
const VALID_INPUT: Record<string, { payload?: object }> = {
  'POST /api/kiosk/check': { payload: { email: 'nobody@example.com' } },
};

const key = (route: ApiRoute) => `${route.method} ${route.url}`;
const TOO_LONG = 'x'.repeat(150);

/** The keys of an object schema, through the wrappers zod puts around it. */
function shapeKeys(schema: unknown): string[] {
  const def = (schema as ZodNode | undefined)?._zod?.def;
  if (!def) return [];
  if (def.shape) return Object.keys(def.shape);
  return shapeKeys(def.in ?? def.innerType ?? def.schema);
}

/**
 * A request every part of which the route's schema refuses: each path parameter too
 * long for any of them (and no UUID), each query parameter too long or not a number,
 * a JSON array where an object is expected, a multipart body cut short. `query` is
 * what a `config.action` function reads. Null for a route that reads no input.
 */
function invalidRequest(route: ApiRoute) {
  const { params, querystring, body, consumes } = route.schema;
  if (!params && !querystring && !body && !consumes) return null;
  const query: Record<string, string> = {};
  for (const name of shapeKeys(querystring)) query[name] = TOO_LONG;
  const url = route.url.replace(/:([A-Za-z_]+)/g, TOO_LONG);
  const search = new URLSearchParams(query).toString();
  const options: InjectOptions = {
    method: route.method as 'GET',
    url: search ? `${url}?${search}` : url,
  };
  if (consumes?.includes('multipart/form-data')) {
    options.headers = { 'content-type': 'multipart/form-data; boundary=xyz' };
    options.payload = '--xyz\r\nbroken';
  } else if (body) {
    options.payload = [];
  }
  return { options, query };
}

/** The actions of the matrix that allow calling `route` with `query` (any one will do). */
function rightsOf(route: ApiRoute, query: Record<string, string>): readonly Action[] {
  return routeActions(route.action, { query, params: {} } as unknown as FastifyRequest);
}

describe('guard order on every protected route (issue 11 §6, issue 26 §8)', () => {
  const ctx = useTestApp();
  // Kiosk routes take a device token, not a session (issue 29: test/kiosks-security.test.ts).
  const protectedRoutes = () => ctx.app.routeTable.filter((route) => !route.public && !route.kiosk);

  it('every protected route names its right in its config, or is the caller’s own account', () => {
    const unnamed = protectedRoutes()
      .filter((route) => route.action === undefined)
      .map(key);
    expect(unnamed.sort()).toEqual([...OWN_ACCOUNT].sort());
  });

  it('no token: 401 before the input is parsed or validated', async () => {
    expect(protectedRoutes().length).toBeGreaterThan(60);
    for (const route of protectedRoutes()) {
      const invalid = invalidRequest(route);
      const requests: InjectOptions[] = [
        invalid?.options ?? { method: route.method as 'GET', url: concreteUrl(route.url) },
      ];
      // A body the parser itself refuses: the guard runs before parsing.
      if (route.method !== 'GET' && route.method !== 'DELETE')
        requests.push({
          method: route.method as 'POST',
          url: concreteUrl(route.url),
          headers: { 'content-type': 'application/json' },
          payload: '{"broken',
        });
      for (const request of requests) {
        const res = await ctx.app.inject(request);
        expect(res.statusCode, `${key(route)} ${String(request.payload)}`).toBe(401);
        expect(res.json().message).toBe('Vous devez être authentifié.');
      }
    }
  });

  it('a role without the route’s right: 403 before 400; a role with it: 400', async () => {
    const tenant = await buildTenant(ctx.db);
    const callers = await Promise.all(
      ROLES.map(async (role) => ({
        role,
        call: as(ctx.app, await tokenFor(ctx.app, tenant.staff[role].email)),
      })),
    );
    const wrong: string[] = [];
    let forbidden = 0;
    let invalid = 0;
    for (const route of protectedRoutes()) {
      const bad = invalidRequest(route);
      const rights = rightsOf(route, bad?.query ?? {});
      for (const { role, call } of callers) {
        const allowed = rights.length === 0 || rights.some((action) => mayPerform(role, action));
        // The code checks' statement checks the right with the session, on valid input.
        const request =
          !allowed && route.sessionCheckedByRoute
            ? {
                method: route.method as 'GET',
                url: concreteUrl(route.url),
                ...VALID_INPUT[key(route)],
              }
            : (bad?.options ?? { method: route.method as 'GET', url: concreteUrl(route.url) });
        if (allowed && !bad) continue;
        const want = allowed ? 400 : 403;
        const res = await call(request);
        if (res.statusCode !== want)
          wrong.push(`${role} ${key(route)}: ${want} expected, got ${res.statusCode} ${res.body}`);
        else if (want === 403) {
          forbidden += 1;
          expect(res.json().message).toBe("Vous n'avez pas la permission.");
        } else invalid += 1;
      }
    }
    expect(wrong).toEqual([]);
    expect(forbidden).toBeGreaterThan(150);
    expect(invalid).toBeGreaterThan(150);
  });

  it('the reported case: a ROLE_USER changing a card’s expiry to nonsense gets 403', async () => {
    const tenant = await buildTenant(ctx.db);
    const card = await buildQrUser(ctx.db, { company: tenant.company });
    const user = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_USER.email));
    const res = await user({
      method: 'PUT',
      url: `/api/qruser/${card.id}`,
      payload: { dateExp: 'not-a-date' },
    });
    expect(res.statusCode).toBe(403);
    const supervisor = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_SUPERVISOR.email));
    const invalid = await supervisor({
      method: 'PUT',
      url: `/api/qruser/${card.id}`,
      payload: { dateExp: 'not-a-date' },
    });
    expect(invalid.statusCode).toBe(400);
  });
});

describe('a route’s right narrowed by the record it finds (issue 26 §8)', () => {
  const ctx = useTestApp();

  it('a kind of card or of visitor the role has no right to: 403 at home, 404 elsewhere', async () => {
    const home = await buildTenant(ctx.db);
    const away = await buildCompany(ctx.db);
    // A supervisor re-issues permanent QR codes (qrUsers.create), not member cards.
    const supervisor = as(ctx.app, await tokenFor(ctx.app, home.staff.ROLE_SUPERVISOR.email));
    const reissue = async (company: { id: string }, kind: 'permanent' | 'member') => {
      const card = await buildQrUser(ctx.db, { company, kind });
      return (await supervisor({ method: 'POST', url: `/api/qruser/${card.id}/reissue` }))
        .statusCode;
    };
    expect(await reissue(home.company, 'member')).toBe(403);
    expect(await reissue(away, 'member')).toBe(404);
    expect(await reissue(away, 'permanent')).toBe(404);
    expect(await reissue(home.company, 'permanent')).toBe(201);
    // An employee reads meeting visitors' mails (requests.list), not event guests' (events.list).
    const employee = as(ctx.app, await tokenFor(ctx.app, home.staff.ROLE_EMPLOYEE.email));
    const mails = async (company: { id: string }, guest: boolean) => {
      const event = guest ? await buildEvent(ctx.db, { company }) : null;
      const visitor = await buildVisitor(ctx.db, { company, eventId: event?.id ?? null });
      return (await employee({ method: 'GET', url: `/api/mail/visitor/${visitor.id}` })).statusCode;
    };
    expect(await mails(home.company, true)).toBe(403);
    expect(await mails(away, true)).toBe(404);
    expect(await mails(away, false)).toBe(404);
    expect(await mails(home.company, false)).toBe(200);
  });
});

describe('permissions are declared, not hand-written (issue 13 §1, issue 26 §8)', () => {
  /**
   * The one route that authorizes by hand: a document link carries its viewer's session
   * in its signature (an <img> sends no bearer header), so the principal comes from
   * the link, not from the request.
   */
  const HAND_AUTHORIZED = new Set(['files/routes.ts']);

  it('no route handler decides who may call it (no authorize…() call, no hand-made 403)', async () => {
    const root = path.resolve(import.meta.dirname, '../src');
    const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('routes.ts'));
    const offenders: string[] = [];
    for (const file of files) {
      if (HAND_AUTHORIZED.has(file)) continue;
      const text = await readFile(path.join(root, file), 'utf8');
      if (/\b(authorize\w*|forbidden)\(/.test(text)) offenders.push(file);
    }
    expect(files.length).toBeGreaterThan(8);
    expect(offenders).toEqual([]);
  });

  it('the OpenAPI document says who may call a route, written from the matrix', async () => {
    const ctx = await startTestApp();
    try {
      const docs = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
        paths: Record<string, Record<string, { description?: string; summary?: string }>>;
      }>();
      const create = docs.paths['/api/user/create']?.post;
      expect(create?.description).toContain('Right `users.create`: ROLE_ADMIN');
      expect(create?.description).toContain('Every company: ROLE_ADMIN, ROLE_SESAME.');
      // A route any of several rights may call says each of them.
      const card = docs.paths['/api/qruser/{id}']?.put?.description ?? '';
      expect(card).toContain('Any one of these rights.');
      for (const action of ['qrUsers.updateExpiry', 'qrUsers.create', 'members.create'])
        expect(card).toContain(`Right \`${action}\`: `);
      // Summaries say what a route does; the roles are written once, in the matrix.
      for (const methods of Object.values(docs.paths))
        for (const operation of Object.values(methods))
          expect(operation.summary ?? '').not.toMatch(/ROLE_[A-Z]/);
    } finally {
      await ctx.close();
    }
  });
});

describe('malformed input is a 400, never a 500 (issue 11 §6)', () => {
  const ctx = useTestApp();

  it('a NUL byte in a path, a query, JSON or multipart', async () => {
    const tenant = await buildTenant(ctx.db);
    const admin = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_ADMIN.email));
    const company = tenant.company;
    const cases = [
      admin({ method: 'GET', url: '/api/company/de%00mo' }),
      admin({ method: 'GET', url: '/api/user/list?q=a%00b' }),
      admin({ method: 'GET', url: '/api/visitorlog?q=%00' }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/login_check',
        payload: { username: 'a\u0000@b.co', password: 'x' },
      }),
      admin({
        method: 'POST',
        url: '/api/user/create',
        payload: {
          name: 'Nul\u0000',
          firstname: 'Byte',
          email: 'nul@acme.test',
          password: 'Un-mot-de-passe-solide-42',
          title: 'T',
          contact: '0102030405',
          role: 'ROLE_EMPLOYEE',
        },
      }),
      ctx.app.inject({
        method: 'POST',
        url: '/api/visitor/create',
        ...multipart(
          { company_id: company.slug, firstname: 'A\u0000', lastname: 'B' },
          {
            request_image: {
              filename: 'id.png',
              contentType: 'image/png',
              bytes: await qrPng('id'),
            },
          },
        ),
      }),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe('La requête est mal formée.');
    }
  });

  it('malformed multipart, with or without a boundary, anonymous or not', async () => {
    const tenant = await buildTenant(ctx.db);
    const admin = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_ADMIN.email));
    const bodies = [
      { 'content-type': 'multipart/form-data', body: 'garbage' },
      { 'content-type': 'multipart/form-data; boundary=xyz', body: '--xyz\r\nbroken' },
      {
        'content-type': 'multipart/form-data; boundary=xyz',
        body: '--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue',
      },
    ];
    for (const { body, ...headers } of bodies) {
      const anonymous = await ctx.app.inject({
        method: 'POST',
        url: '/api/visitor/create',
        headers,
        payload: body,
      });
      expect(anonymous.statusCode).toBe(400);
      const staff = await admin({ method: 'POST', url: '/api/company', headers, payload: body });
      expect(staff.statusCode).toBe(400);
    }
  });

  it('a year-0 date on the logs and a department id above 2³¹', async () => {
    const tenant = await buildTenant(ctx.db);
    const admin = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_ADMIN.email));
    const log = await admin({ method: 'GET', url: '/api/visitorlog?from=0000-01-01T00:00:00Z' });
    expect(log.statusCode).toBe(400);
    expect(log.json().message).toBe('Date invalide.');
    const event = await admin({
      method: 'POST',
      url: '/api/evenement/create',
      payload: {
        company_id: tenant.company.id,
        name: 'Gala',
        location: 'Hall',
        address_name: '1 rue',
        date_event: '01/01/2099',
        time_event: '10:00',
        departement_id: 2 ** 31,
      },
    });
    expect(event.statusCode).toBe(400);
  });

  it('zod’s English defaults never reach a person', async () => {
    const tenant = await buildTenant(ctx.db);
    const admin = as(ctx.app, await tokenFor(ctx.app, tenant.staff.ROLE_ADMIN.email));
    // A path id is the routes' one idParams (params.ts), which says the request is malformed.
    const res = await admin({ method: 'GET', url: '/api/user/not-a-uuid' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('La requête est mal formée.');
    const long = await admin({ method: 'GET', url: `/api/user/list?q=${'x'.repeat(300)}` });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Ce champ ne doit pas dépasser 200 caractères.');
  });
});
