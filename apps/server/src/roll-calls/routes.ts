/**
 * The evacuation roll call (issue 14): start one (freezing who is on site), mark each
 * person safe or missing, end it, and read it (the latest of a company, or one by id).
 * Every screen hears each change through the live stream (`rollCall` events).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  rollCallAnswerSchema,
  rollCallLatestAnswerSchema,
  rollCallLatestQuerySchema,
  rollCallMarkAnswerSchema,
  rollCallMarkParamsSchema,
  rollCallMarkSchema,
  rollCallParamsSchema,
  rollCallStartSchema,
  type Say,
} from '@sesame/shared';
import type { FastifyRequest } from 'fastify';
import { companyItself, loadAuthorized, signedIn } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { conflict, notFound } from '../errors';
import {
  assertRollCallWithinSites,
  countRollCall,
  endRollCall,
  findRollCall,
  findRollCallPerson,
  getRollCall,
  latestRollCall,
  markPerson,
  rollCallSite,
  startRollCall,
} from './service';

const ACTION = 'rollCall.run' as const;
const ENDED: Say = (m) => m.rollCall.ended;

export const rollCallRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The company `company` names (404 when out of reach), else the caller's own. */
  const companyOf = async (request: FastifyRequest, company: string | undefined) => {
    const who = signedIn(request);
    if (!company) return who.companyId;
    const { record } = await loadAuthorized(request, findCompany, company, {
      companyOf: companyItself,
    });
    return record.id;
  };

  const answer = async (id: string) => {
    const data = await getRollCall(app.db, id);
    if (!data) throw notFound();
    return { data };
  };

  app.post(
    '/roll-calls',
    {
      config: { action: ACTION },
      schema: {
        tags: ['on-site'],
        summary:
          "Starts an evacuation roll call of a company (`company`, a slug or id, for roles that act on every company; the caller's own otherwise), " +
          'freezing everyone on site now: whoever arrives afterwards is not in it. `site` (issue 28): the site evacuated; without it the ' +
          "company's only active site, else every site (a person limited to some sites names one of theirs; another site is a 404). " +
          '409 while one covering the same people is open (one per site; one of every site excludes any other).',
        body: rollCallStartSchema,
        response: { 201: rollCallAnswerSchema },
      },
    },
    async (request, reply) => {
      const who = signedIn(request);
      const companyId = await companyOf(request, request.body.company);
      const siteId = await rollCallSite(app.db, who, companyId, request.body.site);
      const started = await startRollCall(app.db, companyId, siteId, who.userId);
      reply.code(201);
      return answer(started.id);
    },
  );

  app.get(
    '/roll-calls/latest',
    {
      config: { action: ACTION },
      schema: {
        tags: ['on-site'],
        summary:
          "A company's open roll call, else its latest ended one, else null; with its people and counts. ?company= as for starting one; " +
          '?site= the latest covering that site (its own or one of every site).',
        querystring: rollCallLatestQuerySchema,
        response: { 200: rollCallLatestAnswerSchema },
      },
    },
    async (request) => {
      const who = signedIn(request);
      const companyId = await companyOf(request, request.query.company);
      return { data: await latestRollCall(app.db, who, companyId, request.query.site) };
    },
  );

  app.get(
    '/roll-calls/:id',
    {
      config: { action: ACTION },
      schema: {
        tags: ['on-site'],
        summary:
          'A roll call: who started and ended it and when, everyone frozen in it with their mark (who, when), the counts.',
        params: rollCallParamsSchema,
        response: { 200: rollCallAnswerSchema },
      },
    },
    async (request) => {
      const { who, record } = await loadAuthorized(request, findRollCall, request.params.id);
      assertRollCallWithinSites(who, record);
      return answer(record.id);
    },
  );

  app.put(
    '/roll-calls/:id/people/:personId',
    {
      config: { action: ACTION },
      schema: {
        tags: ['on-site'],
        summary:
          "Marks one person of an open roll call safe or missing (`unknown` undoes the mark): one update; answers the person and the roll call's counts. 409 once it has ended.",
        params: rollCallMarkParamsSchema,
        body: rollCallMarkSchema,
        response: { 200: rollCallMarkAnswerSchema },
      },
    },
    async (request) => {
      const { who, record } = await loadAuthorized(request, findRollCallPerson, {
        rollCallId: request.params.id,
        personId: request.params.personId,
      });
      assertRollCallWithinSites(who, record);
      const person = await markPerson(
        app.db,
        request.params.id,
        request.params.personId,
        request.body.status,
        who.userId,
      );
      if (!person) throw conflict(ENDED);
      return { data: person, counts: await countRollCall(app.db, request.params.id) };
    },
  );

  app.post(
    '/roll-calls/:id/end',
    {
      config: { action: ACTION },
      schema: {
        tags: ['on-site'],
        summary:
          'Ends a roll call, recording who ended it and when; its record (people, marks, counts) stays. 409 when it has ended already.',
        params: rollCallParamsSchema,
        response: { 200: rollCallAnswerSchema },
      },
    },
    async (request) => {
      const { who, record } = await loadAuthorized(request, findRollCall, request.params.id);
      assertRollCallWithinSites(who, record);
      if (!(await endRollCall(app.db, record, who.userId))) throw conflict(ENDED);
      return answer(record.id);
    },
  );
};
