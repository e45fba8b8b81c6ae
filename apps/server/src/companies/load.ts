import type { FastifyRequest } from 'fastify';
import { companyItself, loadAuthorized } from '../auth/authorize';
import type { Principal } from '../auth/principal';
import { findCompany, type CompanyRow } from './service';

/**
 * The company a route names by slug or id, found and authorized in one step
 * (`loadAuthorized` on the company itself, for the route's `config.action`): 404 for
 * a missing company or one beyond the caller's reach. Every route that lists or
 * changes what one company holds starts with it.
 */
export function loadCompany(
  request: FastifyRequest,
  slugOrId: string,
): Promise<{ who: Principal; record: CompanyRow }> {
  return loadAuthorized(request, findCompany, slugOrId, { companyOf: companyItself });
}
