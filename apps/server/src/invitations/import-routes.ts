/**
 * POST `/api/invitations/import` (issue 30): a host invites the visitors of a CSV — the
 * schedule in the form's fields, the file in `file` (import.ts reads it). Every line is
 * checked before anything is written: one bad line answers 400 with every line's problems
 * in the caller's language, and nothing is created. `?dry_run=true` runs the whole import
 * in a transaction it rolls back (the site, the days, each phone as the service reads it)
 * and answers the visitors it would invite: what a dry run accepts, the import writes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  INVITATION_LIMITS,
  invitationCreatedSchema,
  invitationCsvErrorSchema,
  invitationImportFieldsSchema,
  type Catalogue,
  type InvitationCreated,
} from '@sesame/shared';
import { toE164 } from '@sesame/shared/phone';
import { badRequest, HttpError } from '../errors';
import { parseFields } from '../files/fields';
import { readMultipart } from '../files/uploads';
import { say } from '../language';
import { activeSiteOf, assertWithinSites } from '../sites/service';
import { readInvitationCsv, type CsvLineProblem } from './import';
import { createInvitation, type Host } from './service';

const importQuery = z.object({
  /** 'true': check everything, write nothing, answer the visitors the file holds. */
  dry_run: z.enum(['true', 'false']).optional(),
});

const previewSchema = z.object({
  visitors: z.array(
    z.object({
      firstname: z.string(),
      lastname: z.string(),
      email: z.string(),
      /** E.164, as it will be stored; '' without one. */
      phone: z.string(),
      organisation: z.string(),
    }),
  ),
  count: z.number(),
});

const refusedSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
  lines: z.array(invitationCsvErrorSchema).optional(),
});

/** The service's `visitors.N.phone`: the N-th visitor's phone it could not read. */
const VISITOR_PHONE = /^visitors\.(\d+)\.phone$/;

/** Thrown inside a dry run's transaction to roll it back once everything was checked. */
class DryRunDone extends Error {}

export const invitationImportRoutes: FastifyPluginAsyncZod = async (app) => {
  /** 400 `{ message, lines }`: every problem, by line, in the caller's language. */
  const refuseLines = (
    request: FastifyRequest,
    reply: FastifyReply,
    problems: CsvLineProblem[],
  ) => {
    const sorted = [...problems].sort((a, b) => a.line - b.line);
    const count = new Set(sorted.map((p) => p.line)).size;
    return reply.code(400).send({
      message: say(request, (m) => m.invitation.csvErrors(count)),
      lines: sorted.map((p) => ({ line: p.line, field: p.field, message: say(request, p.say) })),
    });
  };

  app.post(
    '/invitations/import',
    {
      config: { action: 'invitations.create' },
      schema: {
        tags: ['invitations'],
        summary:
          'Invites the visitors of a CSV file, as POST /api/invitations does for a list. multipart/form-data: ' +
          'the schedule (site_id, date DD/MM/YYYY, time, end_time, reason, language, rrule) and the file in ' +
          '`file` (at most 1 MiB, at most 1000 visitors): UTF-8 or Windows-1252 as French Excel saves it, `;` ' +
          'or `,` as the header line has it, the header naming the columns in French or English in any ' +
          'order (Prénom/First name, Nom/Last name, E-mail/Email, Téléphone/Phone, Organisation; an e-mail or ' +
          'a phone column). Each line is checked first: any bad one answers 400 with `lines` ({line, field, ' +
          'message}, the header being line 1) and nothing is created. `?dry_run=true` checks everything and ' +
          'answers the visitors it would invite, creating nothing. Not with an API key (400: it names no host; ' +
          'POST /api/invitations with `host_email` does).',
        consumes: ['multipart/form-data'],
        querystring: importQuery,
        response: {
          200: previewSchema,
          201: invitationCreatedSchema.extend({ message: z.string() }),
          400: refusedSchema,
        },
      },
    },
    async (request, reply) => {
      const who = request.principal!;
      // Issue 34: a key is not a person, and a file names no host.
      if (who.apiKey) throw badRequest((m) => m.invitation.hostRequired);
      const body = await readMultipart(request, INVITATION_LIMITS.csvMaxBytes);
      const file = body.files.file;
      const schedule = parseFields(
        invitationImportFieldsSchema,
        body.fields,
        file ? {} : { file: (m: Catalogue) => m.invitation.csvMissing },
      );
      const csv = readInvitationCsv(file!.bytes, request.lang);
      if (csv.problems.length > 0) return refuseLines(request, reply, csv.problems);

      const site = await activeSiteOf(app.db, who.companyId, schedule.site_id);
      assertWithinSites(who, site);
      const host: Host = {
        userId: who.userId,
        companyId: who.companyId,
        name: [who.firstname, who.name].filter(Boolean).join(' '),
      };
      const dryRun = request.query.dry_run === 'true';
      let created: InvitationCreated;
      try {
        created = await app.db.transaction(async (tx) => {
          const written = await createInvitation(tx, {
            host,
            site,
            invitation: { ...schedule, visitors: csv.visitors },
          });
          if (dryRun) throw new DryRunDone();
          return written;
        });
      } catch (error) {
        if (error instanceof DryRunDone) {
          return {
            visitors: csv.visitors.map((v) => ({ ...v, phone: v.phone ? toE164(v.phone)! : '' })),
            count: csv.visitors.length,
          };
        }
        // A phone the service could not read (import.ts read each already): its line.
        const phones = error instanceof HttpError ? Object.keys(error.errors ?? {}) : [];
        const lines = phones.flatMap((key) => {
          const index = VISITOR_PHONE.exec(key)?.[1];
          const line = index === undefined ? undefined : csv.lines[Number(index)];
          return line === undefined ? [] : [line];
        });
        if (lines.length > 0 && lines.length === phones.length) {
          return refuseLines(
            request,
            reply,
            lines.map((line) => ({ line, field: 'phone', say: (m) => m.validation.phoneInvalid })),
          );
        }
        throw error;
      }
      request.log.info(
        { invitationId: created.invitation_id, visitors: created.visitors.length, by: who.userId },
        'invitation imported',
      );
      reply.code(201);
      return {
        message: say(request, (m) => m.invitation.created(created.visitors.length)),
        ...created,
      };
    },
  );
};
