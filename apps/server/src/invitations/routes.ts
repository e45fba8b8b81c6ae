/**
 * `/api/invitations` (issue 30): a host invites visitors to a site of their company
 * ('invitations.create': every staff member, in their own company only), lists them
 * ("Mes visiteurs"), changes an invitation's schedule and cancels it, a day of it or one
 * visitor of it. A host reaches their own invitations; whoever reads the company's requests
 * ('requests.list') reaches every host's, within their site limits; anything else is a 404.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../params';
import {
  invitationCancelSchema,
  invitationCreatedSchema,
  invitationInputSchema,
  invitationScheduleSchema,
  invitationsQuerySchema,
  type InvitationsScope,
  invitedVisitSchema,
  type InvitationCreate,
} from '@sesame/shared';
import { mayAct } from '../auth/authorize';
import { listAnswer } from '../db/pagination';
import { badRequest, notFound } from '../errors';
import { findHostByEmail } from '../requests/host-loop';
import { say } from '../language';
import { activeSiteOf, assertWithinSites, withinSites } from '../sites/service';
import { invitationImportRoutes } from './import-routes';
import {
  cancelInvitation,
  changeSchedule,
  createInvitation,
  findInvitation,
  listInvitedVisits,
  type Host,
} from './service';
import { invitationVisitorRoutes } from './visitor-routes';

const messageAnswer = z.object({ message: z.string() });

export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(invitationVisitorRoutes);
  await app.register(invitationImportRoutes);
  /**
   * Who hosts a new invitation: the caller; with an API key (issue 34, not a person), the
   * active staff member `host_email` names (400 without one), the key's account writing it.
   */
  const hostOf = async (
    request: FastifyRequest,
    body: InvitationCreate,
  ): Promise<{ host: Host; authorUserId?: string }> => {
    const who = request.principal!;
    if (!who.apiKey) {
      return {
        host: {
          userId: who.userId,
          companyId: who.companyId,
          name: [who.firstname, who.name].filter(Boolean).join(' '),
        },
      };
    }
    if (!body.host_email) {
      throw badRequest((m) => m.invitation.hostRequired, {
        host_email: (m) => m.invitation.hostRequired,
      });
    }
    const host = await findHostByEmail(app.db, who.companyId, body.host_email);
    if (!host) {
      throw badRequest((m) => m.invitation.hostUnknown, {
        host_email: (m) => m.invitation.hostUnknown,
      });
    }
    return {
      host: { userId: host.id, companyId: who.companyId, name: host.name },
      authorUserId: who.userId,
    };
  };

  /**
   * The invitation of the path, if the caller reaches it: their own, or any of their
   * company's when they read its requests (at a site within their limits). Else a 404:
   * another host's invitation is not theirs to know of.
   */
  const invitationOf = async (request: FastifyRequest, id: string) => {
    const who = request.principal!;
    const invitation = await findInvitation(app.db, id);
    if (!invitation || invitation.companyId !== who.companyId) throw notFound();
    const own = invitation.hostUserId === who.userId;
    if (!own && !(mayAct(who, 'requests.list') && withinSites(who, invitation.siteId))) {
      throw notFound();
    }
    return invitation;
  };

  app.post(
    '/invitations',
    {
      config: { action: 'invitations.create' },
      schema: {
        tags: ['invitations'],
        summary:
          'Invites one visitor or several (at most 1000) to an active site of the caller’s company: one request ' +
          'each, confirmed by the caller as host, with its code valid on the invitation’s days only (the first ' +
          'day, DD/MM/YYYY, not past at the site; with `rrule`, a daily or weekly RFC 5545 rule that ends, ' +
          'from that day on, 260 days at most within a year). Each visitor with an e-mail gets the invitation ' +
          'mail (code, QR, .ics, the link to complete their details) in `language`. Answers each request and code. ' +
          'Issue 31: `visitor_type_id`, a type of that site (blank: its first), is stored on the invitation and ' +
          'each visitor (their link asks its fields and documents); the watchlist screens each visitor: one held ' +
          'gets no mail, and their code opens nothing, until a reviewer allows the visit. ' +
          'Issue 34: with an API key, `host_email` names the host, an active staff member of the company ' +
          '(400 without it or for an unknown address); a person invites as host and the field is not heard.',
        body: invitationInputSchema,
        response: { 201: invitationCreatedSchema.extend({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      const who = request.principal!;
      const site = await activeSiteOf(app.db, who.companyId, request.body.site_id);
      assertWithinSites(who, site);
      const hosting = await hostOf(request, request.body);
      const created = await app.db.transaction((tx) =>
        createInvitation(tx, { ...hosting, site, invitation: request.body }),
      );
      reply.code(201);
      return {
        message: say(request, (m) => m.invitation.created(created.visitors.length)),
        ...created,
      };
    },
  );

  const listAnswerSchema = z.object({
    data: z.array(invitedVisitSchema),
    meta: z.object({ page: z.number(), per_page: z.number(), total: z.number() }),
  });
  const whenSummary =
    'one row each with their state (invited, completed, here, arrived, left, cancelled): ' +
    '`when=upcoming` (a day not over, by the next day) or `past`.';

  /**
   * A list of invited visitors: the caller's own (`mine`, as host), or every host's of their
   * company within their site limits (`company`, for whoever reads its requests).
   */
  const invitedList = (scope: InvitationsScope) =>
    app.get(
      `/invitations/${scope}`,
      {
        config: { action: scope === 'mine' ? 'invitations.create' : 'requests.list' },
        schema: {
          tags: ['invitations'],
          summary:
            scope === 'mine'
              ? `The caller’s invited visitors, ${whenSummary}`
              : `Every host’s invited visitors of the caller’s company (within their site limits), ${whenSummary}`,
          querystring: invitationsQuerySchema,
          response: { 200: listAnswerSchema },
        },
      },
      async (request) => {
        const who = request.principal!;
        const { rows, total } = await listInvitedVisits(app.db, {
          companyId: who.companyId,
          hostUserId: scope === 'mine' ? who.userId : null,
          siteIds: scope === 'mine' ? [] : who.siteIds,
          query: request.query,
        });
        return listAnswer(request.query, total, rows);
      },
    );
  invitedList('mine');
  invitedList('company');

  app.put(
    '/invitations/:id',
    {
      config: { action: 'invitations.create' },
      schema: {
        tags: ['invitations'],
        summary:
          'Changes an invitation’s schedule (site, first day, times, rule, reason, language): its days are ' +
          'written again (a cancelled day still in them stays cancelled), and each visitor still invited gets ' +
          'the change with its .ics (same UID, next SEQUENCE). Its host, or whoever reads the company’s requests.',
        params: idParams,
        body: invitationScheduleSchema,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const who = request.principal!;
      const invitation = await invitationOf(request, request.params.id);
      const site = await activeSiteOf(app.db, who.companyId, request.body.site_id);
      assertWithinSites(who, site);
      await app.db.transaction((tx) =>
        changeSchedule(tx, { invitation, schedule: request.body, site, actorUserId: who.userId }),
      );
      return { message: say(request, (m) => m.invitation.updated) };
    },
  );

  app.post(
    '/invitations/:id/cancel',
    {
      config: { action: 'invitations.create' },
      schema: {
        tags: ['invitations'],
        summary:
          'Cancels the whole invitation, one of its days not over (`day`, YYYY-MM-DD), or one visitor of it ' +
          '(`request_id`): the visitors concerned get the cancellation with its .ics (METHOD:CANCEL, same UID, ' +
          'next SEQUENCE); a cancelled visitor’s code opens nothing, a cancelled day opens nothing that day.',
        params: idParams,
        body: invitationCancelSchema,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const invitation = await invitationOf(request, request.params.id);
      const what = await app.db.transaction((tx) =>
        cancelInvitation(tx, {
          invitation,
          cancel: request.body,
          actorUserId: request.principal!.userId,
        }),
      );
      return {
        message: say(request, (m) =>
          what === 'day' ? m.invitation.dayCancelled : m.invitation.cancelled,
        ),
      };
    },
  );
};
