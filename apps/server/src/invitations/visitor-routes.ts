/**
 * The invited visitor's link (issue 30), public: `?token=` is the signed link of their
 * invitation mail (invitations/link.ts), valid until the end of the visit's last day. The
 * token travels in the query string, which the logs never carry (log-redaction.ts). Each
 * route is rate-limited like the other public links, and answers in the caller's language.
 * - GET shows the visit (theirs alone), and whether today is one of its days;
 * - POST details completes what the site asks before arrival (multipart);
 * - POST here is "Je suis arrivé(e)": the host and the front desk are told, no door opens.
 * A forged or altered link is a 404, an expired one a 410.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ID_FILE_MAX_BYTES,
  invitationDetailsSchemaFor,
  invitationLinkQuerySchema,
  invitationLinkViewSchema,
  issueParams,
  type Say,
} from '@sesame/shared';
import { badRequest, HttpError, notFound, payloadTooLarge } from '../errors';
import { ALLOWED } from '../files/detect';
import { checkFile, readMultipart, withStoredFileCleanup } from '../files/uploads';
import { issueMessage, issueMessages, say } from '../language';
import {
  announceArrival,
  completeDetails,
  fieldsStillAsked,
  findLinkedVisit,
  linkedVisitToSign,
  presentLinkedVisit,
  visitDays,
} from './arrival';
import { InvitationLinks } from './link';

const gone = (message: Say) => new HttpError(410, message);
const messageAnswer = z.object({ message: z.string() });

export const invitationVisitorRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = app.config.rateLimits;
  const links = new InvitationLinks(app.config.jwtSecret);
  const linkConfig = {
    public: true,
    rateLimit: { max: limits.codeLookupPerWindow, timeWindow: limits.windowMs },
  } as const;
  const formConfig = {
    public: true,
    rateLimit: { max: limits.publicFormPerWindow, timeWindow: limits.windowMs },
  } as const;

  /** The visit the link names: 404 when forged, altered or its visit gone; 410 once expired. */
  async function linkedVisit(token: string) {
    const check = links.verify(token);
    if (!check.ok)
      throw check.reason === 'expired'
        ? gone((m) => m.invitation.linkInvalid)
        : notFound((m) => m.invitation.linkInvalid);
    const visit = await findLinkedVisit(app.db, check.requestId);
    if (!visit) throw notFound((m) => m.invitation.linkInvalid);
    return visit;
  }

  app.get(
    '/public/invitation',
    {
      config: linkConfig,
      schema: {
        tags: ['invitations'],
        summary:
          "The invited visitor's page (public, ?token= from their invitation mail): their visit — company, " +
          'host, site with its address and an OpenStreetMap link, the days and times in the site’s zone, ' +
          'their code — whether their details are completed, and whether today is a day of the visit. ' +
          'Nothing of another visitor, no identity document. 404 for a forged link, 410 once expired.',
        querystring: invitationLinkQuerySchema,
        response: { 200: z.object({ data: invitationLinkViewSchema }) },
      },
    },
    async (request, reply) => {
      const visit = await linkedVisit(request.query.token);
      const days = await visitDays(app.db, visit.invitationId);
      reply.header('cache-control', 'no-store');
      return {
        data: presentLinkedVisit(visit, days, {
          now: new Date(),
          language: request.lang,
          logoUrl: app.fileUrls.logo(visit.company.logo),
          toSign: await linkedVisitToSign(app.db, visit),
        }),
      };
    },
  );

  app.post(
    '/public/invitation/details',
    {
      config: formConfig,
      schema: {
        tags: ['invitations'],
        summary:
          'The invited visitor completes what the site asks before arrival (public, ?token=): multipart ' +
          '`id_number`, the identity document as `request_image` (JPEG, PNG, WebP or PDF by content, ≤ 2 MiB, ' +
          'as the visitor form) and `privacy_accepted`. A second completion replaces the document. ' +
          "Issue 31: the visit's type decides what is required among `id_number`, `request_image`, " +
          '`organisation` and `contact` (what the visitor already gave is not asked again), and its ' +
          'documents still to sign (`to_sign` of GET) come as `signatures` (a JSON string field; else 400). ' +
          'A cancelled invitation is a 400.',
        querystring: invitationLinkQuerySchema,
        consumes: ['multipart/form-data'],
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const visit = await linkedVisit(request.query.token);
      const body = await readMultipart(request, ID_FILE_MAX_BYTES);
      if (visit.cancelled) throw badRequest((m) => m.invitation.detailsClosed);
      const upload = body.files.request_image;
      // Issue 31: what the visit's type requires and the visitor has not given yet.
      const asked = fieldsStillAsked(visit);
      const parsed = invitationDetailsSchemaFor(asked).safeParse({
        ...body.fields,
        // The schema sees the file's size; its bytes are checked below (checkFile).
        request_image: upload ? { size: upload.bytes.length } : undefined,
      });
      if (!parsed.success) {
        const [first] = parsed.error.issues;
        const message = issueMessage(first ?? {});
        if (issueParams(first ?? {})?.key === 'fileTooLarge') throw payloadTooLarge(message);
        throw badRequest(message, issueMessages(parsed.error.issues));
      }
      const document =
        upload || asked.includes('id_document')
          ? checkFile(upload, ALLOWED.identityDocument, ID_FILE_MAX_BYTES)
          : null;
      const { replaced } = await withStoredFileCleanup(app.storage, (storage) =>
        app.db.transaction((tx) =>
          completeDetails(tx, storage, {
            visit,
            idNumber: parsed.data.id_number,
            organisation: parsed.data.organisation,
            contact: parsed.data.contact,
            signed: parsed.data.signatures,
            document,
          }),
        ),
      );
      if (replaced) await app.storage.remove(replaced).catch(() => undefined);
      request.log.info({ requestId: visit.requestId }, 'invited visitor completed their details');
      return { message: say(request, (m) => m.invitation.detailsSaved) };
    },
  );

  app.post(
    '/public/invitation/here',
    {
      config: linkConfig,
      schema: {
        tags: ['invitations'],
        summary:
          '"Je suis arrivé(e)" (public, ?token=): on a day of the invitation in the site’s zone (else 400), the ' +
          'host and the site’s front desk are told by mail and on their live screens, once a day. It is no ' +
          'check-in: no door opens, the front desk still scans the code.',
        querystring: invitationLinkQuerySchema,
        response: { 200: messageAnswer },
      },
    },
    async (request) => {
      const visit = await linkedVisit(request.query.token);
      const arrival = await app.db.transaction((tx) => announceArrival(tx, { visit }));
      if (arrival.queued > 0)
        request.log.info({ requestId: visit.requestId }, 'invited visitor said they are here');
      return {
        message: say(request, (m) =>
          arrival.host ? m.invitation.hostTold(arrival.host) : m.invitation.deskTold,
        ),
      };
    },
  );
};
