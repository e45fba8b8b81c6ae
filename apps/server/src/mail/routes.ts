/**
 * The state of a visitor's mails (queued, sent, retrying, failed with the mail
 * server's reason) for the request list, the event participants and the meeting
 * card, and Renvoyer for staff who may confirm requests or run events.
 */
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Action,
  formatUidn,
  mailStatusListSchema,
  mailStatusSchema,
  normalizeUidn,
} from '@sesame/shared';
import type { FastifyRequest } from 'fastify';
import { loadAuthorized } from '../auth/authorize';
import type { Db } from '../db/client';
import { visitors } from '../db/schema';
import { conflict, notFound } from '../errors';
import { presentMail, resendVisitorMail, visitorMails } from './status';
import { say } from '../language';

const params = z.object({ id: z.uuid({ error: "L'identifiant du visiteur est invalide." }) });

export const mailRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The visitor, authorised for reading (or resending) its mails: request or event participant. */
  async function visitorFor(request: FastifyRequest, id: string, resend: boolean) {
    const findVisitor = async (db: Db, visitorId: string) => {
      const [visitor] = await db
        .select({ id: visitors.id, companyId: visitors.companyId, eventId: visitors.eventId })
        .from(visitors)
        .where(eq(visitors.id, visitorId))
        .limit(1);
      return visitor;
    };
    const right = (visitor: { eventId: string | null }): Action =>
      visitor.eventId
        ? resend
          ? 'events.create'
          : 'events.list'
        : resend
          ? 'requests.validate'
          : 'requests.list';
    return (await loadAuthorized(request, findVisitor, right, id)).record;
  }

  app.get(
    '/mail/visitor/:id',
    {
      schema: {
        tags: ['mail'],
        summary:
          "A visitor's code mails, newest first: queued, sending, sent, retrying or failed (with the mail server's reason).",
        params,
        response: { 200: mailStatusListSchema },
      },
    },
    async (request) => {
      const visitor = await visitorFor(request, request.params.id, false);
      const rows = await visitorMails(app.db, visitor.id);
      return { data: rows.map(presentMail) };
    },
  );

  app.get(
    '/mail/code/:uidn',
    {
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
      const visitor = await visitorFor(request, found.id, false);
      const rows = await visitorMails(app.db, visitor.id);
      return { visitor_id: visitor.id, data: rows.map(presentMail) };
    },
  );

  app.post(
    '/mail/visitor/:id/resend',
    {
      schema: {
        tags: ['mail'],
        summary:
          'Renvoyer: a mail still waiting goes out now (never twice); a sent or failed one is queued again.',
        params,
        response: { 200: z.object({ message: z.string(), data: mailStatusSchema }) },
      },
    },
    async (request) => {
      const visitor = await visitorFor(request, request.params.id, true);
      const row = await app.db.transaction((tx) => resendVisitorMail(tx, visitor));
      if (!row) throw conflict((m) => m.mail.nothingToResend);
      return { message: say(request, (m) => m.mail.resent), data: presentMail(row) };
    },
  );
};
