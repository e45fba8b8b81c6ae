/**
 * The path parameters many routes share, written once (issue 36 §2).
 */
import { said, TEXT_MAX } from '@sesame/shared';
import { z } from 'zod';

/** `/…/:id`, a record's id: a malformed one is a 400 'La requête est mal formée.' */
export const idParams = z.object({ id: z.uuid(said((m) => m.api.badRequest)) });

/** `/company/:id/…`: a company's slug or id, which the route's guard resolves (else 404). */
export const companyParams = z.object({ id: z.string().min(1).max(TEXT_MAX.slug) });
