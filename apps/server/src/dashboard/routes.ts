/**
 * The dashboard (issue 35): every figure of the screen for a period and the one before
 * it, and the same as CSV. Read by the platform's admin (any company, ?company=), the
 * company's super admin, managers and supervisors; a person limited to some sites reads
 * those only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DASHBOARD_CHARTS,
  DASHBOARD_LIMITS,
  catalogue,
  dashboardCsvQuerySchema,
  dashboardQuerySchema,
  dashboardSchema,
  type DashboardQuery,
} from '@sesame/shared';
import type { FastifyRequest } from 'fastify';
import { companyScope, signedIn } from '../auth/authorize';
import { loadCompany } from '../companies/load';
import { siteScope } from '../sites/service';
import { sendCsv } from '../checkins/csv';
import { dashboardCsv } from './csv';
import { readDashboard } from './figures';

const queryHelp =
  `?from=&to= the period (YYYY-MM-DD, both days included, each site's own days in its time zone; at most ` +
  `${DASHBOARD_LIMITS.maxDays} days), ?site= one site (beyond the caller's reach: 404; without it every site ` +
  'the caller may see), ?company= a slug or id (the platform admin, who reads every company together without it; ' +
  'everyone else reads their own company). ' +
  'Every figure comes with the previous period of the same length.';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The dashboard of the query's scope, in the caller's language. */
  async function dashboardOf(request: FastifyRequest, query: DashboardQuery) {
    const who = signedIn(request);
    const companyId = query.company
      ? (await loadCompany(request, query.company)).record.id
      : companyScope(who, 'dashboard.view');
    const siteIds = await siteScope(app.db, who, 'dashboard.view', companyId, query.site);
    return readDashboard(app.db, {
      companyId,
      siteIds,
      from: query.from,
      to: query.to,
      lang: request.lang,
    });
  }

  app.get(
    '/dashboard',
    {
      config: { action: 'dashboard.view' },
      schema: {
        tags: ['dashboard'],
        summary:
          'The dashboard: arrivals, visits, expected visits and no-shows, peak on site, visit length (median, ' +
          '90th percentile), automatic check-outs, time to answer requests, event registrations and attendees, ' +
          'for the period and the previous one; visitors inside now and the peak today; and the series behind ' +
          `each chart (${DASHBOARD_CHARTS.join(', ')}). ${queryHelp}`,
        querystring: dashboardQuerySchema,
        response: { 200: dashboardSchema },
      },
    },
    async (request) => dashboardOf(request, request.query),
  );

  app.get(
    '/dashboard.csv',
    {
      config: { action: 'dashboard.view' },
      schema: {
        tags: ['dashboard'],
        summary:
          'The same as CSV for French Excel (UTF-8 with BOM, semicolons): with ?chart= one of ' +
          `${DASHBOARD_CHARTS.join(', ')}, that chart's table; without it, each figure for the period beside ` +
          `the previous one. ${queryHelp}`,
        querystring: dashboardCsvQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const dashboard = await dashboardOf(request, request.query);
      const words = catalogue(request.lang).dashboard;
      const name = [words.fileName, request.query.chart].filter(Boolean).join('-');
      return sendCsv(
        reply,
        `${name}-${request.query.from}-${request.query.to}.csv`,
        dashboardCsv(dashboard, request.query.chart, request.lang),
      );
    },
  );
};
