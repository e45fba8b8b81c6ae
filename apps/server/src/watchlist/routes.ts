/**
 * `/api/company/{id}/watchlist` (issue 31): the company's watchlist, kept by its admin side
 * ('watchlist.manage'), and the visits it held, reviewed by 'watchlist.review' within their
 * site limits. Another company's entry or hold is a 404. Every change is audited with ids
 * only (service.ts).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  holdDecisionSchema,
  holdListQuerySchema,
  listQuerySchema,
  paginatedSchema,
  said,
  watchlistEntryInputSchema,
  watchlistEntrySchema,
  watchlistHoldSchema,
  watchlistSettingsSchema,
} from '@sesame/shared';
import { readPhones } from '@sesame/shared/phone';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { listAnswer } from '../db/pagination';
import { notFound } from '../errors';
import { say } from '../language';
import { siteScope } from '../sites/service';
import {
  addEntry,
  decideHold,
  findEntry,
  findHold,
  listEntries,
  listHolds,
  nameThreshold,
  presentEntry,
  presentHoldById,
  removeEntry,
  setNameThreshold,
  updateEntry,
  watchlistZone,
} from './service';

const uuid = z.uuid(said((m) => m.api.badRequest));
const entryParams = companyParams.extend({ entryId: uuid });
const holdParams = companyParams.extend({ holdId: uuid });
const entryBody = readPhones(watchlistEntryInputSchema, 'phone');
const entryAnswer = z.object({ message: z.string().optional(), data: watchlistEntrySchema });
const settingsAnswer = z.object({ message: z.string().optional(), data: watchlistSettingsSchema });

export const watchlistRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  /** The entry of the path: the path's company's own (another's, or none: 404). */
  const entryOf = async (request: FastifyRequest, params: { id: string; entryId: string }) => {
    const company = await companyOf(request, params.id);
    const { record } = await loadAuthorized(request, findEntry, params.entryId);
    if (record.companyId !== company.id) throw notFound();
    return record;
  };

  app.get(
    '/company/:id/watchlist',
    {
      config: { action: 'watchlist.manage' },
      schema: {
        tags: ['watchlist'],
        summary:
          "A company's watchlist (its id or slug), newest first; paged (?page=&per_page=) and searchable " +
          '(?q= name, e-mail, phone, ID number, reason).',
        params: companyParams,
        querystring: listQuerySchema,
        response: { 200: paginatedSchema(watchlistEntrySchema) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const zone = await watchlistZone(app.db, company.id);
      const page = await listEntries(app.db, company.id, request.query);
      return listAnswer(
        request.query,
        page.total,
        page.rows.map((row) => presentEntry(row, zone)),
      );
    },
  );

  app.post(
    '/company/:id/watchlist',
    {
      config: { action: 'watchlist.manage' },
      schema: {
        tags: ['watchlist'],
        summary:
          'Adds a person: a first and last name, or an e-mail, a phone or an ID number at least; a reason; ' +
          '`until` the last day it holds (DD/MM/YYYY, the main site’s zone; blank: until removed).',
        params: companyParams,
        body: entryBody,
        response: { 201: entryAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const row = await app.db.transaction((tx) =>
        addEntry(tx, company.id, request.body, request.principal!.userId),
      );
      const zone = await watchlistZone(app.db, company.id);
      reply.code(201);
      return { message: say(request, (m) => m.watchlist.created), data: presentEntry(row, zone) };
    },
  );

  app.put(
    '/company/:id/watchlist/:entryId',
    {
      config: { action: 'watchlist.manage' },
      schema: {
        tags: ['watchlist'],
        summary: 'Edits an entry (the whole entry, as when adding).',
        params: entryParams,
        body: entryBody,
        response: { 200: entryAnswer },
      },
    },
    async (request) => {
      const entry = await entryOf(request, request.params);
      const row = await app.db.transaction((tx) =>
        updateEntry(tx, entry, request.body, request.principal!.userId),
      );
      const zone = await watchlistZone(app.db, entry.companyId);
      return { message: say(request, (m) => m.watchlist.updated), data: presentEntry(row, zone) };
    },
  );

  app.delete(
    '/company/:id/watchlist/:entryId',
    {
      config: { action: 'watchlist.manage' },
      schema: {
        tags: ['watchlist'],
        summary: 'Removes an entry; the visits it held keep their review.',
        params: entryParams,
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      const entry = await entryOf(request, request.params);
      await app.db.transaction((tx) => removeEntry(tx, entry, request.principal!.userId));
      return { message: say(request, (m) => m.watchlist.deleted) };
    },
  );

  app.get(
    '/company/:id/watchlist/settings',
    {
      config: { action: 'watchlist.manage' },
      schema: {
        tags: ['watchlist'],
        summary: "The company's close name match threshold (pg_trgm similarity, 0.3–1).",
        params: companyParams,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      return { data: { name_threshold: await nameThreshold(app.db, company.id) } };
    },
  );

  app.put(
    '/company/:id/watchlist/settings',
    {
      config: { action: 'watchlist.manage' },
      schema: {
        tags: ['watchlist'],
        summary: 'Sets the close name match threshold.',
        params: companyParams,
        body: watchlistSettingsSchema,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const threshold = await app.db.transaction((tx) =>
        setNameThreshold(tx, company.id, request.body.name_threshold, request.principal!.userId),
      );
      return {
        message: say(request, (m) => m.watchlist.settingsSaved),
        data: { name_threshold: threshold },
      };
    },
  );

  app.get(
    '/company/:id/watchlist/holds',
    {
      config: { action: 'watchlist.review' },
      schema: {
        tags: ['watchlist'],
        summary:
          'The visits the watchlist held, newest first (?status= pending, allowed, denied; ?site=); ' +
          'a reviewer limited to some sites sees theirs.',
        params: companyParams,
        querystring: holdListQuerySchema,
        response: { 200: z.object({ data: z.array(watchlistHoldSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const who = request.principal!;
      const siteIds = await siteScope(
        app.db,
        who,
        'watchlist.review',
        company.id,
        request.query.site,
      );
      return {
        data: await listHolds(app.db, company.id, { status: request.query.status, siteIds }),
      };
    },
  );

  app.post(
    '/company/:id/watchlist/holds/:holdId/decision',
    {
      config: { action: 'watchlist.review' },
      schema: {
        tags: ['watchlist'],
        summary:
          'Decides a held visit with a reason: allow (this visit goes on: the held request reaches its host, ' +
          'the code opens) or deny (the request is declined, the visitor gets the ordinary decline mail without ' +
          'the reason; the code is refused). A decided hold answers 409.',
        params: holdParams,
        body: holdDecisionSchema,
        response: { 200: z.object({ message: z.string(), data: watchlistHoldSchema }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const { who, record: hold } = await loadAuthorized(request, findHold, request.params.holdId);
      if (hold.companyId !== company.id) throw notFound();
      // Beyond the reviewer's site limits (their own company): as if it did not exist.
      const siteIds = await siteScope(app.db, who, 'watchlist.review', company.id, undefined);
      if (siteIds && !siteIds.includes(hold.siteId)) throw notFound();
      await app.db.transaction((tx) => decideHold(tx, hold.id, request.body, who.userId));
      return {
        message: say(request, (m) =>
          request.body.decision === 'allow' ? m.watchlist.allowed : m.watchlist.deniedDone,
        ),
        data: await presentHoldById(app.db, hold.id),
      };
    },
  );
};
