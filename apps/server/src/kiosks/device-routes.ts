/**
 * The kiosk's own calls (issue 29), `/api/kiosk/…`: the tablet pairs with a code (public,
 * rate-limited), then every call carries its device token (`config.kiosk`: app.ts refuses
 * anything else with 401 `kiosk.deviceRefused`). The token reaches the kiosk's own site
 * and nothing else: today's expected visitors by name (first name and host only), the host
 * search, a visitor's check-in and check-out, a walk-in's request and its answer. The old
 * staff route `POST /api/kiosk/check` (the camera scanner's e-mail presence) is not one.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  KIOSK_LIMITS,
  hostSearchQuerySchema,
  hostSearchResultSchema,
  kioskCheckInputSchema,
  kioskConfigSchema,
  kioskExpectedSchema,
  kioskPairInputSchema,
  kioskPairedSchema,
  kioskSearchQuerySchema,
  kioskToSignQuerySchema,
  kioskToSignSchema,
  kioskCheckAnswerSchema,
  kioskVisitorTypesSchema,
  kioskWalkInCreatedSchema,
  kioskWalkInSchema,
  kioskWalkInStatusSchema,
  type KioskCheckAnswer,
} from '@sesame/shared';
import { kioskScanKey, oncePerKey } from '../checkins/idempotency';
import type { Database } from '../db/client';
import { HttpError, unauthenticated } from '../errors';
import { withStoredFileCleanup } from '../files/uploads';
import { searchHosts } from '../requests/host-loop';
import { deviceTokenOf, digest, pairKiosk, type KioskDevice } from './device';
import { auditPairing, kioskConfig, publicVisitorTypes } from './service';
import {
  checkVisitAtKiosk,
  fileWalkIn,
  searchExpected,
  tellFrontDesk,
  visitOfCode,
  visitOfRequest,
  visitToSign,
  walkInToSign,
  walkInStatus,
} from './visits';

const MINUTE = 60_000;
/** What OpenAPI says of every kiosk call (app.ts writes the staff routes' rights from the matrix). */
const DEVICE_ONLY =
  "A paired kiosk's device token only (`Authorization: Bearer kiosk_…`, from POST /api/kiosk/pair); " +
  'a staff token, a revoked kiosk or none: 401.';

export const kioskDeviceRoutes: FastifyPluginAsyncZod = async (app) => {
  const secret = app.config.jwtSecret;
  const limits = app.config.rateLimits;
  const logo = (stored: string | null) => app.fileUrls.logo(stored);

  /**
   * A limit counted per kiosk: the device token's digest (never the token itself) names
   * the counter, so two kiosks behind one address do not share it; a call without a token
   * is counted per client address (and then refused by the guard).
   */
  const perKiosk = (name: string, max: number) => ({
    max,
    timeWindow: MINUTE,
    keyGenerator: (request: FastifyRequest) => {
      const token = deviceTokenOf(request.headers.authorization);
      return token ? `${name}|${digest(secret, token)}` : `${name}|ip|${request.ip}`;
    },
  });
  const device = (request: FastifyRequest): KioskDevice => {
    if (!request.kiosk) throw unauthenticated((m) => m.kiosk.deviceRefused);
    return request.kiosk;
  };
  const kioskConfigOf = async (id: string) => {
    const config = await kioskConfig(app.db, id, logo);
    if (!config) throw unauthenticated((m) => m.kiosk.deviceRefused);
    return config;
  };

  app.post(
    '/kiosk/pair',
    {
      config: {
        public: true,
        rateLimit: { max: KIOSK_LIMITS.pairAttemptsPerMinute, timeWindow: MINUTE },
      },
      schema: {
        tags: ['kiosks'],
        summary:
          "Pairs a tablet (public): a kiosk's live 6-digit code, once, for its device token " +
          '(`Authorization: Bearer kiosk_…` on every kiosk call) and its settings. An unknown, used or ' +
          `expired code: 401. At most ${KIOSK_LIMITS.pairAttemptsPerMinute} attempts a minute per client.`,
        body: kioskPairInputSchema,
        response: { 200: kioskPairedSchema },
      },
    },
    async (request) => {
      const paired = await app.db.transaction(async (tx) => {
        const done = await pairKiosk(tx, secret, request.body.code);
        if (done) await auditPairing(tx, done.kioskId);
        return done;
      });
      if (!paired) throw new HttpError(401, (m) => m.kiosk.codeRefused);
      return { token: paired.token, kiosk: await kioskConfigOf(paired.kioskId) };
    },
  );

  app.get(
    '/kiosk/me',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-me', limits.codeLookupPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary: "The kiosk's own settings, its company's name and logo, its site's name and zone.",
        response: { 200: z.object({ data: kioskConfigSchema }) },
      },
    },
    async (request) => ({ data: await kioskConfigOf(device(request).id) }),
  );

  app.get(
    '/kiosk/expected',
    {
      config: {
        kiosk: true,
        rateLimit: perKiosk('kiosk-search', KIOSK_LIMITS.searchesPerMinute),
      },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          `Today's expected visitors at the kiosk's site whose last name starts with ?q= (${KIOSK_LIMITS.searchMinLetters} ` +
          `letters at least, else 400; accents ignored), at most ${KIOSK_LIMITS.searchMaxMatches}: meetings of today in the ` +
          "site's zone, not declined (event guests are not listed). First name, initial, host and time only. " +
          `${KIOSK_LIMITS.searchesPerMinute} searches a minute per kiosk (429).`,
        querystring: kioskSearchQuerySchema,
        response: { 200: z.object({ data: z.array(kioskExpectedSchema) }) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await searchExpected(app.db, device(request), request.query.q) };
    },
  );

  app.get(
    '/kiosk/hosts',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-hosts', limits.codeLookupPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          "A walk-in's host search: the kiosk's company's active staff whose name holds ?q= (2 characters " +
          "at least), the kiosk's site's first; names only.",
        querystring: hostSearchQuerySchema,
        response: { 200: hostSearchResultSchema },
      },
    },
    async (request, reply) => {
      const kiosk = device(request);
      reply.header('cache-control', 'no-store');
      return { data: await searchHosts(app.db, kiosk.companyId, request.query.q, kiosk.siteId) };
    },
  );

  /** Check-in and check-out differ only in their direction. */
  const checkRoute = (direction: 'in' | 'out') =>
    app.post(
      `/kiosk/check-${direction}`,
      {
        config: { kiosk: true, rateLimit: perKiosk('kiosk-check', limits.codeLookupPerWindow) },
        schema: {
          tags: ['kiosks'],
          description: DEVICE_ONLY,
          summary:
            (direction === 'in'
              ? "Checks a visitor in at the kiosk's site (never out: someone inside is 'alreadyIn'). "
              : "Checks a visitor out at the kiosk's site (never in: someone out is 'alreadyOut', someone " +
                'never checked in 409). ') +
            'The visit found by name (`request_id`, of this site only, else 404) or the code read from the QR ' +
            "(`code`). The desk's rules: confirmed (409), today (409), this site (409); an unknown code 404. " +
            (direction === 'in'
              ? "Issue 31: the watchlist screens the visit first (held or denied: status 'held', nothing done, " +
                "the message is the welcome words); then the type's documents still to sign (`to_sign` of the " +
                'search or GET /api/kiosk/to-sign) must come as `signatures` (else 400). '
              : '') +
            'An `Idempotency-Key` makes a retry answer the first answer, never a second check.',
          body: kioskCheckInputSchema,
          response: { 200: z.object({ data: kioskCheckAnswerSchema }) },
        },
      },
      async (request) => {
        const kiosk = device(request);
        const body = request.body;
        // A signature's PDF is written with the check: its bytes go if the check fails after.
        return withStoredFileCleanup(app.storage, (storage) => {
          const check = async (db: Database): Promise<{ data: KioskCheckAnswer }> => ({
            data: await checkVisitAtKiosk(db, {
              kiosk,
              direction,
              requestId: body.request_id,
              code: body.code,
              signatures: body.signatures,
              repeatWindowMs: app.config.repeatScanWindowMs,
              lang: request.lang,
              storage,
            }),
          });
          const key = kioskScanKey(request, kiosk.id);
          // The check is typed for the database (rawPrepared's); a transaction runs its queries alike.
          return key
            ? oncePerKey(app.db, key, check)
            : app.db.transaction((tx) => check(tx as unknown as Database));
        });
      },
    );
  checkRoute('in');
  checkRoute('out');

  app.get(
    '/kiosk/visitor-types',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-types', limits.codeLookupPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          "The visitor types of the kiosk's site (issue 31), in order: names, band colour, required fields, " +
          'whether the host approves a walk-in, and every document to sign (current version, both languages).',
        response: { 200: kioskVisitorTypesSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await publicVisitorTypes(app.db, device(request).siteId) };
    },
  );

  app.get(
    '/kiosk/to-sign',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-check', limits.codeLookupPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          'The documents a visit found by name (`request_id`, of this site only, else 404) or by its code ' +
          "(`code`) must still sign before its check-in (issue 31), in the visitor's language; none for a " +
          'code the kiosk does not know (the check-in then answers). For a walk-in, `visitor_type_id` (a type ' +
          "of the kiosk's site, else 400) with the `email` typed and its `language`: the type's documents that " +
          'address has no valid signature of.',
        querystring: kioskToSignQuerySchema,
        response: { 200: z.object({ data: kioskToSignSchema }) },
      },
    },
    async (request, reply) => {
      const kiosk = device(request);
      reply.header('cache-control', 'no-store');
      const { request_id: requestId, code, visitor_type_id: typeId, email } = request.query;
      if (typeId) {
        const language = request.query.language ?? request.lang;
        return {
          data: { to_sign: await walkInToSign(app.db, kiosk, typeId, email ?? '', language) },
        };
      }
      const visit = requestId
        ? await visitOfRequest(app.db, kiosk, requestId)
        : await visitOfCode(app.db, kiosk, code ?? '');
      return { data: { to_sign: await visitToSign(app.db, kiosk.companyId, visit) } };
    },
  );

  app.post(
    '/kiosk/walk-ins',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-walk-in', limits.publicFormPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          "A walk-in at the kiosk: the visitor at the kiosk's site for today (the time now), their photo " +
          "(a JPEG data URL, when taken), and a pending request to the host chosen (else the site's front " +
          "desk), whose mail (Valider / Annuler) is queued at once; the visitor's acknowledgement only when an " +
          "e-mail was given. `told`: the host's name, or null when the front desk was told. Issue 31: " +
          '`visitor_type_id` (blank: the site’s first) says the required fields (`organisation_name`, ' +
          '`contact`, `id_number`; `photo` where the kiosk takes one) and the documents to sign ' +
          "(`signatures`); the watchlist screens the visit first: `status` 'held' tells nobody and checks " +
          "nobody in; a type without the host's approval is 'let_in' (confirmed by no one, checked in by " +
          "the kiosk); else 'waiting' as before.",
        body: kioskWalkInSchema,
        response: { 201: z.object({ data: kioskWalkInCreatedSchema }) },
      },
    },
    async (request, reply) => {
      const kiosk = device(request);
      const filed = await withStoredFileCleanup(app.storage, (storage) =>
        app.db.transaction((tx) =>
          fileWalkIn(tx, storage, kiosk, request.body, {
            repeatWindowMs: app.config.repeatScanWindowMs,
          }),
        ),
      );
      reply.code(201);
      return { data: { request_id: filed.requestId, told: filed.told, status: filed.status } };
    },
  );

  app.get(
    '/kiosk/walk-ins/:requestId',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-status', limits.codeLookupPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          "The host's answer to a walk-in this kiosk filed: 'waiting', 'accepted' or 'declined' " +
          "(another kiosk's request: 404).",
        params: z.object({ requestId: z.uuid() }),
        response: { 200: z.object({ data: kioskWalkInStatusSchema }) },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const status = await walkInStatus(app.db, device(request).id, request.params.requestId);
      return { data: { status } };
    },
  );

  app.post(
    '/kiosk/walk-ins/:requestId/front-desk',
    {
      config: { kiosk: true, rateLimit: perKiosk('kiosk-front-desk', limits.publicFormPerWindow) },
      schema: {
        tags: ['kiosks'],
        description: DEVICE_ONLY,
        summary:
          "The host left this kiosk's walk-in unanswered past the kiosk's wait: the site's front desk " +
          'gets the request mail (Valider / Annuler) too, once; `told` is how many people. A request ' +
          "decided meanwhile tells nobody (0). Another kiosk's request: 404.",
        params: z.object({ requestId: z.uuid() }),
        response: { 200: z.object({ data: z.object({ told: z.number() }) }) },
      },
    },
    async (request) => {
      const told = await tellFrontDesk(app.db, device(request).id, request.params.requestId);
      return { data: { told } };
    },
  );
};
