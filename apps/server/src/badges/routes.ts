/**
 * Visitors' badges (issue 29).
 *
 * The front desk ('badges.print'; another company's request is a 404, a request of a site
 * beyond the caller's limits a 403 `site.notYours`):
 * - `GET /api/badges/{requestId}`: the badge page (HTML, `@page` at the site's label size;
 *   `?print=1` calls window.print() once loaded), `?format=pdf` the PDF at the media size,
 *   `?size=` one of BADGE_SIZES instead of the site's;
 * - `POST /api/badges/{requestId}/print` `{ via }`: 'ipp' sends the PDF to the site's printer,
 *   'browser' records a print the page's own dialog made;
 * - `GET /api/badges/{requestId}/prints`: its prints, newest first.
 *
 * The kiosk (its device token, `config.kiosk`): the same page and print for a request of its
 * own site and of today only (anything else is a 404), at the kiosk's label size, sent to the
 * kiosk's printer, else its site's.
 *
 * A badge is for a confirmed request only (400 `badge.notConfirmed`); a print is recorded once
 * it happened (a printer that does not take it: 502, nothing recorded).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BADGE_SIZES,
  badgePrintInputSchema,
  badgePrintSchema,
  badgeSizeField,
  type BadgeSize,
} from '@sesame/shared';
import { loadAuthorized } from '../auth/authorize';
import { badRequest, notFound } from '../errors';
import { say } from '../language';
import { assertWithinSites } from '../sites/service';
import { printPdf } from './ipp';
import {
  badgeContent,
  badgeHtml,
  badgePagePolicy,
  badgePdf,
  findBadgeRequest,
  newNonce,
  todayIn,
  type BadgeRequest,
} from './render';
import {
  kioskPrinting,
  listBadgePrints,
  presentBadgePrint,
  recordBadgePrint,
  type PrintRecord,
} from './service';

const params = z.object({ requestId: z.uuid() });
const badgeQuery = z.object({
  /** 'html' (default): the page to print; 'pdf': the PDF at the label's media size. */
  format: z.enum(['html', 'pdf']).optional(),
  /** '1': the page calls window.print() once loaded. */
  print: z.enum(['0', '1']).optional(),
});
const staffBadgeQuery = badgeQuery.extend({ size: badgeSizeField.optional() });
const printAnswer = z.object({ message: z.string(), data: badgePrintSchema });

export const badgeRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The badge (HTML or PDF) of `record` at `size`, as the response. */
  async function sendBadge(
    reply: FastifyReply,
    record: BadgeRequest,
    size: BadgeSize,
    query: z.infer<typeof badgeQuery>,
  ) {
    const content = await badgeContent(app.db, app.storage, record);
    reply.header('cache-control', 'no-store');
    if (query.format === 'pdf') {
      const pdf = await badgePdf(content, size);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', 'inline; filename="badge.pdf"')
        .send(Buffer.from(pdf));
    }
    const nonce = query.print === '1' ? newNonce() : undefined;
    const html = await badgeHtml(content, size, { printNonce: nonce });
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', badgePagePolicy(nonce))
      .send(html);
  }

  /**
   * Prints `record`'s badge: over IPP to `printerUrl` (400 `badge.noPrinter` when there is
   * none), or records the browser's print; then the print and its audit entry.
   */
  async function print(
    request: FastifyRequest,
    record: BadgeRequest,
    via: 'ipp' | 'browser',
    printing: { printerUrl: string | null; size: BadgeSize; by: PrintRecord['by']; user: string },
  ) {
    const content = await badgeContent(app.db, app.storage, record);
    let printer = 'browser';
    if (via === 'ipp') {
      if (!printing.printerUrl) throw badRequest((m) => m.badge.noPrinter);
      const pdf = await badgePdf(content, printing.size);
      await printPdf({
        printerUrl: printing.printerUrl,
        pdf,
        jobName: `badge-${record.id.slice(0, 8)}`,
        userName: printing.user,
        media: BADGE_SIZES[printing.size],
      });
      printer = printing.printerUrl;
    }
    const row = await recordBadgePrint(app.db, {
      companyId: record.companyId,
      requestId: record.id,
      by: printing.by,
      printer,
      badgeSize: printing.size,
    });
    return {
      message: say(request, (m) => (row.reprint ? m.badge.reprinted : m.badge.printed)),
      data: presentBadgePrint(row),
    };
  }

  /** The staff's request: their company's (else 404), a site within their limits (else 403). */
  async function staffRecord(request: FastifyRequest, requestId: string) {
    const { who, record } = await loadAuthorized(request, findBadgeRequest, requestId);
    assertWithinSites(who, { id: record.siteId, companyId: record.companyId });
    return { who, record };
  }

  /** The kiosk's request: of its own site and of today (in the site's zone), else 404. */
  async function kioskRecord(request: FastifyRequest, requestId: string) {
    const kiosk = request.kiosk!;
    const record = await findBadgeRequest(app.db, requestId);
    if (
      !record ||
      record.companyId !== kiosk.companyId ||
      record.siteId !== kiosk.siteId ||
      record.day !== todayIn(record.timezone)
    ) {
      throw notFound();
    }
    return { kiosk, record };
  }

  app.get(
    '/badges/:requestId',
    {
      config: { action: 'badges.print' },
      schema: {
        tags: ['badges'],
        summary:
          "A confirmed request's visitor badge: an HTML page at the site's label size (@page; " +
          '?print=1 opens the print dialog once loaded), or ?format=pdf the PDF at the media size; ' +
          "?size= one of 62x100, 54x86, A6 instead of the site's.",
        params,
        querystring: staffBadgeQuery,
      },
    },
    async (request, reply) => {
      const { record } = await staffRecord(request, request.params.requestId);
      return sendBadge(reply, record, request.query.size ?? record.siteBadgeSize, request.query);
    },
  );

  app.post(
    '/badges/:requestId/print',
    {
      config: { action: 'badges.print' },
      schema: {
        tags: ['badges'],
        summary:
          "Prints a confirmed request's badge: via 'ipp' sends its PDF to the site's badge printer " +
          "(400 when none is set, 502 when it does not take it: nothing is recorded); via 'browser' " +
          'records the print the badge page made. A print after another is a reprint.',
        params,
        body: badgePrintInputSchema,
        response: { 200: printAnswer },
      },
    },
    async (request) => {
      const { who, record } = await staffRecord(request, request.params.requestId);
      return print(request, record, request.body.via, {
        printerUrl: record.sitePrinterUrl,
        size: record.siteBadgeSize,
        by: { userId: who.userId },
        user: `Sesame ${who.firstname} ${who.name}`,
      });
    },
  );

  app.get(
    '/badges/:requestId/prints',
    {
      config: { action: 'badges.print' },
      schema: {
        tags: ['badges'],
        summary: "A request's badge prints, newest first (who printed is in the audit log).",
        params,
        response: { 200: z.object({ data: z.array(badgePrintSchema) }) },
      },
    },
    async (request) => {
      const { record } = await staffRecord(request, request.params.requestId);
      const rows = await listBadgePrints(app.db, record.id);
      return { data: rows.map(presentBadgePrint) };
    },
  );

  app.get(
    '/kiosk/badges/:requestId',
    {
      config: { kiosk: true },
      schema: {
        tags: ['badges'],
        summary:
          "The kiosk's badge page for a confirmed visit of its site today, at the kiosk's label " +
          'size (?print=1 opens the print dialog; ?format=pdf the PDF). Device token only.',
        params,
        querystring: badgeQuery,
      },
    },
    async (request, reply) => {
      const { kiosk, record } = await kioskRecord(request, request.params.requestId);
      const { badgeSize } = await kioskPrinting(app.db, kiosk.id);
      return sendBadge(reply, record, badgeSize, request.query);
    },
  );

  app.post(
    '/kiosk/badges/:requestId/print',
    {
      config: { kiosk: true },
      schema: {
        tags: ['badges'],
        summary:
          "Prints the badge of a confirmed visit of the kiosk's site today: via 'ipp' to the " +
          "kiosk's printer, else its site's (400 when neither is set, 502 when it does not take " +
          "it); via 'browser' records the tablet's own print. Device token only.",
        params,
        body: badgePrintInputSchema,
        response: { 200: printAnswer },
      },
    },
    async (request) => {
      const { kiosk, record } = await kioskRecord(request, request.params.requestId);
      const printing = await kioskPrinting(app.db, kiosk.id);
      return print(request, record, request.body.via, {
        printerUrl: printing.printerUrl ?? record.sitePrinterUrl,
        size: printing.badgeSize,
        by: { kioskId: kiosk.id },
        user: `Sesame ${kiosk.name}`,
      });
    },
  );
};
