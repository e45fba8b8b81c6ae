/**
 * The state of a visitor's mails (queued, sent, retrying, failed with the mail
 * server's reason) for the request list, the event participants and the meeting
 * card, and Renvoyer for staff who may confirm requests or run events.
 */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatUidn, mailStatusListSchema, mailStatusSchema, normalizeUidn } from '@sesame/shared';
import type { FastifyRequest } from 'fastify';
import { loadAuthorized, type RouteRight } from '../auth/authorize';
import type { Db } from '../db/client';
import { visitors } from '../db/schema';
import { conflict, notFound } from '../errors';
import { presentMail, resendVisitorMail, visitorMails } from './status';
import { say } from '../language';

const params = z.object({ id: z.uuid({ error: "L'identifiant du visiteur est invalide." }) });

/**
 * Who may read a visitor's mails, and who may resend them: a meeting visitor's are the
 * request list's and its confirmers', an event guest's the event list's and the events'
 * creators'. A route serves both kinds (any of its two actions); the visitor found
 * says which one applies.
 */
const READ = { meeting: 'requests.list', event: 'events.list' } as const;
const RESEND = { meeting: 'requests.validate', event: 'events.create' } as const;
type Rights = typeof READ | typeof RESEND;

const findVisitor = async (db: Db, visitorId: string) => {
  const [visitor] = await db
    .select({ id: visitors.id, companyId: visitors.companyId, eventId: visitors.eventId })
    .from(visitors)
    .where(eq(visitors.id, visitorId))
    .limit(1);
  return visitor;
};

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The visitor, within the caller's reach and rights for its kind (see READ, RESEND). */
  async function visitorFor(request: FastifyRequest, id: string, rights: Rights) {
    const recordRight = (visitor: { eventId: string | null }): RouteRight =>
      visitor.eventId ? rights.event : rights.meeting;
    return (await loadAuthorized(request, findVisitor, id, { recordRight })).record;
  }

  app.get(
    '/mail/visitor/:id',
    {
      config: { action: [READ.meeting, READ.event] },
      schema: {
        tags: ['mail'],
        summary:
          "A visitor's code mails, newest first: queued, sending, sent, retrying or failed (with the mail server's reason).",
        params,
        response: { 200: mailStatusListSchema },
      },
    },
    async (request) => {
      const visitor = await visitorFor(request, request.params.id, READ);
      const rows = await visitorMails(app.db, visitor.id);
      return { data: rows.map(presentMail) };
    },
  );

  app.get(
    '/mail/code/:uidn',
    {
      config: { action: [READ.meeting, READ.event] },
      schema: {
        tags: ['mail'],
        summary:
          "The mails of the visitor holding this code (the meeting card's staff view), with the visitor's id for Renvoyer.",
        params: z.object({ uidn: z.string().trim().min(1).max(40) }),
        response: { 200: mailStatusListSchema.extend({ visitor_id: z.string() }) },
      },
    },
    async (request) => {
      const [found] = await app.db
        .select({ id: visitors.id })
        .from(visitors)
        .where(eq(visitors.uidn, formatUidn(normalizeUidn(request.params.uidn))))
        .limit(1);
      if (!found) throw notFound();
      const visitor = await visitorFor(request, found.id, READ);
      const rows = await visitorMails(app.db, visitor.id);
      return { visitor_id: visitor.id, data: rows.map(presentMail) };
    },
  );

  app.post(
    '/mail/visitor/:id/resend',
    {
      config: { action: [RESEND.meeting, RESEND.event] },
      schema: {
        tags: ['mail'],
        summary:
          'Renvoyer: a mail still waiting goes out now (never twice); a sent or failed one is queued again.',
        params,
        response: { 200: z.object({ message: z.string(), data: mailStatusSchema }) },
      },
    },
    async (request) => {
      const visitor = await visitorFor(request, request.params.id, RESEND);
      const row = await app.db.transaction((tx) => resendVisitorMail(tx, visitor));
      if (!row) throw conflict((m) => m.mail.nothingToResend);
      return { message: say(request, (m) => m.mail.resent), data: presentMail(row) };
    },
  );
};
