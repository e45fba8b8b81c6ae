/**
 * SCIM's errors (RFC 7644 §3.12): every failure of /scim/v2 answers this schema, with the
 * `scimType` the RFC names for a 400 or a 409, and a `detail` said in the request's language.
 */
import type { Say } from '@sesame/shared';

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  constructor(
    public readonly status: number,
    public readonly say: Say,
    public readonly scimType?: ScimType,
  ) {
    super(`SCIM ${status}${scimType ? ` ${scimType}` : ''}`);
  }
}

export const scimBadRequest = (scimType: ScimType, say: Say) => new ScimError(400, say, scimType);
export const invalidFilter = (filter: string) =>
  scimBadRequest('invalidFilter', (m) => m.scim.invalidFilter(filter.slice(0, 200)));
export const invalidSyntax = () => scimBadRequest('invalidSyntax', (m) => m.scim.invalidSyntax);
export const invalidPath = (path: string) =>
  scimBadRequest('invalidPath', (m) => m.scim.invalidPath(path.slice(0, 200)));
export const invalidValue = (attribute: string) =>
  scimBadRequest('invalidValue', (m) => m.scim.invalidValue(attribute.slice(0, 200)));
export const mutability = (attribute: string) =>
  scimBadRequest('mutability', (m) => m.scim.mutability(attribute.slice(0, 200)));
export const noTarget = (path: string) =>
  scimBadRequest('noTarget', (m) => m.scim.noTarget(path.slice(0, 200)));
export const scimNotFound = () => new ScimError(404, (m) => m.api.notFound);
export const scimUnauthorized = () => new ScimError(401, (m) => m.scim.tokenRefused);
export const uniqueness = (say: Say) => new ScimError(409, say, 'uniqueness');

/** The body of an error answer. */
export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  };
}
