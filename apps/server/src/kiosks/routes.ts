/**
 * `/api/company/{id}/kiosks` (issue 29): a company's lobby kiosks, created, edited, given
 * a pairing code and revoked by its admin side ('kiosks.manage'). Another company's kiosk
 * is a 404, as for every record; someone limited to some sites manages those sites' kiosks
 * only (403 `site.notYours`). The tablet's own calls are in device-routes.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { companyParams } from '../params';
import {
  kioskInputSchema,
  kioskPairingSchema,
  kioskSchema,
  kioskUpdateSchema,
} from '@sesame/shared';
import { companyItself, loadAuthorized } from '../auth/authorize';
import { findCompany } from '../companies/service';
import { notFound } from '../errors';
import { say } from '../language';
import { assertWithinSites } from '../sites/service';
import { kioskDeviceRoutes } from './device-routes';
import {
  createKiosk,
  findKiosk,
  kioskSite,
  listKiosks,
  newPairingCode,
  presentKiosk,
  revoke,
  updateKiosk,
} from './service';

const kioskParams = companyParams.extend({ kioskId: z.uuid() });
const kioskAnswer = z.object({ message: z.string(), data: kioskSchema });
const pairingAnswer = kioskAnswer.extend({ pairing: kioskPairingSchema });

export const kioskRoutes: FastifyPluginAsyncZod = async (app) => {
  const secret = app.config.jwtSecret;

  /** The company of the path, within the caller's reach for the route's right (else 404). */
  const companyOf = async (request: FastifyRequest, id: string) =>
    (await loadAuthorized(request, findCompany, id, { companyOf: companyItself })).record;

  /**
   * The kiosk of the path: the path's company's own (another's, or none: 404), at a site
   * the caller may act at (a site beyond their limits: 403).
   */
  const kioskOf = async (request: FastifyRequest, params: { id: string; kioskId: string }) => {
    const company = await companyOf(request, params.id);
    const { who, record } = await loadAuthorized(request, findKiosk, params.kioskId);
    if (record.companyId !== company.id) throw notFound();
    assertWithinSites(who, { id: record.siteId, companyId: record.companyId });
    return { who, kiosk: record };
  };

  app.get(
    '/company/:id/kiosks',
    {
      config: { action: 'kiosks.manage' },
      schema: {
        tags: ['kiosks'],
        summary:
          "A company's kiosks (its id or slug), revoked ones too, newest first; a staff member limited to " +
          "some sites sees those sites' kiosks only. Never a code nor a token.",
        params: companyParams,
        response: { 200: z.object({ data: z.array(kioskSchema) }) },
      },
    },
    async (request) => {
      const company = await companyOf(request, request.params.id);
      const who = request.principal!;
      const limits = company.id === who.companyId ? who.siteIds : [];
      const rows = await listKiosks(app.db, company.id, limits);
      const now = new Date();
      return { data: rows.map((row) => presentKiosk(row, now)) };
    },
  );

  app.post(
    '/company/:id/kiosks',
    {
      config: { action: 'kiosks.manage' },
      schema: {
        tags: ['kiosks'],
        summary:
          'Creates a kiosk at an active site of the company, and answers its 6-digit pairing code, ' +
          'valid 10 minutes and shown this once (the tablet types it at /kiosk).',
        params: companyParams,
        body: kioskInputSchema,
        response: { 201: pairingAnswer },
      },
    },
    async (request, reply) => {
      const company = await companyOf(request, request.params.id);
      const who = request.principal!;
      assertWithinSites(who, await kioskSite(app.db, company.id, request.body.site_id));
      const { kiosk, pairing } = await createKiosk(app.db, company.id, request.body, {
        userId: who.userId,
        secret,
      });
      reply.code(201);
      return { message: say(request, (m) => m.kiosk.created), data: presentKiosk(kiosk), pairing };
    },
  );

  app.put(
    '/company/:id/kiosks/:kioskId',
    {
      config: { action: 'kiosks.manage' },
      schema: {
        tags: ['kiosks'],
        summary:
          'Edits a kiosk; a field left out is kept. Its site must be an active one of the company.',
        params: kioskParams,
        body: kioskUpdateSchema,
        response: { 200: kioskAnswer },
      },
    },
    async (request) => {
      const { who, kiosk } = await kioskOf(request, request.params);
      if (request.body.site_id !== undefined) {
        assertWithinSites(who, await kioskSite(app.db, kiosk.companyId, request.body.site_id));
      }
      const row = await updateKiosk(app.db, kiosk, request.body, { userId: who.userId, secret });
      return { message: say(request, (m) => m.kiosk.updated), data: presentKiosk(row) };
    },
  );

  app.post(
    '/company/:id/kiosks/:kioskId/pairing',
    {
      config: { action: 'kiosks.manage' },
      schema: {
        tags: ['kiosks'],
        summary:
          'A new 6-digit pairing code for the kiosk (10 minutes, shown once); a revoked kiosk may be paired ' +
          'again with it. The tablet paired now keeps working until the code is used.',
        params: kioskParams,
        response: { 200: pairingAnswer },
      },
    },
    async (request) => {
      const { who, kiosk } = await kioskOf(request, request.params);
      const { kiosk: row, pairing } = await newPairingCode(app.db, kiosk, {
        userId: who.userId,
        secret,
      });
      return { message: say(request, (m) => m.kiosk.newCode), data: presentKiosk(row), pairing };
    },
  );

  app.delete(
    '/company/:id/kiosks/:kioskId',
    {
      config: { action: 'kiosks.manage' },
      schema: {
        tags: ['kiosks'],
        summary:
          "Revokes a kiosk: its tablet's next call is refused (401) and it returns to pairing. " +
          "The kiosk stays listed as 'revoked'; a new code pairs it again.",
        params: kioskParams,
        response: { 200: kioskAnswer },
      },
    },
    async (request) => {
      const { who, kiosk } = await kioskOf(request, request.params);
      const row = await revoke(app.db, kiosk, { userId: who.userId, secret });
      return { message: say(request, (m) => m.kiosk.revoked), data: presentKiosk(row) };
    },
  );

  await app.register(kioskDeviceRoutes);
};
